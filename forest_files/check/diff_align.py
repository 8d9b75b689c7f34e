"""Where two texts differ, as the word diff marks it: pieces of text each kept, gone or added.

Stores: nothing.
Refuses: nothing.
Returns: ``pieces``: (text, side) pieces of ``new`` against ``old``, "=" in both, "-"
in old only, "+" in new only, each changed piece marked ``[-old-]``/``{+new+}`` and
split at its newlines, in order and as they are asked for (a diff cut at its first
lines aligns no run past them). A short text is aligned by its tokens (runs of word characters,
runs of whitespace, single other characters) with ``difflib.SequenceMatcher``; a long
one by its lines first, then its tokens inside each changed run of lines.
``unified``: the unified line diff of two lists of lines (``forest diff``, check's diff).
Test: tests/text/test_word_diff.py, tests/text/test_word_diff_cost.py,
tests/check/test_diff_cost.py

The cost is bounded, whatever the text. Lines are aligned by a patience diff, small
gaps refined (text/line_align.py), so a long text costs about its lines.
``SequenceMatcher`` alone walked the rest of the old side for each matching block it
found: a 6,000-line section with every other line edited took 2 to 7 s, for the line
diff as for the word diff. Tokens stay on ``SequenceMatcher``
(its alignment of words reads best), which grows with the product of the two sides
and with each matching block it finds (a 400-line section rewritten ran for 30 s, every
short token, a space, a digit, matching somewhere), so tokens are aligned at once only
while the product of the two sides is within ``MAX_ALIGNED_PRODUCT``; past it a run's
common first and last tokens are kept and the rest marked whole.
"""

from __future__ import annotations

import difflib
import itertools
import re
from collections.abc import Iterator

from forest_files.text.ends import common_ends
from forest_files.text.line_align import grouped, line_opcodes

_TOKEN = re.compile(r"\w+|\s+|[^\w\s]")

# Tokens per side above which the word diff aligns lines first.
MAX_TOKENS_ALIGNED = 20_000
# Tokens of one side times the other's, above which tokens (or lines) are not aligned by
# SequenceMatcher without autojunk: about 0.1 s at the worst measured (two 320-token
# texts sharing every other token); a typical edit aligns far faster.
MAX_ALIGNED_PRODUCT = 100_000
# Products spent by one diff's token alignments of changed runs; past it, each further
# run has its common ends kept and its middle marked whole.
MAX_PRODUCT_SPENT = 40 * MAX_ALIGNED_PRODUCT


def lines_of(text: str) -> list[str]:
    """``text``'s lines, each with its ``\n``: split there alone (``str.splitlines``
    also splits at U+2028, a form feed, a CR, which a section's lines may hold)."""
    return re.findall(r"[^\n]*\n|[^\n]+$", text)


def mark(kind: str, text: str) -> list[str]:
    """``text`` (deleted ``-`` or inserted ``+``) marked, split at its newlines so each
    piece stays on its own line; a newline itself is kept unmarked."""
    return list(_marks(kind, text))


def _marks(kind: str, text: str) -> Iterator[str]:
    opener, closer = ("[-", "-]") if kind == "-" else ("{+", "+}")
    for m in _PIECE.finditer(text):  # one line at a time: a run may be megabytes
        piece = m.group(0)
        yield piece if piece == "\n" else f"{opener}{piece}{closer}"


_PIECE = re.compile(r"\n|[^\n]+")


def _changed(a: list[str], b: list[str]) -> Iterator[tuple[str, str]]:
    """``a`` gone and ``b`` added, each marked whole."""
    for kind, side in (("-", a), ("+", b)):
        yield from ((p, kind) for p in _marks(kind, "".join(side)))


def _aligned(a: list[str], b: list[str]) -> Iterator[tuple[str, str]]:
    """``b`` against ``a`` (tokens) as SequenceMatcher aligns them."""
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            yield ("".join(b[j1:j2]), "=")
        else:
            yield from _changed(a[i1:i2], b[j1:j2])


