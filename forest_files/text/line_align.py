"""Two lists of lines aligned at a cost about their length: patience, small gaps refined.

Stores: nothing.
Refuses: nothing.
Returns: ``line_opcodes(a, b)``: ``difflib``'s opcodes (tag, a0, a1, b0, b1) turning
``a`` into ``b``; ``line_ratio(a, b)``: how much two lists of lines share, in [0, 1]
(``difflib``'s ``ratio()``, exact within ``MAX_GAP_PRODUCT``, else of the lines
``line_opcodes`` matches); ``grouped(codes, n)``: those opcodes in hunks with ``n`` lines of
context, as ``difflib``'s ``get_grouped_opcodes`` makes them (a unified diff's hunks).
Test: tests/text/test_line_align.py, tests/check/test_diff_cost.py,
tests/custody/test_restore_cost.py, tests/check/test_rename_cost.py

``difflib.SequenceMatcher`` on lines walks the rest of one side for each block it
matches: a 6,000-line section with every other line edited cost seconds in a diff and
tens of seconds in a restore (three alignments). A patience diff (``patiencediff``,
compiled) anchors on the lines found once on each side; between two anchors, where
no line is unique (blank lines, repeated list items), it matches only the gap's common
first and last lines, so each gap still changed whose two sides' product is within
``MAX_GAP_PRODUCT`` is aligned again by ``SequenceMatcher`` (what the code here always
did), within ``MAX_GAP_SPENT`` for the whole alignment. ``patiencediff`` is imported
on the first alignment, never by the hook's path to a clean commit.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from typing import Literal

Opcode = tuple[Literal["replace", "delete", "insert", "equal"], int, int, int, int]

# Lines of one side of a changed gap times the other's, above which the gap is left as
# the patience diff made it (SequenceMatcher on 100 x 100 lines is a millisecond).
MAX_GAP_PRODUCT = 10_000
# Products one alignment may spend on refining its gaps.
MAX_GAP_SPENT = 400 * MAX_GAP_PRODUCT


def line_opcodes(a: Sequence[str], b: Sequence[str]) -> list[Opcode]:
    """``b`` against ``a``: the patience diff's opcodes, each small changed gap aligned
    again by ``SequenceMatcher``; adjacent opcodes of one tag merged."""
    from patiencediff import PatienceSequenceMatcher

    left = MAX_GAP_SPENT
    out: list[Opcode] = []
    for code in PatienceSequenceMatcher(None, a, b).get_opcodes():
        tag, a0, a1, b0, b1 = code
        cost = (a1 - a0) * (b1 - b0)
        if tag != "replace" or cost > min(MAX_GAP_PRODUCT, left):
            _add(out, (tag, a0, a1, b0, b1))
            continue
        left -= cost
        inner = difflib.SequenceMatcher(None, a[a0:a1], b[b0:b1], autojunk=False)
        for t, i0, i1, j0, j1 in inner.get_opcodes():
            _add(out, (t, a0 + i0, a0 + i1, b0 + j0, b0 + j1))
    return out


def line_ratio(a: Sequence[str], b: Sequence[str]) -> float:
    """2M / T, M the lines matched, T both sides' lines (1.0 when both are empty), as
    ``difflib``'s ``ratio()``: its own when the sides' product is within
    ``MAX_GAP_PRODUCT`` (what renamed sections were always ranked by), else of the
    lines ``line_opcodes`` keeps equal, at a cost about their length."""
    total = len(a) + len(b)
    if not total:
        return 1.0
    if len(a) * len(b) <= MAX_GAP_PRODUCT:
        return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()
    kept = sum(a1 - a0 for tag, a0, a1, _, _ in line_opcodes(a, b) if tag == "equal")
    return 2.0 * kept / total


def _add(out: list[Opcode], code: Opcode) -> None:
    """``code`` after ``out``'s last, merged with it when both are of one tag (a gap
    refined to nothing but ``equal`` joins the anchors around it)."""
    if out and out[-1][0] == code[0]:
        tag, a0, _, b0, _ = out[-1]
        out[-1] = (tag, a0, code[2], b0, code[4])
    else:
        out.append(code)


class _Codes(difflib.SequenceMatcher[str]):
    """Opcodes already worked out, grouped by ``difflib``'s own ``get_grouped_opcodes``."""

    def __init__(self, codes: list[Opcode]) -> None:
        super().__init__(None, "", "")
        self._codes = codes

    def get_opcodes(self) -> list[Opcode]:
        return list(self._codes)


def grouped(codes: list[Opcode], n: int = 3) -> list[list[tuple[str, int, int, int, int]]]:
    """``codes`` in hunks with ``n`` lines of context (none when nothing changed)."""
    return list(_Codes(codes).get_grouped_opcodes(n))


__all__ = ["MAX_GAP_PRODUCT", "MAX_GAP_SPENT", "grouped", "line_opcodes", "line_ratio"]
