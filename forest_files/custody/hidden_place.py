"""Where a hidden heading stands once the block hiding it loses its first line.

custody/restore_hidden.py finds which fence or HTML block hides a selector's heading by
parsing the text with that block's first line taken out; this reads that parse: the
heading's line (one of several of its name, when the others are lines of the block
too), the first heading of the selector's path the block hides (where closing the
block brings the whole path back), and whether a restore bringing it back would keep
a heading HEAD's file does not hold.
Stores: nothing.
Refuses: nothing.
Returns: ``Hidden``, what hides a heading or block id as a value (restore_hidden.py's
answer: the block, the heading, its line, the fix in words: ``Hidden.close``,
worded by hidden_close.py ``close_advice``); ``block_id(sel)``: ``sel`` names a
block id, not a heading;
``start_in(doc, block, sel, excludes)``: the heading's (or block id's block's) line in
``doc`` (the text without ``block``'s first line) or None; ``path_line(doc, first,
start, parts)``: the file's line of the first heading the block opened at ``first``
hides on the selected path, 0 when that is the heading's own; ``kept_new(doc, holder,
head)``: whether the first heading after ``holder``'s section is one more of its level
and path than HEAD's text holds; ``held_at(text, line, head)``: the path of ``text``'s heading at
``line`` and how many of its level and path HEAD's text and ``text`` hold
(restore_swallowed.py's count); ``by_path(doc)``: both counts.
Test: tests/doors/test_doors_hidden.py, tests/custody/test_restore_hidden_value.py,
tests/doors/test_doors_hidden_split.py
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from forest_files.custody.hidden_close import HIDERS, close_advice, closed_by
from forest_files.text.extract import Document, extract
from forest_files.text.md_blocks import Block
from forest_files.text.selector import Selector, parse_selector, render_heading_path
from forest_files.text.selector_errors import AmbiguousSelector, SelectorError


@dataclass(frozen=True)
class Hidden:
    """A heading a fence or HTML block hides (1-based lines of the file as it stands).
    ``kind``: the block's (``fence``, ``html``); ``block_line``, ``block_end``: its
    first and last line; ``heading``: the hidden heading's line as written (stripped;
    a block id's: its ``^id``)
    and ``line`` its line; ``holder``: the bound section holding the block (the
    deepest), None for none; ``under``: the heading path of the section holding it,
    rendered (``A/B``), None above the first heading; ``left_open``: the block runs to
    the end of the file (no line closes it); ``new``: the text without the block's first
    line (as a restore of ``holder`` with it writes the file) holds, first after
    ``holder``'s section, a heading of a level and path it holds more of than the file
    at HEAD does (``kept_new``; asked only when a restore could bring it back: a
    restore refuses such a heading, which may be a line of the block,
    restore_swallowed.py); ``path_line``: the line of the first heading of the selected
    path the block hides (a parent's above the heading, or the heading's own: 0 for
    ``line``), the line to close the block before (closed at ``line``, a parent would
    stay hidden and the selector still find nothing); ``take_out``: the first line of the
    block a block id ends (``heading``'s) when it begins above the block's first line
    (a fence opened inside that paragraph: taken out, the fence's line joins the lines
    into one block again; closed anywhere, the lines above it stay a block of their
    own), so the only fix is taking the block's first line out (closed further on, its
    closing line too): 0 for none; ``cut``: ``holder``'s binding excludes parts (its
    restore refuses every heading the block hides: an excluded part's text is in no
    record, restore_swallowed.py ``guard``); ``closer``: the line that closes the block
    (hidden_close.py ``closing_line``; "" a blank line, None not known); ``alone``: the
    block's closing line (``block_end``, not ``left_open``) holds its end alone
    (hidden_close.py ``ends_alone``: the advice takes it out; one holding words stays)."""

    kind: str
    block_line: int
    block_end: int
    heading: str
    line: int
    holder: str | None
    under: str | None
    left_open: bool
    new: bool = False
    path_line: int = 0
    take_out: int = 0
    cut: bool = False
    closer: str | None = None
    alone: bool = True

    @property
    def what(self) -> str:
        """The block in words: ``code fence``, ``HTML comment or block``."""
        return HIDERS[self.kind]

    @property
    def restorable(self) -> bool:
        """A restore of ``holder`` with the hidden section brings the heading back: a
        bound section holds the block, and the block runs to the end (one closed
        further on would hide what follows its closing line), and the heading is no
        ``new`` one, and that section excludes no part (``cut``)."""
        return self.holder is not None and self.left_open and not (self.new or self.cut)

    @property
    def close_before(self) -> int:
        """The line to close the block before: the first hidden heading of the path."""
        return self.path_line or self.line

    def close(self, *, named: bool = True) -> str:
        """The fix when no restore is: the block closed before the heading's path (or
        taken out), the line that closes it named (closed further on, its closing line
        taken out first), or, ``take_out``, taken out; ``named``: the block named by its
        first line (a route's note), else as ``that`` block (restore_hidden.py's
        refusal, which names it before)."""
        if self.take_out:
            return self.taken_out()
        closing = 0 if self.left_open else self.block_end
        return close_advice(
            self.kind,
            self.close_before,
            self.closer,
            opened=self.block_line if named else 0,
            closing=closing,
            alone=self.alone,
        )

    @property
    def closed_by(self) -> str:
        """The line to write that closes the block, in words (``closed_by``)."""
        return closed_by(self.kind, self.closer)

    def taken_out(self) -> str:
        """The fix of a block opened inside the lines of the block an id ends: its first
        line taken out (closed further on: its closing line too; that line left, it
        would open a block of its own)."""
        lines = (
            f"line {self.block_line}"
            if self.left_open
            else f"lines {self.block_line} and {self.block_end}"
        )
        return (
            f"take out {lines} (the {self.what} opened inside the block that begins at "
            f"line {self.take_out}; closed anywhere, it leaves that block split)"
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
    """The first heading of ``doc`` after the section of ``holder`` (the restore of
    ``holder`` with the hidden heading keeps the lines from there as they stand) is one
    whose level and heading path ``doc`` holds more of than ``head`` (the file's text at
    HEAD): it may be a line of the block, and that restore refuses it
    (restore_swallowed.py ``guard`` asks that heading alone: the lines above it are
    ground's then, the later headings stand after it as they do now, one renamed in the
    same edit too). By path, not by level and text: a line of the block under another
    parent than a heading of its name HEAD holds (T/install, HEAD holding U/install
    and a V/install the edit renamed) is one more section all the same. A holder not
    found there: every heading of ``doc`` is asked."""
    try:
        end = extract(doc, parse_selector(holder)).end_line
    except SelectorError:
        end = 0
    after = [(h.level, h.path) for h in doc.headings() if h.start_line > end]
    kept = set(after[:1] if end else after)
    if not kept:
        return False
    written, held = by_path(doc), by_path(Document(head))
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


__all__ = [
    "Hidden",
    "block_id",
    "by_path",
    "held_at",
    "kept_new",
    "path_line",
    "start_in",
]