class _Budget:
    """The products one diff may still spend on aligning tokens (``MAX_PRODUCT_SPENT``)."""

    __slots__ = ("left",)

    def __init__(self) -> None:
        self.left = MAX_PRODUCT_SPENT

    def run(self, a: list[str], b: list[str]) -> Iterator[tuple[str, str]]:
        """A changed run's tokens: aligned while affordable, else its common ends kept
        and its middle marked whole."""
        head, tail = common_ends(a, b)
        ma, mb = a[head : len(a) - tail], b[head : len(b) - tail]
        cost = len(ma) * len(mb)
        if head:
            yield ("".join(a[:head]), "=")
        if cost <= min(MAX_ALIGNED_PRODUCT, self.left):
            self.left -= cost
            yield from _aligned(ma, mb)
        else:
            yield from _changed(ma, mb)
        if tail:
            yield ("".join(a[len(a) - tail :]), "=")


def _tokens_within(text: str, most: int) -> list[str] | None:
    """``text``'s tokens when there are at most ``most`` of them, else None: counted no
    further than that (a text may be megabytes)."""
    found = [m.group(0) for m in itertools.islice(_TOKEN.finditer(text), most + 1)]
    return found if len(found) <= most else None


def pieces(old: str, new: str) -> Iterator[tuple[str, str]]:
    """(text, side) pieces of ``new`` against ``old``, in order, each worked out when it
    is asked for: tokens aligned for a short text (its pieces as they always were); for
    a long one (``MAX_TOKENS_ALIGNED`` tokens, or ``MAX_ALIGNED_PRODUCT``), lines aligned
    first, then the tokens of each changed run of lines against the run it replaced,
    within the budget."""
    a = _tokens_within(old, MAX_TOKENS_ALIGNED)
    b = None if a is None else _tokens_within(new, MAX_TOKENS_ALIGNED)
    if a is not None and b is not None and len(a) * len(b) <= MAX_ALIGNED_PRODUCT:
        yield from _aligned(a, b)
        return
    la, lb = lines_of(old), lines_of(new)
    head, tail = common_ends(la, lb)
    ma, mb = la[head : len(la) - tail], lb[head : len(lb) - tail]
    if head:
        yield ("".join(la[:head]), "=")
    budget = _Budget()
    for op, i1, i2, j1, j2 in line_opcodes(ma, mb):
        if op == "equal":
            yield ("".join(mb[j1:j2]), "=")
        elif op == "replace":
            run_a, run_b = "".join(ma[i1:i2]), "".join(mb[j1:j2])
            yield from budget.run(_TOKEN.findall(run_a), _TOKEN.findall(run_b))
        else:  # a run inserted or deleted whole
            yield from _changed(ma[i1:i2], mb[j1:j2])
    if tail:
        yield ("".join(la[len(la) - tail :]), "=")


def unified(a: list[str], b: list[str], fromfile: str, tofile: str, n: int = 3) -> Iterator[str]:
    """``difflib.unified_diff`` of two lists of lines (each with its ``\n``), its text
    and hunk ranges, the lines aligned as ``line_opcodes`` aligns them."""
    for k, group in enumerate(grouped(line_opcodes(a, b), n)):
        if not k:
            yield f"--- {fromfile}\n"
            yield f"+++ {tofile}\n"
        first, last = group[0], group[-1]
        old, new = _range(first[1], last[2]), _range(first[3], last[4])
        yield f"@@ -{old} +{new} @@\n"
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                yield from (" " + line for line in a[i1:i2])
                continue
            yield from ("-" + line for line in a[i1:i2])
            yield from ("+" + line for line in b[j1:j2])


def _range(start: int, stop: int) -> str:
    """A hunk's range as ``difflib`` (and GNU diff) write it: ``N`` for one line, an empty
    range at the line before it (``0,0`` before the first)."""
    length = stop - start
    if length == 1:
        return str(start + 1)
    return f"{start if not length else start + 1},{length}"


__all__ = [
    "MAX_ALIGNED_PRODUCT",
    "MAX_TOKENS_ALIGNED",
    "lines_of",
    "mark",
    "pieces",
    "unified",
]
