"""What two sequences share at their ends: the one count of a common start and end.

Stores: nothing.
Refuses: nothing.
Returns: ``common_ends(a, b)``: how many first items and how many last items ``a`` and
``b`` share, the two never overlapping (a word diff's changed run narrowed to its
middle, check/diff_align.py; how alike a line and its read are, custody/restore_merge.py).
Test: tests/text/test_ends.py
"""

from __future__ import annotations

from collections.abc import Sequence


def common_ends(a: Sequence[object], b: Sequence[object]) -> tuple[int, int]:
    """(the items ``a`` and ``b`` share at their start, then at their end, not
    counting again what the start took)."""
    most = min(len(a), len(b))
    head = 0
    while head < most and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < most - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    return head, tail


__all__ = ["common_ends"]
