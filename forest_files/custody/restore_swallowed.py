"""Restore's guard for a Markdown section an edit made run over the sections after it.

An edit that opens a fence or an HTML comment in a section and never closes it (or
closes it past the next heading) hides every heading after it: the section runs on
over the sections that followed, and ground written over its lines would drop them
from the file (the capture alone would keep them). A setext underline put under the
section's last lines, a line of them made an ATX heading or a heading put among them
does the opposite: it ends the section early (restore_cut_short.py, asked first).
Stores: nothing (lines in, lines out).
Refuses (one-line ``ForestError``, before anything is written; ``guard`` asks both):
``Swallowed``, a heading ``swallowed`` finds where it cannot stay: the block hiding it
and its line, the heading and its line, what to do (close the block before it, or,
ground's lines after it, before the first of them; the line that closes it named
(hidden_place.py ``closing_line``); a fence closed further on, its own closing line
taken out first: restore_hiding.py ``Hidden.fix``; or take it out, then
``forest check``; ``git diff`` shows the edit; ``Swallowed.said``: the
same for a proposal's text); ``Swallowed`` (``new``), a hidden heading that could stay
but of whose level and heading path the file as it would be written holds more than
the file at HEAD (the caller's ``committed``, asked then; hidden_place.py ``held_at``):
a line of the block (``# install`` in a ``sh`` fence left open, HEAD holding no
``# install`` or one after it; ``## install`` under T, HEAD's under U) or a new
section, which only HEAD could tell from a hidden one (close the block where its
lines end, or take it out; one closed further on, before the heading, its own closing
line taken out first: ``Swallowed.close``); ``Swallowed`` too, a heading the file keeps (the next
section, an excluded part's) that a block closed in the lines ground replaces hides
(restore_closed.py ``closed_over``: a fence's closing line is taken out first, as
above); restore_cut_short.py's ``CutShort``.
Returns: ``swallowed``: the first heading of the section's level or higher that the
lines the restore drops hold read alone (the lines ground does not hold, each run read
alone, and again past the first line of a block it leaves open), with the fence or
HTML block that hides it now, or None. ``guard`` returns it when the hidden sections
may stay after ground: the heading stands after every line of ground's the section
holds (a blank one aside), so all before it is the section's, ground or edit; and the
section excludes no part (then a hidden heading of any level is refused: it may be an
excluded part, whose text is in no record). The caller reads the result back
(restore_splice.py ``stands_after``: the section as ground, and the headings after it,
hidden now or not, at their levels and in their order).
Test: tests/custody/test_restore_swallowed.py, tests/custody/test_restore_fence_lines.py,
tests/proposals/test_adopt_swallowed.py, tests/custody/test_restore_hidden_value.py,
tests/custody/test_restore_closed.py
"""

from __future__ import annotations

from collections.abc import Callable

from forest_files.custody.hidden_close import closed_by, closing_line, ends_alone
from forest_files.custody.hidden_place import held_at
from forest_files.custody.restore_closed import block_end, closed_over, lines_of, read_alone
from forest_files.custody.restore_cut_short import refuse_cut_short
from forest_files.custody.restore_hiding import HIDERS as _HIDERS
from forest_files.custody.restore_hiding import Hidden
from forest_files.kernel.errors import ForestError
from forest_files.kernel.shellword import command_text, forest_text, git_step, printable
from forest_files.text.extract import Extracted
from forest_files.text.line_align import line_opcodes
from forest_files.text.markdown import outline
from forest_files.text.md_blocks import Block, blocks
from forest_files.text.normalise import normalise_text
from forest_files.text.normalisers import PREFIX as NORMALISED


