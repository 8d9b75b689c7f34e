"""Restore's guard for a Markdown section an edit cut short with a heading.

A setext underline put under the section's last lines (``more a`` then ``===``), a
line of them made an ATX heading (``# text a``) or a heading put among them ends the
section early: the lines under that heading are no longer the section's, and the
text written back (ground, or a proposal's text) would hold them, then them again in
that heading's section.
Stores: nothing (lines in, lines out; the file's text at HEAD read through the
caller's ``committed``, only when a heading ending the section may be new).
Refuses (``CutShort``, one line, before anything is written): a section whose next
heading was made of the lines of the text to write (a setext underline, an ATX ``#``)
or put above them (its section's lines, as far as they go, are those the section
lacks at its end; a section merely beginning with a line alike is not cut from
them; a heading the file's text at HEAD does not hold, put among lines edited since,
above it or under it: each line an edit of the one ground holds there): the heading's
line, the lines that would be written twice, the line to take out, then ``forest
check``; ``CutShort.said(proposal)`` words it for a
proposal's text (proposals/adopt.py).
Returns: nothing (``refuse_cut_short`` returns when nothing was cut short).
Test: tests/custody/test_restore_swallowed.py, tests/proposals/test_adopt_swallowed.py
"""

from __future__ import annotations

import difflib
from collections.abc import Callable

from forest_files.kernel.errors import ForestError
from forest_files.kernel.shellword import forest_text, printable
from forest_files.text.line_align import line_opcodes
from forest_files.text.markdown import outline
from forest_files.text.md_blocks import Block, blocks
from forest_files.text.normalise import normalise_text


class CutShort(ForestError):
    """An edit put a heading that ends a section among the lines of the text to write
    (``under``: a setext heading's underline line, else None: an ATX heading, written
    ``source``, at line ``top``); ``lines``: those to be written twice."""

    def __init__(
        self,
        selector: str,
        top: int,
        lines: str,
        under: int | None,
        source: str,
        *,
        edited: bool = False,
    ) -> None:
        self.selector, self.top, self.lines = selector, top, lines
        self.under, self.source, self.edited = under, source, edited
        super().__init__(self.said())

    def said(self, proposal: str | None = None) -> str:
        """The refusal, for a restore of ground or (``proposal``: its id) for that
        proposal's text written in."""
        sel, lines = self.selector, self.lines
        who = f"{sel}: an edit" if proposal is None else f"proposal {proposal}: an edit"
        text = "ground written back" if proposal is None else "the proposed text written in"
        then = f"then `{forest_text('check')}`" if proposal is None else "then adopt again"
        if self.under is not None:
            whose = "its" if proposal is None else f"{sel}'s"
            return (
                f"{who} underlined {whose} {lines} (line {self.under}), so they read as a "
                f"heading that ends it; {text} would hold those lines twice (in it, and "
                f"again as that heading); nothing was written — take out line {self.under} "
                f"(or put a blank line above it), {then}"
            )
        ends = "it" if proposal is None else sel
        mine = "ground's" if proposal is None else "the proposed"
        if self.edited:  # the lines under the heading, or above it, edited since
            lines = f"{lines} ({mine}, edited)"
        return (
            f"{who} put a heading at line {self.top} (`{printable(self.source)}`) that ends "
            f"{ends} there; {text} would hold its {lines} twice (in {ends}, and again under "
            f"that heading); nothing was written — take out line {self.top} (or move that "
            f"heading below {mine} lines), {then}"
        )


def _lines(section: list[str]) -> list[str]:
    return [x.rstrip("\r\n") + "\n" for x in section]


