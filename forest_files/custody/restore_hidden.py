"""Which fence or comment an edit put over a heading hides it, as a value; and
restore's refusal of a heading's section not found so.

An unclosed fence or ``<!--`` put into a section hides every heading after it, so a
restore of one of those sections alone finds no heading (restore_many.py judges it
again once the targets named with it are spliced: a restore of the section holding
the block brings it back, restore_swallowed.py; restore.py ``restore_section``, the
watcher's, asks this at once). Said as "no heading matches", the refusal would hide
the fault and the way out; ``forest check`` says the same of such a section
(check/hidden_heading.py).
Stores: nothing (text in, a value or a refusal out).
Refuses: nothing itself; ``hidden_refusal`` words the refusal of a heading selector (or
a block id's, ``{^id}``, hidden by a fence) whose heading a top-level fence or HTML
block of the file hides (the selector finds it with that block's first line taken out;
found there more than once, each a line of the block, the last): the block and its line,
the heading and its line, where the block was opened, and whether an edit left it open
or it runs over the heading to a later line, nothing written; the route: the bound
section holding the block restored with it, when the block runs to the end of the file
(``forest restore 'f.md#A' 'f.md#B'``, the restore's ``--drop-nested`` kept: A's edit
goes to the capture, B's heading is kept after A's ground), else (no binding holds it,
that binding excludes parts, the block is closed further on, or that restore would
keep first after the holder's section a heading of a level and path the file at HEAD
holds fewer of, as when the block was committed or holds a line that reads as a
heading: that restore is refused too) that
block closed before the heading (before the first heading of the selector's path it
hides), the line that closes it named (hidden_close.py ``closing_line``: a fence's
mark as many times, an HTML block's end, or a blank line; closed further on, its own
closing line taken out first, or said to stay when it holds words: ``close_advice``,
worded as the check's route is, ``Hidden.close``), or taken out; a fence
opened inside the paragraph a block id ends (no close brings that block back whole),
its line taken out (closed further on: its closing line too).
Returns: ``Hiders(text).hidden(target, holders)``, a ``Hidden`` (hidden_place.py; or
None: no block hides the selector's heading, the caller's "no heading matches"
stands): one parse of a text's blocks for every selector asked of it; of a block's
own lines alone
(md_blocks.py ``Insides``), once, when they hold the heading's words; and of the
text without a block's first line only when those lines hold a heading of that name
(read by hidden_place.py: the heading's line, the first of its path the block hides);
``hidden_said`` (what hides it, in words); ``hidden_refusal``, the refusal or None.
Test: tests/custody/test_restore_hidden.py, tests/doors/test_doors_hidden.py,
tests/doors/test_doors_hidden_split.py
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from forest_files.custody.hidden_close import HIDERS, closing_line, ends_alone
from forest_files.custody.hidden_place import (
    Hidden,
    block_id,
    kept_new,
    path_line,
    start_in,
)
from forest_files.kernel.errors import ForestError
from forest_files.kernel.shellword import command_text, forest_text, git_step, printable
from forest_files.text.extract import Document, extract
from forest_files.text.md_blocks import Insides, blocks
from forest_files.text.normalise import normalise_text
from forest_files.text.normalisers import PREFIX as NORMALISED
from forest_files.text.selector import Selector, parse_selector, render_heading_path
from forest_files.text.selector_errors import SelectorError

_HEADINGS = ("heading", "anchor")  # selectors of a Markdown heading's section

Target = tuple[str, tuple[str, ...]]  # a selector and its exclusions


class Hiders:
    """A text's fences and HTML blocks (one parse), asked which hides a selector's
    heading; each block's text without its first line parsed once, when asked."""

    def __init__(self, text: str) -> None:
        self.text = normalise_text(text)
        self._lines = self.text.splitlines(keepends=True)
        # parsed with a heading put after it: a block that holds that heading too runs
        # to the end, closed by no line (one parse tells both)
        self._end = self.text.count("\n") + (not self.text.endswith("\n")) + 2
        found = blocks(f"{self.text}\n# end\n")
        self._blocks = [b for b in found if b.kind in HIDERS and b.first < self._end]
        self._insides: Insides | None = None  # each block's lines, read alone
        self._without: dict[int, Document] = {}
        self._doc: Document | None = None
        self._found: dict[Target, tuple[int, int] | None] = {}  # holders' lines

    def hidden(
        self,
        target: Target,
        holders: Sequence[Target],
        committed: Callable[[], str | None] | None = None,
    ) -> Hidden | None:
        """What hides ``target``'s heading (a selector not found in the text), or
        None. ``holders``: the file's bindings (``target`` among them or not);
        ``committed``: the file's text at HEAD (restore_files.py ``committed_text``),
        asked how many headings of each level and path it holds when a restore could
        bring it back."""
        selector, excludes = target
        try:
            sel = parse_selector(selector)
        except SelectorError:
            return None
        if sel.kind not in _HEADINGS or not sel.parts:
            return None
        for at in self._may_hide(sel):
            block, without = self._blocks[at], self._without_first(at)
            found = start_in(without, block, sel, excludes)
            if found is None:
                continue
            named = sel.parts[0] if block_id(sel) else ""  # a block id: no path
            inside = 0
            if named and found < block.first:  # the block opened inside the id's block
                inside, found = found, extract(without, sel, excludes).end_line
            line = found + (found >= block.first)  # its line in the file as it stands
            if block.first < line <= block.last:
                up = 0 if named else path_line(without, block.first, found, len(sel.parts))
                others = [h for h in holders if h[0] != selector]
                holder = self._holder(block.first, others)
                closer = closing_line(block.kind, self._lines[block.first - 1])
                last = self._lines[block.last - 1] if block.last <= len(self._lines) else ""
                hidden = Hidden(
                    block.kind,
                    block.first,
                    min(block.last, len(self._lines)),
                    named or self._lines[line - 1].strip(),
                    line,
                    None if holder is None else holder[0],
                    self._under(block.first),
                    block.last >= self._end,
                    path_line=up,
                    take_out=inside,
                    cut=holder is not None and any(not e.startswith(NORMALISED) for e in holder[1]),
                    closer=closer,
                    alone=ends_alone(block.kind, closer, last),
                )
                if committed is None or not hidden.restorable:
                    return hidden
                # the text without the block's first line: the file as that restore writes it
                new = kept_new(without, hidden.holder or "", committed() or "")
                return replace(hidden, new=new)
        return None

    def _may_hide(self, sel: Selector) -> list[int]:
        """The blocks whose own lines, parsed alone, hold a heading ``sel`` may name (by
        its last part; an id: one the heading carries, or the heading literally named
        ``{id}``, extract.py), in order. A block id (``{^id}``): the fences whose lines
        hold it (anchors.py reads no id in a fence's lines, and every other line)."""
        last = sel.parts[-1]
        if self._insides is None:
            self._insides = Insides(self._lines, self._blocks)
        if sel.kind == "anchor" and last.startswith("^"):
            held = self._insides.holding(last)
            return sorted(at for at in held if self._blocks[at].kind == "fence")
        if sel.kind == "anchor":
            return self._insides.naming({f"{{{last}}}", f"#{{{last}}}"}, [last])
        return self._insides.naming({last}, last.split())

    def _without_first(self, at: int) -> Document:
        doc = self._without.get(at)
        if doc is None:
            first = self._blocks[at].first
            doc = Document("".join(self._lines[: first - 1] + self._lines[first:]))
            self._without[at] = doc
        return doc

    def _document(self) -> Document:
        if self._doc is None:
            self._doc = Document(self.text)
        return self._doc

    def _holder(self, line: int, holders: Sequence[Target]) -> Target | None:
        """The bound heading section holding ``line`` (the deepest), or None."""
        best: tuple[int, Target] | None = None
        for target in holders:
            lines = self._lines_of(target)
            inside = lines is not None and lines[0] <= line <= lines[1]
            if lines is not None and inside and (best is None or lines[0] > best[0]):
                best = (lines[0], target)
        return None if best is None else best[1]

    def _lines_of(self, target: Target) -> tuple[int, int] | None:
        """A heading section's first and last line in the text (each found once)."""
        if target not in self._found:
            got: tuple[int, int] | None = None
            try:
                sel = parse_selector(target[0])
                if sel.kind in _HEADINGS:
                    found = extract(self._document(), sel, target[1])
                    got = (found.start_line, found.end_line)
            except SelectorError:
                pass
            self._found[target] = got
        return self._found[target]

    def _under(self, line: int) -> str | None:
        """The heading path of the section holding ``line``, None above the first."""
        above = [h for h in self._document().headings() if h.start_line <= line]
        return render_heading_path(above[-1].path, None) if above else None