def swallowed(section: list[str], ground: str, *, deeper: bool = False) -> Hidden | None:
    """The first heading of the section's level or higher hidden in the lines of
    ``section`` (a heading section's lines, their own line ends) that ground does not
    hold, or None; ``deeper``: of any level (the section excludes parts: a subsection
    hidden may be one, whose text is in no record)."""
    text = lines_of(section)
    outline = blocks("".join(text))
    if not outline or outline[0].kind != "heading":
        return None
    level, start = outline[0].level, outline[0].last  # lines after the heading's own
    keys = [x.rstrip() for x in text]
    want = [x.rstrip() for x in ground.splitlines()]
    codes = line_opcodes(keys, want)
    runs = [(max(a0, start), a1) for tag, a0, a1, _b, _c in codes if tag != "equal" and a1 > start]
    # ground's lines found in the section, but for blank ones (ground's blank end may
    # pair with a blank line of the sections after); ``held``: the last
    kept = [i for tag, a0, a1, _b, _c in codes if tag == "equal" for i in range(a0, a1) if keys[i]]
    held = max(kept, default=0)
    for r0, r1 in runs:
        for at, found in read_alone(text[r0:r1]):
            if deeper or found <= level:
                line = r0 + at
                hider = _hider(outline, line + 1)
                if hider is None:
                    continue  # read alone it is a heading, in place it is not hidden
                closer, end = (
                    closing_line(hider.kind, text[hider.first - 1]),
                    block_end(hider, text),
                )
                return Hidden(
                    line,
                    text[line].strip() if found else "",
                    found,
                    hider.first - 1,
                    hider.kind,
                    tail=line > held and 0 < found <= level,
                    closer=closer,
                    end=end,
                    resume=next((i for i in kept if i > line), -1),
                    alone=end < 0 or ends_alone(hider.kind, closer, text[end]),
                )
    return None


def _hider(outline: list[Block], line: int) -> Block | None:
    """The fence or HTML block that holds ``line`` (1-based), or None."""
    for block in outline:
        if block.first <= line <= block.last:
            return block if block.kind in _HIDERS else None
    return None


def guard(
    sel: tuple[str, tuple[str, ...]],
    path: str,
    around: tuple[list[str], list[str], list[str]],
    got: Extracted,
    ground: str,
    committed: Callable[[], str | None] | None = None,
) -> Hidden | None:
    """Before a heading's section is restored (``sel``: its selector and exclusions;
    ``around``: the file's lines before it, its lines and the file's lines after it;
    ``got``: the section as read; ``committed``: the file's text at HEAD, asked when a
    heading may be new): refused when an edit cut it short with a heading
    (restore_cut_short.py), or hides a heading that cannot stay after ground (ground's
    lines after it, or, the section excluding parts, of any level), or one the file
    would hold more of than HEAD's does, or a heading the file keeps that a block
    closed in the lines ground replaces hides (restore_closed.py); the hidden heading
    the lines may stay from, or None: nothing hidden."""
    (selector, excludes), (before, section, after) = sel, around
    refuse_cut_short(selector, section, after, got.start_line, ground, committed)
    cut = any(not e.startswith(NORMALISED) for e in excludes)
    hidden = swallowed(section, ground, deeper=cut)
    if hidden is not None and (not hidden.tail or cut):
        raise refusal(selector, path, got.start_line, hidden)
    upto = len(section) if hidden is None else hidden.line  # the lines ground replaces
    closed = closed_over(sel, around, upto, ground, committed)
    if closed is not None:
        raise refusal(selector, path, got.start_line, closed)
    if hidden is not None and committed is not None:
        kept = [*section[hidden.line :], *after]  # the hidden sections, kept after ground
        written = [*before, ground if ground.endswith("\n") else ground + "\n", *kept]
        place, held, more = _counts(kept, written, committed)
        if more > held:
            new = (held, more - held)
            raise Swallowed(selector, path, got.start_line, hidden, new=new, place=place)
    return hidden


def _counts(
    kept: list[str], written: list[str], committed: Callable[[], str | None]
) -> tuple[str, int, int]:
    """The hidden heading's heading path, rendered (``T/install``: ``kept``'s first
    line, read alone, as the file would be written: ``written``, its lines, ground's
    among them, ``kept`` last), and how many headings of its level and path the file at
    HEAD (``committed``; None: no such file) holds, and that file (hidden_place.py
    ``held_at``): a line of the block an edit left open (``# install`` in a ``sh``
    fence) reads as one alone, and so does a section put after the block; only HEAD
    tells them from the sections the block hides now (``# B``, committed), even where
    HEAD holds a ``# install`` after it, or a ``## install`` under another parent (by
    path, not by level and text: a heading of that name renamed in the same edit left
    the count level). ("", 0, 0): no heading stands there read alone."""
    heads = outline(normalise_text("".join(lines_of(kept))))
    if not heads or heads[0].start_line != 1:
        return "", 0, 0
    first = "".join(lines_of(written[: len(written) - len(kept)])).count("\n") + 1
    return held_at("".join(lines_of(written)), first, committed() or "")


