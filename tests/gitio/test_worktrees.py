"""``git worktree list --porcelain -z`` read into typed records: hostile paths (a
space, a newline, an escape, a byte that is not UTF-8) come back byte for byte, and
git's flags (detached, locked with its reason, prunable) are each record's own."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

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