def hidden_said(selector: str, hidden: Hidden) -> str:
    """What hides ``selector``'s heading, in words (a refusal's and a finding's)."""
    if hidden.holder is not None:
        where = f"in {printable(hidden.holder)}"
    elif hidden.under is not None:
        where = f"in #{printable(hidden.under)}"
    else:
        where = "above the first heading"
    how = (
        "which an edit left open over it"
        if hidden.left_open
        else f"which runs over it to line {hidden.block_end}"
    )
    try:
        block = block_id(parse_selector(selector))
    except SelectorError:
        block = False
    what, none = ("block id", "no block carries it") if block else ("heading", "no heading matches")
    return (
        f"{printable(selector)}: its {what} `{printable(hidden.heading)}` (line "
        f"{hidden.line}) is hidden by the {hidden.what} opened at line {hidden.block_line} "
        f"{where}, {how}, so {none}"
    )


def hidden_refusal(
    data: bytes,
    path: str,
    target: Target,
    holders: Sequence[Target],
    options: tuple[str, ...] = (),
    committed: Callable[[], str | None] | None = None,
) -> ForestError | None:
    """The refusal of restoring ``target`` (not found in ``data``, the file's bytes)
    when a fence or HTML block an edit left open hides its heading, or None.
    ``holders``: the file's other bindings a restore may bring the heading back with;
    ``options``: the restore's own (``--drop-nested``), kept in the route it names;
    ``committed``: the file's text at HEAD (restore_files.py ``committed_text``): a
    heading that restore would write one more of than it holds, that restore would
    refuse (restore_swallowed.py), so the block is to be closed."""
    try:
        text = data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        return None
    hidden = Hiders(text).hidden(target, holders, committed)
    if hidden is None:
        return None
    selector = target[0]
    said = f"{hidden_said(selector, hidden)}; nothing was written — "
    close = f"{hidden.close(named=False)}, then restore again"
    # A block closed further on (inside a hidden section) is refused by a restore of the
    # section holding it too (restore_swallowed.py: its sections could not stay).
    if hidden.holder is None or not hidden.restorable:
        diff = command_text(git_step("diff", "--", path))
        return ForestError(f"{said}{close} (`{diff}` shows the edit)")
    place = printable(hidden.holder)
    both = forest_text("restore", hidden.holder, selector, options=options)
    return ForestError(
        f"{said}restore {place} with it, which keeps the heading after {place}'s ground: "
        f"`{both}` ({place}'s edit is kept in the capture); or {close}"
    )


__all__ = ["HIDERS", "Hidden", "Hiders", "hidden_refusal", "hidden_said"]
