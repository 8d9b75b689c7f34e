"""``gitio.ls_files_flagged``: the index's entries as ``ls_files_stage`` lists them and,
from the same ``git ls-files -s -v``, the flags ``taken_as_unchanged`` says (asked of a
listing of its own), for assume-unchanged, skip-worktree, both at once, none, a
conflicted path and names git would quote, over the whole index or named paths."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from forest_files import gitio
from tests.helpers.git import commit_all, git, git_env, make_repo, write

NAMES = ("assumed.md", "skipped.md", "both.md", "plain.md", "a b\nc.md", "caf\u00e9.md", "*.md")


def _flagged_repo(tmp_path: Path) -> Path:
    root = make_repo(tmp_path)
    for name in NAMES:
        write(root, name, f"{name}\n")
    write(root, "clash.md", "base\n")
    commit_all(root, "files")
    git(root, "checkout", "-q", "-b", "side")
    write(root, "clash.md", "side\n")
    commit_all(root, "side")
    git(root, "checkout", "-q", "-")
    write(root, "clash.md", "main\n")
    commit_all(root, "main")
    merge = ["git", "merge", "-q", "side"]  # clash.md conflicts: stages 1, 2 and 3
    assert (
        subprocess.run(
            merge, cwd=root, env={**os.environ, **git_env()}, capture_output=True
        ).returncode
        == 1
    )
    git(root, "update-index", "--assume-unchanged", "--", "assumed.md", "both.md", "*.md")
    git(root, "update-index", "--skip-worktree", "--", "skipped.md", "both.md", "a b\nc.md")
    return root


@pytest.mark.parametrize("named", [False, True], ids=["whole-index", "named-paths"])
def test_ls_files_flagged_same_as_two_listings_accepted(tmp_path: Path, named: bool) -> None:
    root = _flagged_repo(tmp_path)
    asked = [*NAMES, "clash.md", "absent.md"]
    paths = asked if named else ()
    entries, flags = gitio.ls_files_flagged(root, paths=paths)
    assert entries == gitio.ls_files_stage(root, paths=paths)
    assert flags == gitio.taken_as_unchanged(root, asked)
    assert flags == {
        "assumed.md": "assume-unchanged",
        "*.md": "assume-unchanged",
        "skipped.md": "skip-worktree",
        "both.md": "skip-worktree",
        "a b\nc.md": "skip-worktree",
    }
