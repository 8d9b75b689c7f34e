"""Restore's guard for a block an edit closed inside a section over a heading the
file keeps: the lines a heading section's restore drops, read alone.

A fence or HTML comment opened in a section and closed further down its lines hides
every heading between: the section runs on over them, and ground written over its
lines drops them from the file, exit 0 (the capture alone would keep them). Such a
block is most often a code sample typed in, whose ``# install`` is the edit's own;
it hides a heading the file keeps only when that heading, read with the block's first
line taken out (a fence's closing line too), is one of the section's level or higher
that HEAD's file holds more of than the restore would write (the next section, which
the fence ran over) or holds none of (a section typed and never committed, which only
the user can tell from a line of a sample: not a line of ground's, nor in a fence that
names its language, ```` ```sh ````, unless that language is Markdown), or, with
words under it in the block, one the file read so holds more of than HEAD's and the
restore's would (``# B`` typed a second time, the real one after the section; the same
heading alone in a bare fence is a sample's line), or, the section excluding parts, an
excluded part's heading (its text is in no record).
Stores: nothing (lines in, a value out).
Refuses: nothing itself; ``closed_over``'s answer is refused by restore_swallowed.py
``guard`` (the block to close before the heading, its own closing line taken out
first: restore_hiding.py ``Hidden.fix``).
Returns: ``closed_over``: the first such heading, as restore_hiding.py's ``Hidden``,
or None; HEAD's file and the file without the block's first line read only when a
closed block's lines hold a heading read alone. ``read_alone``: each heading a run of
lines holds read alone (and past the first line of each block left open in them);
``block_end``: a block's closing line in the section, or -1.
Test: tests/custody/test_restore_closed.py, tests/custody/test_restore_swallowed.py
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator

from forest_files.custody.hidden_close import HIDERS, closing_line, ends_alone
from forest_files.custody.hidden_place import by_path
from forest_files.custody.restore_hiding import Hidden
from forest_files.text.extract import Document, extract
from forest_files.text.md_blocks import Block, blocks
from forest_files.text.normalisers import PREFIX as NORMALISED
from forest_files.text.selector import parse_selector
from forest_files.text.selector_errors import SelectorError

_END = "\n# end\n"  # a heading put after a text: hidden, a block is left open above it
_MAX_OPEN = 64  # blocks left open, one inside another, looked past in one run of lines
_MARKDOWN = frozenset({"md", "markdown", "mdown", "mkd", "mkdn", "gfm"})  # its info strings


def lines_of(section: list[str]) -> list[str]:
    """``section``'s lines, each ending in one ``\\n``."""
    return [x.rstrip("\r\n") + "\n" for x in section]


def read_alone(run: list[str]) -> Iterator[tuple[int, int]]:
    """(0-based line, level) of each heading the lines ``run`` hold read alone, then of
    each a block left open in them hides (a fence or comment opened and never closed:
    read again from the line after its first), in order."""
    k = 0
    for _ in range(_MAX_OPEN):
        end = len(run) - k + 2  # the line of _END's heading
        found = blocks("".join(run[k:]) + _END)
        yield from (
            (k + b.first - 1, b.level) for b in found if b.kind == "heading" and b.first < end
        )
        last = found[-1]
        if last.first == end or last.kind not in HIDERS:
            return
        k += last.first
    yield k - 1, 0  # past _MAX_OPEN: what the last opened block hides is not known


def block_end(hider: Block, text: list[str]) -> int:
    """``hider``'s closing line (0-based) when it closes in the section's lines, -1 when
    it runs past them."""
    rest = blocks("".join(text[hider.first - 1 :]) + _END)
    return -1 if rest[-1].first == 1 else hider.last - 1


Around = tuple[list[str], list[str], list[str]]  # the lines before, the section's, after


