"""The cost of ``difflib`` alignments, counted rather than timed: the old-side items
each ``SequenceMatcher.find_longest_match`` call walks (tests/check/test_diff_cost.py,
tests/custody/test_restore_cost.py, tests/text/test_line_align.py)."""

from __future__ import annotations

import difflib

import pytest


def count_walked(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A list that each later ``find_longest_match`` call appends its span to."""
    spans: list[int] = []
    real = difflib.SequenceMatcher.find_longest_match

    def counted(
        self: difflib.SequenceMatcher[str], alo: int, ahi: int, blo: int, bhi: int
    ) -> difflib.Match:
        spans.append(ahi - alo)
        return real(self, alo, ahi, blo, bhi)

    monkeypatch.setattr(difflib.SequenceMatcher, "find_longest_match", counted)
    return spans
