"""``gitio.staged_changes`` without HEAD's id: git resolves HEAD in the one
``diff-index`` (gitio/content.py). Counted around the real ``run_git`` (a wrapper that
calls through): a repository with commits asks git once, where it asked HEAD's id first
(``rev-parse``, a process of its own: a plain ``forest check`` with a section gone paid
it in the move search's change listing); an unborn branch still lists its staged files
against the empty tree; a failure that is not an unborn HEAD is still raised.
"""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from forest_files.gitio import GitFailed, staged_changes
from tests.helpers.git import commit_all, git, make_repo, write


def _counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The git command of every process started (each ``git`` child process)."""
    asked: list[str] = []
    real = subprocess.run

    def run(cmd: Sequence[str], *args: Any, **kw: Any) -> Any:
        if cmd and cmd[0] == "git":
            asked.append(next(a for a in cmd[1:] if not a.startswith("-") and "=" not in a))
        return real(cmd, *args, **kw)

    monkeypatch.setattr(subprocess, "run", run)
    return asked


def test_staged_changes_head_unknown_one_git_call_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_repo(tmp_path)
    write(root, "a.md", "a\n")
    commit_all(root, "a")
    write(root, "a.md", "a, edited\n")
    write(root, "b.md", "b\n")
    git(root, "add", "a.md", "b.md")
    asked = _counted(monkeypatch)
    got = sorted((c.status, c.path) for c in staged_changes(root))
    assert got == [("A", "b.md"), ("M", "a.md")]
    assert asked == ["diff-index"], asked


def test_staged_changes_unborn_branch_against_empty_tree_accepted(tmp_path: Path) -> None:
    root = make_repo(tmp_path)
    write(root, "a.md", "a\n")
    git(root, "add", "a.md")
    assert [(c.status, c.path) for c in staged_changes(root)] == [("A", "a.md")]
    assert [(c.status, c.path) for c in staged_changes(root, head="")] == [("A", "a.md")]


def test_staged_changes_broken_index_still_refused(tmp_path: Path) -> None:
    root = make_repo(tmp_path)
    write(root, "a.md", "a\n")
    commit_all(root, "a")
    (root / ".git" / "index").write_bytes(b"not an index")
    with pytest.raises(GitFailed, match="git diff-index failed"):
        staged_changes(root)