def stands_after(new: str, end: int, tail: str, now: str, now_end: int) -> bool:
    """Whether the headings after the restored section (``new``'s past line ``end``)
    are, level and name, in order, those the kept lines ``tail`` hold read alone, then
    those after the section now (``now``'s past line ``now_end``): the kept lines read
    as they would without the edit, and close nothing over the sections after them."""

    def heads(text: str, past: int) -> list[tuple[int, str]]:
        return [(h.level, h.name) for h in outline(normalise_text(text)) if h.start_line > past]

    return heads(new, end) == heads(tail, 0) + heads(now, now_end)


class Swallowed(ForestError):
    """An edit in a section hides the sections after it; nothing was written (the
    section ``selector`` of ``path`` begins at line ``first``; ``hidden``: what hides
    what). ``said`` words it for a proposal's text written in."""

    def __init__(
        self,
        selector: str,
        path: str,
        first: int,
        hidden: Hidden,
        *,
        new: tuple[int, int] | None = None,
        place: str = "",
    ) -> None:
        self.selector, self.path, self.first, self.hidden = selector, path, first, hidden
        # the hidden heading's level and path: how many HEAD's file holds, how many more
        # the file written would hold (None: a heading that could not stay after ground);
        # ``place``: that path
        self.new, self.place = new, place
        super().__init__(self.said())

    @property
    def close(self) -> str:
        """The close advice of a heading that may be new: a block that runs on closed
        where its lines end (before the heading if it begins a section) or taken out,
        the line that closes it named; one closed further on (its lines end there, and
        the restore is refused as now) closed before the heading or taken out, its own
        closing line taken out first (``Hidden.fix``: left, a fence's would open a
        fence over what follows, a bare ``-->`` stay as a stray line of text)."""
        return self.close_said()

    def close_said(self, *, named: bool = False) -> str:
        """``close``; ``named``: the block named by its first line (a route's note,
        check/route_close.py, which says it nowhere else), not as ``that`` block."""
        hidden, kind = self.hidden, _HIDERS[self.hidden.kind]
        if hidden.end >= 0:
            return hidden.fix(self.first, named=named)
        head, at = printable(hidden.source), self.first + hidden.line
        opened = self.first + hidden.block
        block = f"the {kind} opened at line {opened}" if named else f"that {kind}"
        return (
            f"close {block} where its lines end (before line {at} if `{head}` begins "
            f"a new section) or take it out{closed_by(hidden.kind, hidden.closer)}"
        )

    def said(self, proposal: str | None = None) -> str:
        """The refusal, for a restore of ground or (``proposal``: its id) for that
        proposal's text written in."""
        hidden, first = self.hidden, self.first
        kind = _HIDERS[hidden.kind]
        diff = command_text(git_step("diff", "--", self.path))
        at = first + hidden.line
        what = (
            f"the headings after it (the first: `{printable(hidden.source)}` at line {at})"
            if hidden.source
            else f"the lines after it (more blocks are left open from line {at} on than a "
            "restore reads past)"
        )
        who, doing, again = (
            (f"{self.selector}: an edit in it", "restoring it", "restore again")
            if proposal is None
            else (
                f"proposal {proposal}: an edit in {self.selector}",
                "the proposed text written in",
                "adopt again",
            )
        )
        opened = f"the {kind} opened at line {first + hidden.block}"
        if self.new is not None:
            head, (held, more) = printable(hidden.source), self.new
            text = "ground" if proposal is None else "the proposed text"
            which = (
                f"a heading neither the file at HEAD nor {text} holds"
                if not held
                else f"{'one' if more == 1 else more} more `{head}` than the file at HEAD holds"
            )
            if "/" in self.place:  # under a parent: its path is what is counted
                which += f" as {printable(f'{self.path}#{self.place}')}"
            return (
                f"{who} ({opened}) hides `{head}` at line {at}, {which}: it may be a line "
                f"of that {kind} or a new section; nothing was written — {self.close}, then "
                f"`{forest_text('check')}` and {again} (`{diff}` shows the edit)"
            )
        return (
            f"{who} ({opened}) hides {what}, so "
            f"{doing} would drop their sections from the file; nothing was written — "
            f"{hidden.fix(first)}, then "
            f"`{forest_text('check')}` and {again} (`{diff}` shows the edit)"
        )


def refusal(selector: str, path: str, first: int, hidden: Hidden) -> Swallowed:
    """One line: the block that hides, the heading it hides (lines of the file:
    ``first`` is the section's first), nothing written, and what to do."""
    return Swallowed(selector, path, first, hidden)
