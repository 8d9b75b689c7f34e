"""``git worktree list --porcelain -z`` read into typed records: hostile paths (a
space, a newline, an escape, a byte that is not UTF-8) come back byte for byte, and
git's flags (detached, locked with its reason, prunable) are each record's own."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from forest_files.gitio import Worktree, worktree_list
from tests.helpers.git import commit_all, git, make_repo, write


def test_worktree_list_hostile_paths_and_flags_round_trip_accepted(tmp_path: Path) -> None:
    root = make_repo(tmp_path)
    write(root, "a.txt", "a\n")
    head = commit_all(root, "one")
    spaced = tmp_path / "with space"
    broken = tmp_path / "new\nline"
    raw = tmp_path / os.fsdecode(b"esc\x1b-\xe9")
    gone = tmp_path / "gone"
    git(root, "worktree", "add", "-q", "-b", "spaced", str(spaced))
    git(root, "worktree", "add", "-q", "--detach", str(broken))
    git(root, "worktree", "add", "-q", "-b", "raw", str(raw))
    git(root, "worktree", "lock", "--reason", "on a stick; back Monday", str(raw))
    git(root, "worktree", "add", "-q", "-b", "gone", str(gone))
    shutil.rmtree(gone)  # its directory deleted by hand: git lists it as prunable
    listed = worktree_list(spaced)  # asked from a linked one: the main one still first
    assert listed[0] == Worktree(str(root), head, "refs/heads/main")
    rest = {t.path: t for t in listed[1:]}
    assert set(rest) == {str(spaced), str(broken), str(raw), str(gone)}
    assert rest[str(spaced)] == Worktree(str(spaced), head, "refs/heads/spaced")
    assert rest[str(broken)] == Worktree(str(broken), head, None, detached=True)
    assert rest[str(raw)].locked == "on a stick; back Monday"
    assert rest[str(raw)].prunable is None and rest[str(gone)].locked is None
    assert rest[str(gone)].prunable  # git's reason: its gitdir names a path that is gone
    assert os.fsencode(rest[str(raw)].path) == os.fsencode(tmp_path) + b"/esc\x1b-\xe9"


def test_worktree_list_on_a_git_without_z_reads_lines_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A git before 2.36 refuses ``worktree list -z`` (usage, exit 129): the listing is
    read from its lines instead, the same records (a `forest proposals` there works)."""
    root = make_repo(tmp_path)
    write(root, "a.txt", "a\n")
    head = commit_all(root, "one")
    linked = tmp_path / "linked tree"
    git(root, "worktree", "add", "-q", "-b", "side", str(linked))
    real = shutil.which("git")
    assert real is not None
    shim = tmp_path / "old-git"
    shim.mkdir()
    (shim / "git").write_text(
        "#!/bin/sh\n"
        'case " $* " in *" worktree list --porcelain -z "*)\n'
        '  echo "error: unknown switch \\`z\'" >&2; exit 129;;\n'
        "esac\n"
        f'exec {real} "$@"\n'
    )
    (shim / "git").chmod(0o755)
    monkeypatch.setenv("PATH", f"{shim}{os.pathsep}{os.environ['PATH']}")
    listed = worktree_list(root)
    assert listed == (
        Worktree(str(root), head, "refs/heads/main"),
        Worktree(str(linked), head, "refs/heads/side"),
    )
