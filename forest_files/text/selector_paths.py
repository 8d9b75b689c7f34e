"""The file path of a place the check named, split off without judging it again.

A place already named by a parse (a selector ``render`` made of a section found in a
file: the check's move search, the index's extract) has a path judged when it was
named; ``place_path`` only splits it off, as ``split_path`` does, with no regex for the
common text holding no backslash, ``@`` or ``::`` (its path ends at its first ``#``).

Stores: nothing.
Refuses: nothing (it judges nothing: a text no selector can name never becomes a place,
check/move_search.py says it instead).
Returns: ``place_path(text)``, one path.
Test: tests/text/test_selector_paths.py, tests/check/test_hook_move_cost.py
"""

from __future__ import annotations

from forest_files.text.selector_split import split_path


def place_path(text: str) -> str:
    """The path of a rendered place, ``split_path(text)[0]`` (module header)."""
    if "\\" in text or "@" in text or "::" in text:
        return split_path(text)[0]
    return text.partition("#")[0]


__all__ = ["place_path"]
