"""Lines aligned by a patience diff, small gaps refined by difflib (text/line_align.py)."""

from __future__ import annotations

import difflib

import pytest

from forest_files.text import line_align
from forest_files.text.line_align import grouped, line_opcodes
from tests.helpers.walked import count_walked

ITEMS = (
    ["top\n", "- x\n", "\n", "- x\n", "\n", "- x\n", "end\n"],
    ["top\n", "- y\n", "\n", "- x\n", "\n", "- y\n", "end\n"],
)


def _difflib(a: list[str], b: list[str]) -> list[tuple[str, int, int, int, int]]:
    return difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()


def test_line_opcodes_repeated_lines_in_a_small_gap_matched_as_difflib_accepted() -> None:
    """No line unique between two anchors (blank lines, repeated items): the patience
    diff alone matches only the gap's ends; refined, the items kept are kept."""
    a, b = ITEMS
    assert line_opcodes(a, b) == _difflib(a, b)
    assert ("equal", 2, 5, 2, 5) in line_opcodes(a, b)


def test_line_opcodes_gap_past_its_product_left_whole_accepted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    a, b = ITEMS
    monkeypatch.setattr(line_align, "MAX_GAP_PRODUCT", 5 * 5 - 1)
    assert line_opcodes(a, b) == [  # a gap of 5 x 5 lines: the patience diff's kept
        ("equal", 0, 1, 0, 1),
        ("replace", 1, 6, 1, 6),
        ("equal", 6, 7, 6, 7),
    ]
    monkeypatch.setattr(line_align, "MAX_GAP_PRODUCT", 5 * 5)
    assert line_opcodes(a, b) == _difflib(a, b)


def test_line_opcodes_many_gaps_bounded_by_the_budget_accepted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """3,000 one-line gaps between anchors: ``MAX_GAP_SPENT`` of products refined (100
    gaps of 1 x 1), the rest left as the patience diff made them."""
    a = [x for i in range(3_000) for x in (f"anchor {i}\n", "a\n", "\n")]
    b = [x for i in range(3_000) for x in (f"anchor {i}\n", "b\n", "\n")]
    monkeypatch.setattr(line_align, "MAX_GAP_SPENT", 100)
    walked = count_walked(monkeypatch)
    codes = line_opcodes(a, b)
    assert len(walked) == 100, len(walked)
    changed = [c for c in codes if c[0] != "equal"]
    assert len(changed) == 3_000 and all(c[0] == "replace" for c in changed)


def test_grouped_as_difflib_get_grouped_opcodes_accepted() -> None:
    base = [f"l{i}\n" for i in range(30)]
    for b in ([*base[:9], "n\n", *base[9:]], base[2:], base, [], [*base, "z\n"]):
        for n in (0, 3):
            want = list(difflib.SequenceMatcher(None, base, b).get_grouped_opcodes(n))
            assert grouped(line_opcodes(base, b), n) == want, (b, n)


def test_line_ratio_within_the_product_is_difflibs_accepted() -> None:
    """Within ``MAX_GAP_PRODUCT`` the ratio is difflib's own (renamed sections ranked as
    they always were); past it, the share of lines the alignment keeps."""
    from forest_files.text.line_align import line_ratio

    a, b = ITEMS
    assert line_ratio(a, b) == difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()
    assert line_ratio([], []) == 1.0 and line_ratio(a, []) == 0.0
    long_a = [f"line {i}\n" for i in range(200)]
    long_b = [x.upper() if i % 2 else x for i, x in enumerate(long_a)]
    assert line_ratio(long_a, long_b) == 0.5