def closed_over(
    sel: tuple[str, tuple[str, ...]],
    around: Around,
    upto: int,
    ground: str,
    committed: Callable[[], str | None] | None,
) -> Hidden | None:
    """The first heading, in the section's lines before ``upto`` (0-based; the lines
    after stay), that a block closed in them hides and the restore would drop: of the
    section's level or higher, one HEAD's file (``committed``; None: not asked) holds
    more of, level and heading path, than the file as written (``around``'s lines
    before, ground, the section's from ``upto`` and the lines after); the section
    excluding parts (``sel``: its selector and exclusions), any heading an exclusion
    finds once the block's first line (a fence's closing line too) is out. None: no
    such heading."""
    section = around[1]
    text = lines_of(section)
    outline = blocks("".join(text))
    if not outline or outline[0].kind != "heading":
        return None
    level = outline[0].level
    cut = any(not e.startswith(NORMALISED) for e in sel[1])
    judge = _Judge(sel, around, upto, ground, committed)
    for block in outline:
        if block.kind not in HIDERS or block.first > upto:
            continue
        end = block_end(block, text)
        if end < 0:
            continue  # it runs past the section: restore_swallowed.py ``swallowed``'s
        for at, found in read_alone(text[block.first : end + 1]):
            line = block.first + at  # 0-based in the section
            if not found or line >= upto or (found > level and not cut):
                continue
            out = (block.first - 1, end if block.kind == "fence" else -1)
            sample = block.kind == "fence" and labelled(text[block.first - 1])
            typed = any(x.strip() for x in text[line + 1 : end])  # words under it
            if judge.dropped(out, line, deeper=found > level, sample=sample, typed=typed):
                closer = closing_line(block.kind, text[block.first - 1])
                return Hidden(
                    line,
                    text[line].strip(),
                    found,
                    block.first - 1,
                    block.kind,
                    tail=False,
                    closer=closer,
                    end=end,
                    alone=ends_alone(block.kind, closer, text[end]),
                )
    return None


def labelled(opener: str) -> bool:
    """A fence's first line ``opener`` names what its lines are (an info string:
    ```` ```sh ````): a code sample typed in, not a block put over a section. One naming
    Markdown (```` ```md ````) does not: its lines are most likely a section typed over,
    judged as a bare fence's."""
    text = opener.strip()
    info = text.lstrip(text[:1]).split() if text else []
    return bool(info) and info[0].lower() not in _MARKDOWN


class _Judge:
    """Whether a heading a closed block hides is one the restore would drop; each text
    read once, when first asked."""

    def __init__(
        self,
        sel: tuple[str, tuple[str, ...]],
        around: Around,
        upto: int,
        ground: str,
        committed: Callable[[], str | None] | None,
    ) -> None:
        self.sel, self.around, self.upto = sel, around, upto
        self.ground, self.committed = ground, committed
        self._counts: tuple[Counter[tuple[int, tuple[str, ...]]], ...] | None = None
        self._docs: dict[tuple[int, int], Document] = {}

    def dropped(
        self, out: tuple[int, int], line: int, *, deeper: bool, sample: bool, typed: bool
    ) -> bool:
        """The heading at ``line`` (0-based in the section), hidden by a block, is a kept
        one (``closed_over``), read with ``out`` taken out: the block's first line and
        a fence's closing line (-1: none; left, it would open a fence over the rest).
        Of the section's level or higher: one HEAD's file holds more of than the file
        written would, or one it holds none of (a section typed and never committed, or
        a line of a sample: only the user can tell, so the restore refuses), or, with
        words under it in the block (``typed``), one the file read so holds more of
        than HEAD's and the file written (``# B`` typed a second time, the real one
        after the section), unless the block is a ``sample`` (a fence naming its
        language: its lines are code) or the line is one of ground's (a sample ground
        holds itself)."""
        before = self.around[0]
        doc = self._without(out)
        at = len(before) + line  # its 1-based line once the opener's is out
        if deeper:
            try:
                got = extract(doc, parse_selector(self.sel[0]), self.sel[1])
            except SelectorError:
                return False  # an exclusion found twice: the part stands where it is
            return any(start == at for start, _end in got.cuts)
        if self.committed is None:
            return False
        heads = [(h.level, h.path) for h in doc.headings() if h.start_line == at]
        if not heads:
            return False
        held, written = self._held()
        key = heads[0]
        if held[key] > written[key]:
            return True
        if sample or self._ground_line(line):
            return False
        return not held[key] or (typed and by_path(doc)[key] > max(held[key], written[key]))

    def _ground_line(self, line: int) -> bool:
        """The section's line ``line`` (0-based) is, stripped, a line of ground's."""
        said = self.around[1][line].strip()
        return any(x.strip() == said for x in self.ground.splitlines())

    def _without(self, out: tuple[int, int]) -> Document:
        doc = self._docs.get(out)
        if doc is None:
            before, section, after = self.around
            kept = [x for i, x in enumerate(section) if i not in out]
            doc = Document("".join(lines_of([*before, *kept, *after])))
            self._docs[out] = doc
        return doc

    def _held(self) -> tuple[Counter[tuple[int, tuple[str, ...]]], ...]:
        """How many headings of each level and path HEAD's file holds, and the file as
        the restore writes it."""
        if self._counts is None:
            before, section, after = self.around
            ground = self.ground if self.ground.endswith("\n") else self.ground + "\n"
            written = [*before, ground, *section[self.upto :], *after]
            head = self.committed() if self.committed is not None else None
            self._counts = (
                by_path(Document(head or "")),
                by_path(Document("".join(lines_of(written)))),
            )
        return self._counts


__all__ = ["block_end", "closed_over", "labelled", "lines_of", "read_alone"]
