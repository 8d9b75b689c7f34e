"""text/ends.py: a common start and end, never counted twice."""

from __future__ import annotations

from forest_files.text.ends import common_ends


def test_common_ends_start_and_end_accepted() -> None:
    assert common_ends("abcXYZdef", "abc123def") == (3, 3)
    assert common_ends(["a", "b"], ["a", "b", "c"]) == (2, 0)


def test_common_ends_overlap_not_counted_twice_accepted() -> None:
    # "aa" in "aaa": the start takes both, nothing is left for the end
    assert common_ends("aa", "aaa") == (2, 0)
    assert common_ends("", "abc") == (0, 0)
