"""The word diff's cost is bounded whatever the text (check/diff_align.py): a section
rewritten whole, or every paragraph of a long one edited, is diffed in about a second
where token alignment ran for minutes (``forest check`` on a terminal, ``forest
review``, ``forest diff --words``, ``forest proposal show``). No timing is asserted:
each test ran for minutes before, and asserts what is shown."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from forest_files.check import diff_align
from forest_files.check.diff import word_diff


def _unmarked(lines: list[str]) -> list[str]:
    """A shown line as the new text holds it: deletions dropped, insertions unwrapped."""
    return [re.sub(r"\{\+(.*?)\+\}", r"\1", re.sub(r"\[-.*?-\]", "", x)) for x in lines]


def _deleted(lines: list[str]) -> list[str]:
    return [x for line in lines for x in re.findall(r"\[-(.*?)-\]", line)]


def test_word_diff_section_of_short_lines_rewritten_bounded_accepted() -> None:
    """1,000 short lines each rewritten (a digit, a space shared everywhere): minutes of
    token alignment before; every new line is shown once, in order, and every old one
    marked gone."""
    old_lines = [f"row {i} says alpha beta" for i in range(1_000)]
    new_lines = [f"line {i} reads delta" for i in range(1_000)]
    shown = word_diff("\n".join(old_lines) + "\n", "\n".join(new_lines) + "\n", context=None)
    got = shown.split("\n")
    assert [x for x in _unmarked(got) if x] == new_lines
    assert "".join(_deleted(got)).replace(" ", "") == "".join(old_lines).replace(" ", "")


def test_word_diff_paragraphs_each_edited_bounded_accepted() -> None:
    """15,000 paragraphs, blank lines between, each edited (30,000 lines): the blank
    lines, repeated thousands of times, made the line alignment quadratic (minutes);
    past the bound its common first and last words are kept and the rest marked whole:
    every old word gone, every new one added, each once."""
    old = "".join(f"para {i} alpha beta\n\n" for i in range(15_000))
    new = "".join(f"para {i} alpha BETA\n\n" for i in range(15_000))
    got = word_diff(old, new, context=None).split("\n")
    assert "".join(_deleted(got)).count("beta") == 15_000
    added = [x for line in got for x in re.findall(r"\{\+(.*?)\+\}", line)]
    assert "".join(added).count("BETA") == 15_000 and len(got) <= 2 * 30_001


def test_word_diff_long_text_two_edits_among_blank_lines_marked_in_place_accepted() -> None:
    """A 5 MB proposal of paragraphs with blank lines between, two words edited far
    apart: each marked on its own line, under its own header."""
    paragraphs = [f"Paragraph {i} of the chapter, words that repeat.\n\n" for i in range(60_000)]
    old = "".join(paragraphs)
    new = old.replace("Paragraph 10 of", "Para 10 of").replace("Paragraph 59000 ", "P 59000 ")
    assert word_diff(old, new, context=0).split("\n") == [
        "@@ line 21 @@",
        "[-Paragraph-]{+Para+} 10 of the chapter, words that repeat.",
        "@@ line 118001 @@",
        "[-Paragraph-]{+P+} 59000 of the chapter, words that repeat.",
    ]


def test_word_diff_limit_aligns_no_run_past_its_lines_accepted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``limit``: the diff's first lines, and the next when more follow, as the whole diff
    has them; no changed run past them is aligned (before: each of 15,000 edited lines
    was, then all but the shown lines thrown away). 1,500 lines: the whole diff is the
    test's own cost (15,000 ran for a minute and a half on a loaded machine)."""
    old = "".join(f"kept {i}\nline {i} alpha beta\n" for i in range(1_500))
    new = "".join(f"kept {i}\nline {i} alpha BETA\n" for i in range(1_500))
    aligned: list[int] = []
    real = diff_align._aligned

    def counted(a: list[str], b: list[str]) -> Iterator[tuple[str, str]]:
        aligned.append(1)
        return real(a, b)

    monkeypatch.setattr(diff_align, "_aligned", counted)
    whole = word_diff(old, new).split("\n")
    assert len(aligned) == 1_500 and len(whole) > 3_000
    aligned.clear()
    cut = word_diff(old, new, limit=200).split("\n")
    assert cut == whole[:201]
    assert len(aligned) <= 100, len(aligned)  # each hunk: a header and its lines
    assert word_diff("a\n", "b\n", limit=200) == word_diff("a\n", "b\n")
    assert word_diff("a\n", "a\n", limit=200) == ""
