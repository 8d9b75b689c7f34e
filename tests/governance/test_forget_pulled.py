"""Every copy lets go: a clone that pulls a forget purges its own copies, and says so.

A second clone holding the secret in its index, cached views of older commits,
a restore capture and proposals pulls the forget; after ``forest sync`` no file
of its work tree or its ``.git`` directory (git's own objects aside) holds the
sentinel, and the sync said what it purged in one stderr line.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from forest_files.check.opening import open_custody
from forest_files.custody.proposals import ProposalStore
from forest_files.custody.repository import Repository
from forest_files.custody.restore import capture
from forest_files.governance.forget import forget
from tests.helpers.cli import FOREST
from tests.helpers.custody import BY
from tests.helpers.forgetting import (
    SECRET,
    SENTINEL,
    WORDS,
    adopted_then_cleaned,
    forgotten_with_hooks,
)
from tests.helpers.git import commit_all, git


def grep_tree(root: Path, needle: str) -> list[str]:
    """Every file under ``root`` (``.git/objects`` aside: git's own, rewritten only by
    filter-repo) whose bytes hold ``needle``, in any case."""
    want = needle.lower().encode()
    found = []
    for dirpath, dirs, files in os.walk(root):
        if Path(dirpath) == root / ".git":
            dirs[:] = [d for d in dirs if d != "objects"]
        for name in files:
            path = Path(dirpath) / name
            if not path.is_symlink() and want in path.read_bytes().lower():
                found.append(path.relative_to(root).as_posix())
    return sorted(found)


def _plant(clone: Path) -> None:
    """The clone's own copies: its index, views of the commits holding the secret,
    a capture and a proposal."""
    with Repository(clone) as repo:
        repo.sync()
        binding = repo.log()[-1].act_id
    for rev in ("HEAD", "HEAD~1"):
        with open_custody(clone, rev) as custody:
            custody.store()
    capture(clone, "doc.md#Keys", f"The keys live in the vault.\n{SECRET}\n")
    with ProposalStore(clone) as local:
        local.propose(
            binding=binding,
            path="doc.md",
            selector="doc.md#Keys",
            derived_from="0" * 64,
            ground_hash="0" * 64,
            text=f"a draft\n{SECRET}\n",
        )


def test_clone_pulling_a_forget_purges_every_copy_accepted(tmp_path: Path) -> None:
    root, old = adopted_then_cleaned(tmp_path)
    commit_all(root, "clean")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(root), str(clone))
    _plant(clone)
    assert grep_tree(clone, SENTINEL)  # the test sees the copies it planted
    with Repository(root) as repo:
        forget(repo, old, words=WORDS, by=BY)
    commit_all(root, "forget")
    git(clone, "pull", "-q", "--no-rebase", "--no-edit")
    proc = subprocess.run(
        [FOREST, "sync"], cwd=clone, env=dict(os.environ), capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    said = [line for line in proc.stderr.splitlines() if "purged" in line]
    assert len(said) == 1 and said[0].startswith("forest: "), proc.stderr
    assert grep_tree(clone, SENTINEL) == []
    again = subprocess.run(
        [FOREST, "sync"], cwd=clone, env=dict(os.environ), capture_output=True, text=True
    )
    assert again.returncode == 0 and "purged" not in again.stderr  # said once


def _commit(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "commit", "-q", "-m", "again"],
        cwd=root,
        env=dict(os.environ),
        capture_output=True,
        text=True,
    )


def test_hook_revert_of_a_forget_refused(tmp_path: Path) -> None:
    root, _segment, _body = forgotten_with_hooks(tmp_path)
    head = git(root, "rev-parse", "HEAD")
    git(root, "revert", "--no-commit", "HEAD")
    proc = _commit(root)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0, out
    assert "ledger-deleted" in out and "erase act" in out and "forest sync" in out
    assert SENTINEL not in out
    assert git(root, "rev-parse", "HEAD") == head
    verify = subprocess.run(
        [FOREST, "verify", "--base", "HEAD"], cwd=root, capture_output=True, text=True
    )
    assert SENTINEL not in verify.stdout + verify.stderr


def test_hook_erased_body_brought_back_refused(tmp_path: Path) -> None:
    root, _segment, body = forgotten_with_hooks(tmp_path)
    shown = subprocess.run(["git", "show", f"HEAD~1:{body}"], cwd=root, capture_output=True)
    (root / body).parent.mkdir(parents=True, exist_ok=True)
    (root / body).write_bytes(shown.stdout)
    git(root, "add", "-f", body)
    proc = _commit(root)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0, out
    assert "erased-content" in out and SENTINEL not in out


def test_fresh_clone_of_a_forgotten_history_says_no_purge_accepted(tmp_path: Path) -> None:
    """A fresh clone never held the erased text: its first command (a check, a sync)
    builds the index from a ledger without it, finds no local copy, and says nothing.
    It said "purged every local copy … 0 … 0 … 0" on every clone's first command."""
    root, old = adopted_then_cleaned(tmp_path)
    commit_all(root, "clean")
    with Repository(root) as repo:
        forget(repo, old, words=WORDS, by=BY)
    commit_all(root, "forget")
    for command in ("check", "sync"):
        clone = tmp_path / f"clone-{command}"
        git(tmp_path, "clone", "-q", str(root), str(clone))
        done = subprocess.run(
            [FOREST, command], cwd=clone, env=dict(os.environ), capture_output=True, text=True
        )
        assert done.returncode == 0, (command, done.stdout, done.stderr)
        assert "purged" not in done.stderr, (command, done.stderr)
        assert grep_tree(clone, SENTINEL) == []
