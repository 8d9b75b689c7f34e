"""One heading, two names: its id (``file.md#{id}``, text/anchors.py) and its heading
path (``file.md#A/B``) name the same section, so a binding recorded under one is
found, and held, under the other.

Stores: nothing.
Refuses: nothing (a file or selector that cannot be read names no heading).
Returns: the bindings naming the heading a selector names (``same_heading``); the
sections a live binding holds under another name (``held_elsewhere``); the first
line of each heading selectors name in the working tree (``heading_lines``).
Test: tests/custody/test_lookup.py, tests/doors/test_cli_adopt_bulk.py
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from forest_files.custody.bindings import Binding
from forest_files.kernel.errors import ForestError
from forest_files.text.selector import Selector, parse_selector, render

if TYPE_CHECKING:
    from forest_files.custody.section_text import SectionText

NAMED = ("heading", "anchor")  # the kinds that name one heading in more than one way


def same_heading(root: Path, target: Selector, bindings: list[Binding]) -> list[Binding]:
    """Those of ``bindings`` whose selector names the heading ``target`` names in the
    working tree under another name (its id ``file.md#{id}``, its heading path)."""
    others = [b for b in bindings if b.path == target.path]
    if target.kind not in NAMED or not others:
        return []
    lines = heading_lines(root, target.path, [render(target), *(b.selector for b in others)])
    line = lines.get(render(target))
    return [b for b in others if line is not None and lines.get(b.selector) == line]


def held_elsewhere(
    root: Path, bindings: list[Binding], sections: Sequence[SectionText]
) -> dict[str, Binding]:
    """Each of ``sections`` (by selector) whose heading a live binding of ``bindings``
    holds under another name (``file.md#{id}`` bound as ``file.md#A/B``, or the other
    way round): each file with such bindings read and parsed once."""
    live = [b for b in bindings if not b.retired]
    out: dict[str, Binding] = {}
    for path in {s.path for s in sections}:
        mine = [s.selector for s in sections if s.path == path]
        theirs = [b for b in live if b.path == path and b.selector not in mine]
        named = [sel for sel in mine if parse_selector(sel).kind in NAMED]
        if not named or not any(parse_selector(b.selector).kind in NAMED for b in theirs):
            continue
        lines = heading_lines(root, path, [*named, *(b.selector for b in theirs)])
        at = {lines[b.selector]: b for b in theirs if b.selector in lines}
        out.update({sel: at[lines[sel]] for sel in named if lines.get(sel) in at})
    return out


def heading_lines(root: Path, path: str, selectors: list[str]) -> dict[str, int]:
    """The first line of the heading each of ``selectors`` (of one file) names in the
    working tree, for those that name one there (the file read and parsed once)."""
    from forest_files.custody.content import read_regular
    from forest_files.text.extract import Document, extract
    from forest_files.text.normalise import decode_bytes, normalise_text

    data = read_regular(str(root / path))
    try:
        doc = Document(normalise_text(decode_bytes(data or b"", path)))
    except ForestError:
        return {}
    out: dict[str, int] = {}
    for spelled in selectors:
        try:
            sel = parse_selector(spelled)
            if sel.kind in NAMED:
                out[spelled] = extract(doc, sel, ()).start_line
        except ForestError:
            continue
    return out
