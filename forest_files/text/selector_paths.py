"""The file paths of many selectors, each distinct path judged once.

``{selector_path(s) for s in texts}`` judges a file's path once per selector: a commit
moving 2,000 sections into 200 files judges 200 paths 2,000 times. What
``selector_path`` asks of a text alone (empty, too long, a control character) depends
on the text, what it asks of the path only on the path; so a text whose own checks
pass and whose path passed for an earlier text has that path, and every other text
goes through ``selector_path`` itself, refused as it refuses it.

A place already named by a parse (a selector ``render`` made of a section found in a
file: the check's move search, the index's extract) has a path judged when it was
named; ``place_path`` only splits it off, as ``split_path`` does, with no regex for the
common text holding no backslash, ``@`` or ``::`` (its path ends at its first ``#``).

Stores: nothing.
Refuses: what ``selector_path`` refuses, the first text it refuses (SelectorError);
``place_path`` nothing (it judges nothing).
Returns: ``selector_paths(texts)``, the set of paths; ``place_path(text)``, one path.
Test: tests/text/test_selector_paths.py, tests/check/test_hook_move_cost.py
"""

from __future__ import annotations

from collections.abc import Iterable

from forest_files.text.selector import _CONTROL_RE, MAX_SELECTOR_CHARS, selector_path
from forest_files.text.selector_split import split_path


def selector_paths(texts: Iterable[str]) -> set[str]:
    """``{selector_path(t) for t in texts}``, each path judged once (module header)."""
    judged: set[str] = set()
    for text in texts:
        alone = 0 < len(text) <= MAX_SELECTOR_CHARS and not _CONTROL_RE.search(text)
        if not alone or split_path(text)[0] not in judged:
            judged.add(selector_path(text))  # its refusals, in their order
    return judged


def place_path(text: str) -> str:
    """The path of a rendered place, ``split_path(text)[0]`` (module header)."""
    if "\\" in text or "@" in text or "::" in text:
        return split_path(text)[0]
    return text.partition("#")[0]


__all__ = ["place_path", "selector_paths"]
