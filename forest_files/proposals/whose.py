"""Whose a proposal is: the worktree that captured it, as a path a person can find.

Every worktree of a clone lists the clone's proposals, but only the one that
captured a proposal closes it (settle.py): a listing names that worktree by its
path. The store records a worktree by its key (``.`` for the main one,
``worktrees/NAME`` for a linked one: kernel/state.py ``worktree_key``); a linked
one's path is what git itself keeps for it (``<common-dir>/worktrees/NAME/gitdir``,
the path of its ``.git`` file), the main one's the directory holding the common
git directory.
Stores: nothing.
Refuses: nothing; a worktree git keeps no path for (removed, pruned) is named
by its key, its path said to be unknown.
Returns: ``place`` (a path, or None); ``elsewhere`` (the label a listing prints
beside another worktree's proposal, ``label``'s, printable as ``forest check``
spells names; None for this worktree's and for one recorded before worktrees
were); ``here`` (whether a key is this worktree's, or none was recorded).
Test: tests/proposals/test_whose.py
"""

from __future__ import annotations

import os
from pathlib import Path

from forest_files.kernel.state import git_dir_paths, key_text, worktree_key

_LINKED = "worktrees/"


def place(root: Path, key: str | None) -> str | None:
    """The path of the worktree ``key`` names in the clone at ``root``, or None."""
    if key is None:
        return None
    if key == worktree_key(root):
        return os.fspath(root)
    common = git_dir_paths(root)[1]
    if key == ".":
        return os.path.dirname(common) if os.path.basename(common) == ".git" else None
    linked = os.path.join(common, "worktrees")
    try:  # the key's name is the directory's own, its bytes that are not UTF-8 as \xNN
        (name,) = [n for n in os.listdir(linked) if key == _LINKED + key_text(n)]
    except (OSError, ValueError):
        return None  # gone, or not a key this code records: no path is guessed
    held = os.path.join(linked, name)
    try:
        with open(os.path.join(held, "gitdir"), "rb") as fh:
            dotgit = os.fsdecode(fh.readline().rstrip(b"\r\n"))
    except OSError:
        return None
    # Relative to the file's own directory when git wrote it so (worktree.useRelativePaths).
    dotgit = os.path.normpath(os.path.join(held, dotgit))
    return os.path.dirname(dotgit) if os.path.basename(dotgit) == ".git" else None


def elsewhere(root: Path, key: str | None) -> str | None:
    """``in worktree PATH`` for a proposal another worktree captured, else None."""
    if key is None or here(root, key):
        return None
    return label(key, place(root, key))


def label(key: str, path: str | None) -> str:
    """``in worktree PATH`` (its key when git keeps no path for it), printable."""
    from forest_files.kernel.shellword import printable

    if path is None:
        return f"in worktree {printable(key)} (its path unknown)"
    return f"in worktree {printable(path)}"


def here(root: Path, key: str | None) -> bool:
    """Whether ``key`` is this worktree's (or None: recorded before worktrees were)."""
    return key is None or key == worktree_key(root)
