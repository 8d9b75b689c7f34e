"""Where this machine keeps its own state for a repository: inside the git directory.

Only the ledger is trusted from git. Everything else forest-files keeps (the
index, views, caches, captures, proposals, the audit log, the watcher's files,
the crash log, temp files) is a claim this machine made for itself, so it lives
where git never transfers anything: ``<git-dir>/forest`` for what belongs to
one worktree (the index and views follow its checked-out branch), and
``<git-common-dir>/forest`` for what every worktree of a clone may share
(content-keyed caches, the MAC key, proposals, the audit log, captures).

The git directories are found from the working tree's ``.git`` entry the way
git itself does (a directory, or a ``gitdir:`` file with a ``commondir`` beside
the target), so the hook's fast path pays no ``git rev-parse``. A git
directory git would not accept is refused rather than guessed.

Directories are created ``0700`` and checked with ``lstat``: a symlink planted
where a state directory belongs is refused, never followed.

Stores: the directories themselves.
Refuses: a state directory that is a symlink or not a directory (StateError);
a ``.git`` file that names no git directory.
Returns: absolute paths.
Test: tests/test_state.py
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from forest_files.kernel.errors import ForestError

STATE_NAME = "forest"  # <git-dir>/forest and <git-common-dir>/forest


class StateError(ForestError):
    """A local state directory that cannot be trusted (a symlink, a file)."""


def git_dirs(root: Path | str) -> tuple[Path, Path]:
    """``(git_dir, common_dir)`` of the working tree at ``root``, both absolute."""
    dotgit = Path(root, ".git")
    try:
        mode = os.lstat(dotgit).st_mode
    except FileNotFoundError:
        raise StateError(f"{root}: no .git here; run forest inside a git working tree") from None
    if stat.S_ISDIR(mode):
        git_dir = dotgit.absolute()
    elif stat.S_ISREG(mode):
        git_dir = _gitdir_file(dotgit)
    else:
        raise StateError(f"{dotgit}: neither a directory nor a gitdir file; repair the clone")
    common = git_dir
    commondir = git_dir / "commondir"
    if commondir.is_file():
        named = commondir.read_text(encoding="utf-8", errors="surrogateescape").strip()
        common = Path(os.path.normpath(git_dir / named))
    return git_dir, common


def _gitdir_file(dotgit: Path) -> Path:
    text = dotgit.read_text(encoding="utf-8", errors="surrogateescape")
    first = text.splitlines()[0] if text else ""
    if not first.startswith("gitdir: "):
        raise StateError(f"{dotgit}: not a gitdir file; repair the clone (git worktree repair)")
    target = Path(first[len("gitdir: ") :].strip())
    if not target.is_absolute():
        target = dotgit.parent / target
    return Path(os.path.normpath(target.absolute()))


def worktree_dir(root: Path | str, *, create: bool = True) -> Path:
    """``<git-dir>/forest``: state of this worktree (index, views, watcher, temp files)."""
    return _state(git_dirs(root)[0], create)


def shared_dir(root: Path | str, *, create: bool = True) -> Path:
    """``<git-common-dir>/forest``: state every worktree of this clone may share."""
    return _state(git_dirs(root)[1], create)


def _state(git_dir: Path, create: bool) -> Path:
    path = git_dir / STATE_NAME
    if create:
        ensure_dir(path)
    return path


def ensure_dir(path: Path) -> Path:
    """``path`` as a real directory of ours (created ``0700``); never through a symlink."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        ensure_dir_parent(path)
        try:  # noqa: SIM105  (contextlib stays off the hook's import list)
            os.mkdir(path, 0o700)
        except FileExistsError:
            pass  # a racing process made it; checked below
        mode = os.lstat(path).st_mode
    if stat.S_ISLNK(mode) or not stat.S_ISDIR(mode):
        import shlex

        raise StateError(
            f"{path}: expected a directory of forest-files' own, found "
            f"{'a symlink' if stat.S_ISLNK(mode) else 'another kind of file'}; "
            f"remove it (rm -- {shlex.quote(str(path))}) and run the command again"
        )
    return path


def ensure_dir_parent(path: Path) -> None:
    """Create the parents of ``path`` below the git directory (``0700``), link-free."""
    parent = path.parent
    if not os.path.lexists(parent):
        ensure_dir(parent)
