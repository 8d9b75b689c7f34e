"""``forest hooks install`` killed between its temp write and its rename leaves
``HOOK.<pid>.tmp`` beside the hook (kernel/cache.py ``replace_atomically``); the install
typed again removes every such leftover whose writer is gone (its pid runs nothing
here, or the file is an hour old) and never a live writer's. With ``core.hooksPath``
inside the work tree, ``git add -A`` would have committed it."""

from __future__ import annotations

import os
import time
from pathlib import Path

from forest_files.kernel.pids import STALE_SECONDS
from tests.helpers.cli import forest
from tests.helpers.git import git, make_repo


def _install(repo: Path) -> None:
    result = forest(repo, "hooks", "install")
    assert result.exit_code == 0, result.stdout + result.stderr


def test_hooks_install_again_leftover_of_dead_writer_recovers(
    tmp_path: Path, dead_pid: int
) -> None:
    """The hooks folder in the work tree (``core.hooksPath``): a killed install's temp
    file is gone after the install typed again, so ``git add -A`` commits no script."""
    repo = make_repo(tmp_path)
    git(repo, "config", "core.hooksPath", ".githooks")
    _install(repo)
    left = repo / ".githooks" / f"pre-commit.{dead_pid}.tmp"
    left.write_bytes(b"#!/bin/sh\n# forest-files-hook v2\n")  # cut short by the kill
    _install(repo)
    assert not left.exists()
    git(repo, "add", "-A")
    staged = git(repo, "diff", "--cached", "--name-only").splitlines()
    assert not [p for p in staged if p.endswith(".tmp")], staged


def test_hooks_install_again_live_writer_temp_file_kept_accepted(
    tmp_path: Path, live_pid: int
) -> None:
    repo = make_repo(tmp_path)
    _install(repo)
    live = repo / ".git" / "hooks" / f"post-commit.{live_pid}.tmp"
    live.write_bytes(b"being written")
    _install(repo)
    assert live.read_bytes() == b"being written"


def test_hooks_install_again_stale_leftover_of_reused_pid_recovers(
    tmp_path: Path, live_pid: int
) -> None:
    """A pid that runs again (another process now) on a file an hour old: no writer
    holds a temp file that long."""
    repo = make_repo(tmp_path)
    _install(repo)
    left = repo / ".git" / "hooks" / f"post-merge.{live_pid}.tmp"
    left.write_bytes(b"old")
    old = time.time() - STALE_SECONDS - 1
    os.utime(left, (old, old))
    _install(repo)
    assert not left.exists()


def test_hooks_install_again_other_files_kept_accepted(tmp_path: Path, dead_pid: int) -> None:
    """Only ``HOOK.<digits>.tmp`` of a hook it writes: a person's own files stay."""
    repo = make_repo(tmp_path)
    folder = repo / ".git" / "hooks"
    _install(repo)
    mine = [
        folder / f"notes.{dead_pid}.tmp",
        folder / "pre-commit.tmp",
        folder / f"pre-commit.{dead_pid}.tmp.keep",
        folder / "pre-commit.x1.tmp",
    ]
    for path in mine:
        path.write_bytes(b"mine")
    _install(repo)
    assert all(p.read_bytes() == b"mine" for p in mine)
