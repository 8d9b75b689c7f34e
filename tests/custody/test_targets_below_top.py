"""A target typed below the top of the work tree (custody/target_refusals.py).

Selectors are the top's (every route prints them so, and they work pasted
anywhere); a shell's path is the working directory's (custody/lookup.py
``below_top`` says so for a target that names no binding there). Typed in ``docs/``,
``forest adopt a.md`` bound the top's ``a.md`` without a word while ``docs/a.md``
stood beside the user, and ``forest adopt b.md`` said "no such file" of a file
the user could see. Real repository, the console entry run in the subdirectory.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from forest_files.kernel.shellword import shell_word
from tests.helpers.cli import FOREST, forest, ok
from tests.helpers.git import commit_all, git_env, make_repo, write
from tests.helpers.template import copied_from


def _build(directory: Path) -> Path:
    root = make_repo(directory)
    assert _forest(root, "init").returncode == 0
    write(root, "a.md", "# Root\n\nroot a\n")
    write(root, "docs/a.md", "# Docs\n\ndocs a\n")
    write(root, "docs/b.md", "# B\n\nb\n")
    commit_all(root, "files")
    return root


def _forest(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [FOREST, *args],
        cwd=cwd,
        env={**os.environ, **git_env()},
        capture_output=True,
        text=True,
        check=False,
    )


# ``forest init`` and the files committed, built once per worker: each test its own copy.
root = copied_from(_build)


def _ledger(root: Path) -> list[str]:
    return sorted(p.name for p in (root / ".forest" / "ledger").rglob("*") if p.is_file())


def test_adopt_below_top_two_files_answer_refused(root: Path) -> None:
    before = _ledger(root)
    proc = _forest(root / "docs", "adopt", "a.md", "--words", "the docs file")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    (line,) = proc.stderr.splitlines()
    assert "two files answer to it" in line and "give docs/a.md for that one" in line, line
    assert _ledger(root) == before  # nothing recorded


def test_adopt_below_top_file_only_beside_user_named_recovers(root: Path) -> None:
    proc = _forest(root / "docs", "adopt", "b.md", "--words", "the b file")
    assert proc.returncode == 1
    assert "you stand in docs/, so give docs/b.md" in proc.stderr, proc.stderr
    done = _forest(root / "docs", "adopt", "docs/b.md", "--words", "the b file")
    assert done.returncode == 0, done.stderr
    assert "bound docs/b.md" in done.stdout


def test_adopt_at_the_top_same_name_accepted(root: Path) -> None:
    done = _forest(root, "adopt", "a.md", "--words", "the top file")
    assert done.returncode == 0, done.stderr
    assert "bound a.md" in done.stdout


@pytest.mark.slow  # a repository built and five commands run in it (about 1 s)
def test_bound_target_below_top_names_it_from_the_top_refused(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Typed in ``docs/``, ``forest diff b.md`` said "no binding in this file" of the
    bound ``docs/b.md`` beside the user (adopt said where selectors start; these did not)."""
    ok(root, "adopt", "docs/b.md#B", "--words", "the b section")
    write(root, "docs/b.md", "# B\n\nb, edited\n")
    before = _ledger(root)
    monkeypatch.chdir(root / "docs")
    for typed in (("diff", "b.md"), ("restore", "b.md#B"), ("log", "b.md"), ("supersede", "b.md")):
        words = ("--words", "why") if typed[0] == "supersede" else ()
        result = forest(root, *typed, *words)
        assert result.exit_code == 1, (typed, result.stdout)
        given = shell_word(f"docs/{typed[1]}")
        assert f"you stand in docs/, so give {given}" in result.stderr, result.stderr
    assert (root / "docs" / "b.md").read_text() == "# B\n\nb, edited\n"  # nothing written
    assert _ledger(root) == before
    shown = forest(root, "diff", "docs/b.md#B")  # given so: the drift
    assert shown.exit_code == 0 and "+b, edited" in shown.stdout, shown.stdout


@pytest.mark.slow  # a repository built and four commands run in it (about 1 s)
def test_acts_below_top_two_bound_files_answer_refused(root: Path) -> None:
    """Typed in ``docs/`` where ``a.md`` and ``docs/a.md`` are both bound and edited:
    ``forest restore a.md`` restored the top's file without a word (the user likely
    meant the one beside them). Restore, supersede and retire refuse as adopt does,
    naming both; nothing is written and nothing recorded."""
    ok(root, "adopt", "a.md", "docs/a.md", "--words", "both as written")
    commit_all(root, "adopt")
    write(root, "a.md", "# Root\n\nroot a, edited\n")
    write(root, "docs/a.md", "# Docs\n\ndocs a, edited\n")
    before = (_ledger(root), (root / "a.md").read_bytes(), (root / "docs/a.md").read_bytes())
    for args in (
        ("restore", "a.md"),
        ("supersede", "a.md", "--words", "newer"),
        ("retire", "a.md", "--words", "gone"),
    ):
        proc = _forest(root / "docs", *args)
        assert proc.returncode == 1, proc.stdout + proc.stderr
        (line,) = proc.stderr.splitlines()
        assert "two bound files answer to it" in line and "give docs/a.md" in line, line
    after = (_ledger(root), (root / "a.md").read_bytes(), (root / "docs/a.md").read_bytes())
    assert after == before
    done = _forest(root / "docs", "restore", "docs/a.md")  # the full selector: that one
    assert done.returncode == 0, done.stderr
    assert (root / "docs/a.md").read_text() == "# Docs\n\ndocs a\n"
    assert (root / "a.md").read_bytes() == before[1]
