"""Where a test finds forest-files' local state: inside the git directory."""

from __future__ import annotations

from pathlib import Path

from forest_files.kernel.state import git_dirs


def local_state(root: Path | str) -> Path:
    """``<git-dir>/forest`` of the worktree at ``root`` (not created)."""
    return git_dirs(root)[0] / "forest"


def shared_state(root: Path | str) -> Path:
    """``<git-common-dir>/forest`` of the clone at ``root`` (not created)."""
    return git_dirs(root)[1] / "forest"
