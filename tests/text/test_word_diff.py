"""Word-level diffs for prose: ``files.diff.word_diff``, ``forest diff --words``, and
the diffs of ``forest check --show-diff`` (words for Markdown, lines for code)."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from forest_files.check.diff import colourise, is_prose, word_diff
from forest_files.check.diff_align import MAX_TOKENS_ALIGNED
from tests.helpers.cli import FOREST
from tests.helpers.git import commit_all, make_repo, write

# The slow lane (.ci/run runs it; the README's fast command leaves it out):
# generated texts, many cases.
pytestmark = pytest.mark.slow

WORDS = "Adopted as written"
CANON = "# Canon\n\n## Rules\n\nThe first rule stands.\n\nA middle line.\n\nThe last rule.\n"
CODE = "def total(x):\n    return x + 1\n"


def forest(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env.pop("NO_COLOR", None)
    return subprocess.run(
        [FOREST, *args], cwd=repo, env=env, capture_output=True, text=True, check=False
    )


def test_word_diff_changed_words_marked() -> None:
    got = word_diff("The first rule stands.\n", "The first law stands firm.\n")
    assert got == "@@ line 1 @@\nThe first [-rule-]{+law+} stands{+ firm+}."


def test_word_diff_unchanged_is_empty() -> None:
    assert word_diff("same words\n", "same words\n") == ""
    assert word_diff("", "") == ""


def test_word_diff_only_changed_lines_with_context_shown() -> None:
    old = "one\ntwo\nthree\nfour\nfive\nsix\nseven\n"
    new = "one\ntwo\nthree\nFOUR\nfive\nsix\nseven\n"
    assert word_diff(old, new) == "@@ line 3 @@\nthree\n[-four-]{+FOUR+}\nfive"
    assert word_diff(old, new, context=0, first_line=10) == "@@ line 13 @@\n[-four-]{+FOUR+}"
    full = word_diff(old, new, context=None)
    assert full.splitlines()[0] == "one" and len(full.splitlines()) == 7


def test_word_diff_separate_hunks_numbered_in_new() -> None:
    old = "a\nb\nc\nd\ne\nf\ng\n"
    new = "A\nb\nc\nd\ne\nf\nG\n"
    assert word_diff(old, new, context=0) == "@@ line 1 @@\n[-a-]{+A+}\n@@ line 7 @@\n[-g-]{+G+}"


def test_word_diff_deleted_and_inserted_lines_marked_each_line() -> None:
    got = word_diff("keep\ngone one\ngone two\nend\n", "keep\nend\nnew line\n", context=None)
    lines = got.splitlines()
    assert "[-gone one-]" in lines and "[-gone two-]" in lines
    assert "{+new line+}" in lines
    assert all(line.count("[-") == line.count("-]") for line in lines)  # each line stands alone


def test_word_diff_punctuation_and_unicode_tokens() -> None:
    got = word_diff("Élias said: «non».\n", "Élias said: «oui»!\n", context=0)
    assert got == "@@ line 1 @@\nÉlias said: «[-non-]{+oui+}»[-.-]{+!+}"


def test_word_diff_colour_keeps_markers() -> None:
    got = word_diff("a b\n", "a c\n", colour=True)
    assert "\x1b[31m[-b-]\x1b[0m" in got and "\x1b[32m{+c+}\x1b[0m" in got
    plain = colourise("--- ground x\n+++ now x\n-old\n+new\n same")
    assert "\x1b[31m-old" in plain and "\x1b[32m+new" in plain and "--- ground x" in plain


def test_is_prose_markdown_not_code() -> None:
    assert is_prose("docs/a.md") and is_prose("NOTES.TXT") and not is_prose("src/pay.py")


@pytest.fixture
def drifted(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path)
    assert forest(repo, "init").returncode == 0
    write(repo, "canon.md", CANON)
    write(repo, "pay.py", CODE)
    done = forest(repo, "adopt", "canon.md#Rules", "pay.py::total", "--words", WORDS)
    assert done.returncode == 0, done.stderr
    commit_all(repo, "adopt")
    write(repo, "canon.md", CANON.replace("first rule stands", "first law bends"))
    write(repo, "pay.py", CODE.replace("x + 1", "x + 2"))
    return repo


def test_cli_diff_words_marks_changed_words(drifted: Path) -> None:
    proc = forest(drifted, "diff", "--words", "canon.md#Rules")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[0] == "drifted canon.md#Canon/Rules"
    assert "The first [-rule-]{+law+} [-stands-]{+bends+}." in proc.stdout
    assert "@@ line 4 @@" in proc.stdout  # numbered as lines of the file (one of context)
    assert "\x1b[" not in proc.stdout  # no colour off a terminal
    lines = forest(drifted, "diff", "canon.md#Rules").stdout
    assert "-The first rule stands." in lines and "+The first law bends." in lines


def test_cli_diff_words_clean_section_says_no_change(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    assert forest(repo, "init").returncode == 0
    write(repo, "canon.md", CANON)
    assert forest(repo, "adopt", "canon.md#Rules", "--words", WORDS).returncode == 0
    proc = forest(repo, "diff", "--words", "canon.md#Rules")
    assert proc.stdout.splitlines() == ["clean canon.md#Canon/Rules", "(no change)"]


def test_check_show_diff_words_for_prose_lines_for_code(drifted: Path) -> None:
    proc = forest(drifted, "check", "--show-diff")
    assert proc.returncode == 1
    assert "The first [-rule-]{+law+} [-stands-]{+bends+}." in proc.stdout
    assert "-    return x + 1" in proc.stdout and "+    return x + 2" in proc.stdout


def _unmarked(diff_lines: list[str]) -> list[str]:
    """A shown line as the new text holds it: deletions dropped, insertions unwrapped."""
    return [re.sub(r"\{\+(.*?)\+\}", r"\1", re.sub(r"\[-.*?-\]", "", x)) for x in diff_lines]


def test_word_diff_long_text_two_edits_marked_in_place_accepted() -> None:
    """A text far past ``MAX_TOKENS_ALIGNED`` (a watcher's proposal of a long section)
    edited on two lines: aligned by its lines first, the two changed words marked on
    their own lines under their own headers (token alignment over the whole text ran
    for minutes on a 0.5 MB section)."""
    old_lines = [
        f"Line {i} of the long chapter, with words that repeat and repeat.\n" for i in range(30_000)
    ]
    new_lines = list(old_lines)
    new_lines[10] = old_lines[10].replace("chapter", "canto")
    new_lines[29_000] = old_lines[29_000].replace("repeat.", "recur.")
    old, new = "".join(old_lines), "".join(new_lines)
    assert len(old.split()) > MAX_TOKENS_ALIGNED  # words alone: fewer than its tokens
    got = word_diff(old, new, context=0).split("\n")
    assert got == [
        "@@ line 11 @@",
        "Line 10 of the long [-chapter-]{+canto+}, with words that repeat and repeat.",
        "@@ line 29001 @@",
        "Line 29000 of the long chapter, with words that repeat and [-repeat-]{+recur+}.",
    ]


def test_word_diff_long_text_runs_inserted_and_deleted_whole_accepted() -> None:
    """Past ``MAX_TOKENS_ALIGNED``, a run of lines inserted and one deleted are marked
    whole, each shown line reads as the new text's line, and every line of the new
    text is shown once, in order (``context=None``)."""
    old_lines = [f"Verse {i}: the tide comes in and the tide goes out.\n" for i in range(5_000)]
    new_lines = [*old_lines[:100], "A new stanza.\n", "Another new line.\n", *old_lines[100:4_000]]
    old, new = "".join(old_lines), "".join(new_lines)
    shown = word_diff(old, new, context=None).split("\n")
    assert "{+A new stanza.+}" in shown and "{+Another new line.+}" in shown
    assert any(x.startswith("[-Verse 4000:") for x in shown)
    kept = [x for x in _unmarked(shown) if x]
    assert kept == [x.rstrip("\n") for x in new_lines]


def test_word_diff_one_long_line_edited_marked_in_place_accepted() -> None:
    """One line past ``MAX_TOKENS_ALIGNED`` (a section written without line breaks)
    edited: too long to align by its words at once (minutes), its first and last tokens
    the old line shares are kept and the word between them marked (it was marked whole)."""
    old = "intro\n" + " ".join(f"w{i}" for i in range(MAX_TOKENS_ALIGNED)) + "\nend\n"
    new = old.replace("w7 ", "seven ")
    shown = word_diff(old, new, context=0).split("\n")
    assert shown[0] == "@@ line 2 @@"
    assert shown[1].startswith("w0 w1 w2 w3 w4 w5 w6 [-w7-]{+seven+} w8 w9 ")
    assert shown[1].endswith(f" w{MAX_TOKENS_ALIGNED - 1}") and len(shown) == 2
