"""Local state lives in the git directory: nothing under ``.forest/`` but the ledger is
ever read, so a forged index, view, cache or symlink that arrives through git
changes no verdict and redirects no write (kernel/state.py, custody/relocate.py)."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from forest_files.doors import hooks as githooks
from forest_files.kernel.access import beyond_modes
from forest_files.kernel.errors import StateError
from forest_files.kernel.state import ensure_dir, git_dirs, shared_dir, worktree_dir
from tests.helpers.custody import DOC, two_bound_files
from tests.helpers.git import commit_all, git, write
from tests.helpers.immutable import immutable
from tests.helpers.state import local_state

DRIFTED = DOC.replace("kept words", "kept words, quietly changed")


def forest(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The installed ``forest`` console script, as a user runs it."""
    return subprocess.run(
        [sys.executable, "-m", "forest_files.doors.entry", *args],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=120,
    )


# -- where the state directories are --------------------------------------------------


def test_state_dirs_of_a_repository_are_in_its_git_dir_accepted(tmp_path: Path) -> None:
    root = two_bound_files(tmp_path)
    assert git_dirs(root) == (root / ".git", root / ".git")
    assert worktree_dir(root) == shared_dir(root) == root / ".git" / "forest"
    assert (root / ".git" / "forest" / "woods.db").is_file()
    assert not list((root / ".forest").glob("woods.db*"))
    assert not (root / ".forest" / "cache").exists()


def test_state_dirs_of_a_linked_worktree_split_accepted(tmp_path: Path) -> None:
    """Two worktrees on different branches never share an index; what is shared
    (proposals, the audit log, captures) lives in the common directory."""
    root = two_bound_files(tmp_path)
    other = tmp_path / "other"
    git(root, "worktree", "add", "-q", "-b", "side", str(other))
    git_dir, common = git_dirs(other)
    assert common == root / ".git" and git_dir == root / ".git" / "worktrees" / "other"
    assert worktree_dir(other) == git_dir / "forest" != worktree_dir(root)
    assert shared_dir(other) == shared_dir(root)
    done = forest(other, "check")
    assert done.returncode == 0, done.stderr
    assert (git_dir / "forest" / "woods.db").is_file()


