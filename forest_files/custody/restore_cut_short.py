"""Restore's guard for a Markdown section an edit cut short with a heading.

A setext underline put under the section's last lines (``more a`` then ``===``), a
line of them made an ATX heading (``# text a``) or a heading put among them ends the
section early: the lines under that heading are no longer the section's, and the
text written back (ground, or a proposal's text) would hold them, then them again in
that heading's section.
Stores: nothing (lines in, lines out).
Refuses (``CutShort``, one line, before anything is written): a section whose next
heading was made of the lines of the text to write (a setext underline, an ATX ``#``)
or put above them (its section's lines, as far as they go, are those the section
lacks at its end; a section merely beginning with a line alike is not cut from
them): the heading's line, the lines that would be written twice, the
line to take out, then ``forest check``; ``CutShort.said(proposal)`` words it for a
proposal's text (proposals/adopt.py).
Returns: nothing (``refuse_cut_short`` returns when nothing was cut short).
Test: tests/custody/test_restore_swallowed.py, tests/proposals/test_adopt_swallowed.py
"""

from __future__ import annotations

import difflib

from forest_files.kernel.errors import ForestError
from forest_files.kernel.shellword import forest_text, printable
from forest_files.text.markdown import outline
from forest_files.text.md_blocks import Block, blocks
from forest_files.text.normalise import normalise_text


class CutShort(ForestError):
    """An edit put a heading that ends a section among the lines of the text to write
    (``under``: a setext heading's underline line, else None: an ATX heading, written
    ``source``, at line ``top``); ``lines``: those to be written twice."""

    def __init__(self, selector: str, top: int, lines: str, under: int | None, source: str):
        self.selector, self.top, self.lines = selector, top, lines
        self.under, self.source = under, source
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
        return (
            f"{who} put a heading at line {self.top} (`{printable(self.source)}`) that ends "
            f"{ends} there; {text} would hold its {lines} twice (in {ends}, and again under "
            f"that heading); nothing was written — take out line {self.top} (or move that "
            f"heading below {mine} lines), {then}"
        )


def _lines(section: list[str]) -> list[str]:
    return [x.rstrip("\r\n") + "\n" for x in section]


def refuse_cut_short(
    selector: str, section: list[str], after: list[str], first: int, ground: str
) -> None:
    """``CutShort`` when the heading that ends ``section`` now (the start of ``after``:
    the file's next lines) was made of ``ground``'s lines (the text to write) or put
    among them: the lines it and its own section hold (a heading read as its text; an
    ATX heading of other words aside; blank lines aside) are, as far as either goes,
    those of ground's the section lacks at its end. ``first``: the section's first
    line in the file."""
    text = _lines(after)
    found = blocks("".join(text)) if text else []
    if not found or found[0].kind != "heading" or found[0].first != 1:
        return
    head = found[0]
    lacked = [x for x in _lacked_tail(section, ground) if x]
    said = [(i, x) for i, x in _read_next(text, found) if x]
    if not head.setext and said and lacked and said[0][1] != lacked[0]:
        said = said[1:]  # a heading of its own put above ground's lines
    n = min(len(said), len(lacked))
    if not n or [x for _i, x in said[:n]] != lacked[:n]:
        return  # a section beginning as the lines lacked, no more: not cut from them
    top = first + len(section)  # the heading's first line in the file
    twice = [top + i for i, _x in said[:n]]
    lines = f"lines {twice[0]}-{twice[-1]}" if twice[-1] > twice[0] else f"line {twice[0]}"
    under = top + head.last - 1 if head.setext else None
    raise CutShort(selector, top, lines, under, text[0].strip())


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


def _lacked_tail(section: list[str], ground: str) -> list[str]:
    """Ground's lines (right-stripped) after the last of its non-blank lines that
    ``section`` holds: what the section lacks at its end."""
    keys = [x.rstrip() for x in _lines(section)]
    want = [x.rstrip() for x in ground.splitlines()]
    codes = difflib.SequenceMatcher(a=keys, b=want, autojunk=False).get_opcodes()
    held = max(
        (j for tag, _a, _b, b0, b1 in codes if tag == "equal" for j in range(b0, b1) if want[j]),
        default=-1,
    )
    return want[held + 1 :]
