"""A stray git tracks under .forest/ledger that was deleted from the disk with a plain
``rm`` (the deletion not staged: what ``forest verify``'s old ``rm`` route left):
``forest verify`` names it from git's index, its route ``git rm --cached``, and pasted
where the forest hooks are installed, the commit after it clears verify and ``forest
ci`` alike.

verify judged only the disk, so it passed while the index (and the next commit, and the
gate) still held the stray.

Real repositories, the hooks installed by ``forest hooks install``, the routes pasted
into bash.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from forest_files.gate.ci import run_gate
from tests.helpers.cli import forest
from tests.helpers.git import git, pasted_under_hooks, write
from tests.helpers.ledger import hooked_repo

pytestmark = pytest.mark.slow  # git runs the installed hooks on every commit

LEDGER = ".forest/ledger"
LINK = "segments/" + "b" * 64 + ".jsonl"  # a symlink named like a segment


def _committed_past_hooks(root: Path) -> None:
    git(root, "add", "-A")
    git(root, "commit", "-q", "--no-verify", "-m", "strays")


def _gone_routes(root: Path) -> set[str]:
    """The one route of each fault of ``forest verify --json``, each a stray gone from
    the disk."""
    result = forest(root, "verify", "--json")
    assert result.exit_code == 3, result.stdout
    faults = json.loads(result.stdout)["faults"]
    assert faults and all(f["code"] == "stray" for f in faults), faults
    commands = set()
    for fault in faults:
        (route,) = fault["routes"]
        assert route["command"] == fault["fix"]
        assert "not staged" in fault["detail"]
        commands.add(route["command"])
    return commands


def test_verify_stray_tracked_deleted_from_disk_git_rm_cached_pasted_under_hooks_recovers(
    tmp_path: Path,
) -> None:
    root = hooked_repo(tmp_path)
    write(root, f"{LEDGER}/segments/notes.txt", "forged\n")
    write(root, f"{LEDGER}/odd/y.txt", "a directory git tracks\n")
    write(root, f"{LEDGER}/odd/deeper/z.txt", "and deeper\n")
    _committed_past_hooks(root)
    os.remove(root / LEDGER / "segments/notes.txt")  # the old `rm` route: deletion unstaged
    shutil.rmtree(root / LEDGER / "odd")
    commands = _gone_routes(root)
    assert commands == {
        f"git rm -q --cached -- {LEDGER}/segments/notes.txt",
        f"git rm -r -q --cached -- {LEDGER}/odd",
    }
    pasted_under_hooks(root, " && ".join(sorted(commands)))
    pasted_under_hooks(root, "git commit -q -m 'drop the strays'")
    assert forest(root, "verify").exit_code == 0
    assert git(root, "status", "--porcelain") == ""
    assert run_gate(root, "main").ok


def test_verify_symlink_tracked_deleted_from_disk_git_rm_cached_pasted_under_hooks_recovers(
    tmp_path: Path,
) -> None:
    """A symlink named like a segment: by its name alone no stray, by git's mode one."""
    root = hooked_repo(tmp_path)
    os.symlink("../../../a.md", root / LEDGER / LINK)
    _committed_past_hooks(root)
    os.remove(root / LEDGER / LINK)
    assert _gone_routes(root) == {f"git rm -q --cached -- {LEDGER}/{LINK}"}
    pasted_under_hooks(root, f"git rm -q --cached -- {LEDGER}/{LINK}")
    pasted_under_hooks(root, "git commit -q -m 'drop the link'")
    assert forest(root, "verify").exit_code == 0
    assert git(root, "status", "--porcelain") == ""
    assert git(root, "ls-tree", "-r", "--name-only", "HEAD", "--", f"{LEDGER}/{LINK}") == ""