def test_state_dir_planted_symlink_refused(tmp_path: Path) -> None:
    """A symlink where the state directory belongs (planted by another program) is
    refused with the fix; nothing is written through it."""
    root = two_bound_files(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    shutil.rmtree(root / ".git" / "forest")
    (root / ".git" / "forest").symlink_to(outside)
    with pytest.raises(StateError, match="symlink"):
        worktree_dir(root)
    done = forest(root, "check")
    assert done.returncode != 0 and "symlink" in done.stderr and "rm -- " in done.stderr
    assert list(outside.iterdir()) == []


def test_state_subdir_planted_symlink_refused(tmp_path: Path) -> None:
    root = two_bound_files(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    target = worktree_dir(root) / "captures-elsewhere"
    target.symlink_to(outside)
    with pytest.raises(StateError, match="symlink"):
        ensure_dir(target / "inner")
    with pytest.raises(StateError, match="symlink"):
        ensure_dir(target)
    assert list(outside.iterdir()) == []


@pytest.mark.slow
def test_state_dir_read_only_staged_check_refused(tmp_path: Path) -> None:
    """A git directory whose ``forest/`` may not be written (``chattr +i``): the
    hook's check refuses in one line naming the directory to make writable, exit 1
    (before: an internal error creating ``views/``, exit 3, "please report it"), and
    ``forest check`` says to make the index's directory writable (before: SQLite's
    "unable to open database file" alone)."""
    root = two_bound_files(tmp_path)
    state = worktree_dir(root)
    shutil.rmtree(state / "views", ignore_errors=True)
    (state / "cache").mkdir(exist_ok=True)  # for `forest check`: the index's turn
    write(root, "a.md", DRIFTED)
    git(root, "add", "a.md")
    with immutable(state):
        with pytest.raises(StateError, match=r"make .* writable"):
            ensure_dir(state / "views")
        done = forest(root, "check", "--staged")
        index = forest(root, "check")
    assert index.returncode == 1, index.stderr
    assert index.stderr.startswith(f"forest: cannot open {state / 'woods.db'}: "), index.stderr
    assert beyond_modes(str(state / "woods.db")) in index.stderr.splitlines()[0]
    assert done.returncode == 1, done.stderr
    first = done.stderr.splitlines()[0]
    assert first == (
        f"forest: cannot create {state / 'views'} (Operation not permitted): "
        f"{beyond_modes(str(state / 'views'))}, then run the command again"
    ), done.stderr
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr


# -- state that arrives through git is never read -------------------------------------


def _tamper(db: Path, old: str, new: str) -> int:
    """Rewrite every occurrence of ``old`` in every text column of an SQLite file
    (triggers dropped first, as a forger would): how many cells changed."""
    changed = 0
    with closing(sqlite3.connect(db)) as conn:
        for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type='trigger'"):
            conn.execute(f'DROP TRIGGER "{name}"')
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        for table in tables:
            if table.startswith(("sqlite_", "entries_fts")):
                continue
            for col in [r[1] for r in conn.execute(f'PRAGMA table_info("{table}")')]:
                cur = conn.execute(
                    f'UPDATE "{table}" SET "{col}" = replace("{col}", ?, ?) '
                    f'WHERE typeof("{col}") = \'text\' AND instr("{col}", ?) > 0',
                    (old, new, old),
                )
                changed += cur.rowcount
        conn.commit()
    return changed


def _section_hash(text: str) -> str:
    from forest_files.kernel.hashing import hash_body

    start = text.index("## Keep")
    return hash_body(text[start : text.index("## Other")])


def _forged_commit(origin: Path, tmp_path: Path) -> str:
    """The adversary's commit: ``a.md#Keep`` edited with no custody act, and beside it
    (``git add -f``) an index and views taken from a real clone and rewritten so the
    edited text is their ground, the verdict and binding caches, and a symlink where
    captures used to go. Returns the commit before it (the base a CI run uses)."""
    base = git(origin, "rev-parse", "HEAD")
    scratch = tmp_path / "forger"
    git(tmp_path, "clone", "-q", str(origin), str(scratch))
    write(scratch, "a.md", DRIFTED)
    commit_all(scratch, "drift")
    assert forest(scratch, "ci", "--base", base).returncode == 1  # builds views
    assert forest(scratch, "check").returncode == 1
    old, new = _section_hash(DOC), _section_hash(DRIFTED)
    state = local_state(scratch)
    planted = origin / ".forest"
    (planted / "cache" / "views").mkdir(parents=True)
    shutil.copy(state / "woods.db", planted / "woods.db")
    assert _tamper(planted / "woods.db", old, new) > 0
    for view in (state / "views").iterdir():
        copy = planted / "cache" / "views" / view.name
        shutil.copy(view, copy)
        if view.suffix == ".db":
            _tamper(copy, old, new)
    for cached in (state / "cache").iterdir():
        shutil.copy(cached, planted / "cache" / cached.name)
    os.symlink(tmp_path / "outside", planted / "cache" / "captures")
    write(origin, "a.md", DRIFTED)
    git(origin, "add", "-f", "a.md", ".forest")
    git(origin, "commit", "-q", "--no-verify", "-m", "quiet edit")
    return base


def test_committed_index_views_and_caches_fresh_clone_drift_detected(tmp_path: Path) -> None:
    """The headline attack of a forged local state committed with ``git add -f``: every
    door of a fresh clone still judges the edit from the ledger and the bytes."""
    origin = two_bound_files(tmp_path)
    (tmp_path / "outside").mkdir()
    base = _forged_commit(origin, tmp_path)
    clone = tmp_path / "fresh"
    git(tmp_path, "clone", "-q", str(origin), str(clone))
    planted = {p: p.read_bytes() for p in (clone / ".forest").rglob("*") if p.is_file()}

    check = forest(clone, "check")
    assert check.returncode == 1 and "drifted a.md#" in check.stdout, check.stdout
    staged = forest(clone, "check", "--staged")
    assert staged.returncode == 1 and "drifted a.md#" in staged.stdout, staged.stdout
    gate = forest(clone, "ci", "--base", base)
    assert gate.returncode == 1 and "a.md" in gate.stdout, gate.stdout
    githooks.install(clone)
    write(clone, "a.md", DRIFTED.replace("quietly", "quietly and again"))
    git(clone, "add", "a.md")
    hook = subprocess.run(
        ["git", "commit", "-q", "-m", "more"], cwd=clone, capture_output=True, text=True
    )
    assert hook.returncode != 0 and "a.md" in hook.stderr + hook.stdout
    restored = forest(clone, "restore", "a.md#Keep")
    assert restored.returncode == 0, restored.stderr
    assert (clone / "a.md").read_text() == DOC
    assert list((tmp_path / "outside").iterdir()) == []  # no capture went through the link
    assert list((shared_dir(clone) / "captures").iterdir())
    after = {p: p.read_bytes() for p in (clone / ".forest").rglob("*") if p.is_file()}
    assert after == planted  # never written, never moved


def test_committed_state_in_an_old_layout_never_relocated(tmp_path: Path) -> None:
    """Tracked files in the old places are claims from git: the one-time move of an
    old layout leaves them where they are and never carries them into the git dir."""
    origin = two_bound_files(tmp_path)
    write(origin, ".forest/local.db", "not a database\n")
    git(origin, "add", "-f", ".forest/local.db")
    git(origin, "commit", "-q", "--no-verify", "-m", "plant")
    clone = tmp_path / "fresh"
    git(tmp_path, "clone", "-q", str(origin), str(clone))
    listed = forest(clone, "proposals")
    assert listed.returncode == 0, listed.stderr
    assert (clone / ".forest" / "local.db").read_text() == "not a database\n"
    assert not (shared_dir(clone) / "local.db").exists() or (
        (shared_dir(clone) / "local.db").read_bytes() != b"not a database\n"
    )


def test_state_dirs_of_a_work_tree_apart_from_its_repository_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A work tree with no ``.git`` entry, its repository named by GIT_DIR (how dotfile
    setups work): the state goes to that repository's directory, never the work tree."""
    root = two_bound_files(tmp_path)
    apart = tmp_path / "repo.git"
    (root / ".git").rename(apart)
    monkeypatch.setenv("GIT_DIR", str(apart))
    assert git_dirs(root) == (apart, apart)
    assert worktree_dir(root) == apart / "forest"
    monkeypatch.delenv("GIT_DIR")
    with pytest.raises(StateError, match="GIT_DIR"):
        git_dirs(root)
