"""A drift's line diff costs about its lines, not their square (check/diff_align.py):
``forest diff`` (a unified diff), ``forest diff --words`` and ``forest check
--show-diff`` of a 6,000-line bound section with every other line edited. Lines were
aligned by ``difflib.SequenceMatcher``, whose every longest-match search walks the whole
rest of the old side (6,001 searches of ~3,000 lines each: 2 to 7 s); they are aligned by
a patience diff now. No timing is asserted: the lines difflib's searches walk are counted,
and what is shown is checked."""

from __future__ import annotations

import difflib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from forest_files.check.diff import word_diff
from forest_files.check.diff_align import unified
from tests.helpers.cli import forest
from tests.helpers.custody import adopted_repo
from tests.helpers.git import git, git_env, write

LINES = 6_000
# Old lines difflib's longest-match searches may walk for the whole diff: what the
# word diff's token alignments of 3,000 one-word runs take (a few each), a thousandth
# of what aligning the lines with difflib walked (~9 million).
MOST_WALKED = 20 * LINES


def _texts(every: int = 2) -> tuple[str, str]:
    old = [f"line {i} of the section says alpha beta gamma\n" for i in range(LINES)]
    new = [x.replace("beta", "BETA") if i % every == 1 else x for i, x in enumerate(old)]
    return "".join(old), "".join(new)


def _edited(line: str) -> bool:
    return "BETA" in line


def test_unified_every_other_line_edited_linear_accepted(walked: list[int]) -> None:
    old, new = _texts()
    got = list(unified(old.splitlines(True), new.splitlines(True), "ground", "now"))
    assert sum(walked) <= MOST_WALKED, sum(walked)
    assert got[:3] == ["--- ground\n", "+++ now\n", f"@@ -1,{LINES} +1,{LINES} @@\n"]
    assert [x[1:] for x in got[3:] if x[0] in " +"] == new.splitlines(True)
    assert [x[1:] for x in got[3:] if x[0] in " -"] == old.splitlines(True)
    assert sum(x.startswith("+") for x in got[2:]) == LINES // 2


def test_word_diff_every_other_line_edited_linear_accepted(walked: list[int]) -> None:
    old, new = _texts()
    got = word_diff(old, new, context=0).split("\n")
    assert sum(walked) <= MOST_WALKED, sum(walked)
    assert got[:4] == [
        "@@ line 2 @@",
        "line 1 of the section says alpha [-beta-]{+BETA+} gamma",
        "@@ line 4 @@",
        "line 3 of the section says alpha [-beta-]{+BETA+} gamma",
    ]
    assert len(got) == LINES  # a header and a line for each of 3,000 edited lines


@pytest.mark.parametrize(
    "args",
    [("diff", "f.md"), ("diff", "f.md", "--words"), ("check", "--show-diff")],
    ids=["diff", "words", "check"],
)
def test_cli_diff_every_other_line_edited_linear_accepted(
    tmp_path: Path, walked: list[int], args: tuple[str, ...]
) -> None:
    """The doors a user runs: each shows the edited lines, at a cost linear in them."""
    old, new = _texts()
    repo = adopted_repo(tmp_path, "f.md", f"# A\n\n{old}\n# B\n\nx\n", "f.md#A")
    write(repo, "f.md", f"# A\n\n{new}\n# B\n\nx\n")
    walked.clear()
    done = forest(repo, *args)
    assert done.exit_code == (1 if args[0] == "check" else 0), done.output
    assert sum(walked) <= MOST_WALKED, sum(walked)
    shown = [x for x in done.stdout.splitlines() if _edited(x)]
    if args[0] == "check":  # MAX_DIFF_LINES of the diff, then a line naming the rest
        assert shown[0] == "line 1 of the section says alpha [-beta-]{+BETA+} gamma"
    elif "--words" in args:
        assert len(shown) == LINES // 2
    else:
        assert shown == [f"+{x}" for x in new.splitlines() if _edited(x)]


def test_unified_matches_difflib_on_plain_edits_accepted() -> None:
    """Where difflib and patience align alike (unique lines), the text is difflib's,
    its hunk ranges included (``-3`` for one line, ``-0,0`` before the first)."""
    base = [f"l{i}\n" for i in range(40)]
    cases = [
        (base, [*base[:10], "new\n", *base[10:]]),
        (base, base[1:]),
        (base, ["first\n", *base]),
        (base, [*base[:20], "x\n", *base[21:]]),
        (base, [*base, "end\n"]),
        (base, [*base[:5], *base[30:]]),
        ([], ["a\n"]),
        (["a\n"], []),
        (base, base),
    ]
    for a, b in cases:
        for n in (0, 1, 3):
            want = list(difflib.unified_diff(a, b, "ground", "now", n=n))
            assert list(unified(a, b, "ground", "now", n=n)) == want, (a, b, n)


def test_hook_clean_commit_never_imports_patiencediff_accepted(tmp_path: Path) -> None:
    """The patience diff is imported where a diff is worked out, never on the hook's
    way to a clean commit (a bound section staged as ground, an unbound file added)."""
    repo = adopted_repo(tmp_path, "f.md", "# A\n\nwords\n", "f.md#A")
    write(repo, "g.md", "unbound\n")
    git(repo, "add", "g.md")
    code = "import sys; from forest_files.doors.hooks.run import console; console()"
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code, "pre-commit"],
        cwd=repo,
        env={**os.environ, **git_env()},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    imported = {line.split("|")[-1].strip() for line in done.stderr.splitlines()}
    assert "forest_files.doors.hooks.run" in imported
    assert not {m for m in imported if m.split(".")[0] == "patiencediff"}
