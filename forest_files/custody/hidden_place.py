"""Where a hidden heading stands once the block hiding it loses its first line.

custody/restore_hidden.py finds which fence or HTML block hides a selector's heading by
parsing the text with that block's first line taken out; this reads that parse: the
heading's line (one of several of its name, when the others are lines of the block
too), the first heading of the selector's path the block hides (where closing the
block brings the whole path back), and whether a restore bringing it back would keep
a heading HEAD's file does not hold.
Stores: nothing.
Refuses: nothing.
Returns: ``block_id(sel)``: ``sel`` names a block id, not a heading;
``start_in(doc, block, sel, excludes)``: the heading's (or block id's block's) line in
``doc`` (the text without ``block``'s first line) or None; ``path_line(doc, first,
start, parts)``: the file's line of the first heading the block opened at ``first``
hides on the selected path, 0 when that is the heading's own; ``kept_new(doc, holder,
head)``: whether a heading after ``holder``'s section is one more of its level and path than
HEAD's text holds; ``held_at(text, line, head)``: the path of ``text``'s heading at
``line`` and how many of its level and path HEAD's text and ``text`` hold
(restore_swallowed.py's count); ``by_path(doc)``: both counts.
Test: tests/doors/test_doors_hidden.py, tests/custody/test_restore_hidden_value.py
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from forest_files.text.extract import Document, extract
from forest_files.text.md_blocks import Block
from forest_files.text.selector import (
    AmbiguousSelector,
    Selector,
    SelectorError,
    parse_selector,
    render_heading_path,
)


def block_id(sel: Selector) -> bool:
    """``sel`` names an Obsidian block id (``{^id}``: anchors.py), not a heading."""
    return sel.kind == "anchor" and sel.parts[0].startswith("^")


def start_in(doc: Document, block: Block, sel: Selector, excludes: tuple[str, ...]) -> int | None:
    """The line of ``sel``'s heading in ``doc``, ``block``'s text without its first
    line, or None. Matched there more than once (a line of its name inside the block, as
    a ``# install`` shell comment in a fence left open over the real one), the last,
    when every match is a line of the block: closed before it, the others stay the
    block's lines and the selector finds one heading."""
    try:
        return extract(doc, sel, excludes).start_line
    except AmbiguousSelector as many:
        if sel.kind != "heading" or sel.index is not None:
            return None
        count = len(many.candidates)
    except SelectorError:
        return None
    starts = []
    for n in range(1, count + 1):
        try:
            start = extract(doc, replace(sel, index=n), excludes).start_line
        except SelectorError:
            return None
        if not block.first <= start < block.last:  # a line of the block in the file
            return None
        starts.append(start)
    return starts[-1]


def path_line(doc: Document, first: int, start: int, parts: int) -> int:
    """The file's line of the first heading the block opened at line ``first`` hides
    on the path a selector of ``parts`` parts names, ending at ``doc``'s heading at line
    ``start`` (the heading and its last ``parts - 1`` parents: the sections holding
    it); 0 when that is the heading's own."""
    path = [h for h in doc.headings() if h.start_line <= start <= h.end_line]
    lines = [h.start_line + (h.start_line >= first) for h in path[-parts:]]
    line = min((n for n in lines if n > first), default=0)
    return 0 if line == start + (start >= first) else line


def kept_new(doc: Document, holder: str, head: str) -> bool:
    """A heading of ``doc`` after the section of ``holder`` (the restore of ``holder``
    with the hidden heading keeps those lines as they stand), whose level and heading
    path ``doc`` holds more of than ``head`` (the file's text at HEAD): it may be a line
    of the block, and that restore refuses it (restore_swallowed.py). By path, not by
    level and text: a line of the block under another parent than a heading of its
    name HEAD holds (T/install, HEAD holding U/install and a V/install the edit
    renamed) is one more section all the same. A holder not found there: every
    heading of ``doc`` is asked."""
    try:
        end = extract(doc, parse_selector(holder)).end_line
    except SelectorError:
        end = 0
    written = by_path(doc)
    kept = {(h.level, h.path) for h in doc.headings() if h.start_line > end}
    if not kept:
        return False
    held = by_path(Document(head))
    return any(written[key] > held[key] for key in kept)


def by_path(doc: Document) -> Counter[tuple[int, tuple[str, ...]]]:
    """How many headings of each level and heading path ``doc`` holds: what a restore
    keeping hidden lines after ground is judged by (``kept_new``; restore_swallowed.py
    asks it of the hidden heading the restore keeps first, ``held_at``)."""
    return Counter((h.level, h.path) for h in doc.headings())


def held_at(text: str, line: int, head: str) -> tuple[str, int, int]:
    """The heading beginning at ``line`` of ``text`` (the file as a restore writes it):
    its heading path rendered (``T/install``), how many headings of its level and path
    ``head`` (the file's text at HEAD) holds and ``text`` does; ("", 0, 0): no heading
    begins there."""
    doc = Document(text)
    at = [h for h in doc.headings() if h.start_line == line]
    if not at:
        return "", 0, 0
    key = (at[0].level, at[0].path)
    return render_heading_path(key[1], None), by_path(Document(head))[key], by_path(doc)[key]


__all__ = ["block_id", "by_path", "held_at", "kept_new", "path_line", "start_in"]