def refuse_cut_short(
    selector: str,
    section: list[str],
    after: list[str],
    first: int,
    ground: str,
    committed: Callable[[], str | None] | None = None,
) -> None:
    """``CutShort`` when the heading that ends ``section`` now (the start of ``after``:
    the file's next lines) was made of ``ground``'s lines (the text to write) or put
    among them: the lines it and its own section hold (a heading read as its text; an
    ATX heading of other words aside; blank lines aside) are, as far as either goes,
    those of ground's the section lacks at its end. An ATX heading ``committed`` (the
    file's text at HEAD, asked only then) holds nowhere is a new one: lines edited
    since count (each line a like edit of ground's, above the heading or under it); an
    ATX heading HEAD held, above lines that only happen to be ground's, is no cut (a
    section emptied before a sibling whose own first line is ground's).
    ``first``: the section's first line in the file."""
    text = _lines(after)
    found = blocks("".join(text)) if text else []
    if not found or found[0].kind != "heading" or found[0].first != 1:
        return
    head = found[0]
    said = [(i, x) for i, x in _read_next(text, found) if x]
    twice = _cut(said, [x for x in _lacked_tail(section, ground) if x], head.setext, _same)
    above = twice is not None and twice[0] > said[0][0]  # a heading of its own above them
    if above and committed is not None and not _new_heading(said[0][1], head.level, committed()):
        return  # HEAD held it: its own lines, not ground's cut off by an edit
    edited = twice is None and not head.setext and bool(said) and committed is not None
    if edited and committed is not None and _new_heading(said[0][1], head.level, committed()):
        lacked = [x for x in _lacked_tail(section, ground, _alike) if x]
        twice = _cut(said, lacked, False, _alike)
    if twice is None:
        return  # a section beginning as the lines lacked, no more: not cut from them
    top = first + len(section)  # the heading's first line in the file
    twice = [top + i for i in twice]
    lines = f"lines {twice[0]}-{twice[-1]}" if twice[-1] > twice[0] else f"line {twice[0]}"
    under = top + head.last - 1 if head.setext else None
    raise CutShort(selector, top, lines, under, text[0].strip(), edited=edited)


def _read_next(text: list[str], found: list[Block]) -> list[tuple[int, str]]:
    """(0-based line, the line as read, right-stripped) of the heading ``text`` starts
    with (``found``: its blocks) and of its section up to the next heading: a setext
    heading's text lines, an ATX heading's text, then its body's lines."""
    head = found[0]
    body = next((b.first - 1 for b in found[1:] if b.kind == "heading"), len(text))
    if head.setext:
        read = [(i, x.rstrip()) for i, x in enumerate(text[: head.last - 1])]
    else:
        read = [(0, outline(normalise_text(text[0]))[0].text)]
    return read + [(i, text[i].rstrip()) for i in range(head.last, body)]


def _cut(
    said: list[tuple[int, str]], lacked: list[str], setext: bool, like: Like
) -> list[int] | None:
    """The 0-based lines of ``said`` (the next heading and its section, as read) that
    are ``lacked``'s as far as either goes (each ``like`` its line), or None: not cut
    from them."""
    if not setext and said and lacked and not like(said[0][1], lacked[0]):
        said = said[1:]  # a heading of its own put above ground's lines
    n = min(len(said), len(lacked))
    if not n or not all(like(x, want) for (_i, x), want in zip(said, lacked[:n], strict=False)):
        return None
    return [i for i, _x in said[:n]]


Like = Callable[[str, str], bool]


def _same(a: str, b: str) -> bool:
    return a == b


_ALIKE = 0.6  # difflib's ratio from which a line reads as an edit of another


def _alike(a: str, b: str) -> bool:
    """``a`` the same line as ``b``, or an edit of it (most of its characters kept)."""
    return a == b or difflib.SequenceMatcher(a=a, b=b, autojunk=False).ratio() >= _ALIKE


def _new_heading(name: str, level: int, committed: str | None) -> bool:
    """Whether the committed file (its text; None: none) holds no heading of ``level``
    named ``name``: an edit since put it there."""
    if committed is None:
        return False
    return all((h.level, h.text) != (level, name) for h in outline(normalise_text(committed)))


def _lacked_tail(section: list[str], ground: str, like: Like = _same) -> list[str]:
    """Ground's lines (right-stripped) after the last of its non-blank lines that
    ``section`` holds (``like``: as it is, or edited, a changed line paired with
    ground's in order): what the section lacks at its end."""
    keys = [x.rstrip() for x in _lines(section)]
    want = [x.rstrip() for x in ground.splitlines()]
    codes = line_opcodes(keys, want)
    held = max(
        (
            b0 + k
            for tag, a0, a1, b0, b1 in codes
            if tag in ("equal", "replace")
            for k in range(min(a1 - a0, b1 - b0))
            if want[b0 + k] and like(keys[a0 + k], want[b0 + k])
        ),
        default=-1,
    )
    return want[held + 1 :]
