"""Whose a proposal is: the worktree that captured it, as a path a person can find.

Every worktree of a clone lists the clone's proposals, but only the one that
captured a proposal closes it (settle.py): a listing names that worktree by its
path. The store records a worktree by its key (``.`` for the main one,
``worktrees/NAME`` for a linked one: kernel/state.py ``worktree_key``). The paths
are git's own (``git worktree list``, gitio/worktrees.py, asked once per listing):
each listed work tree that is there is keyed as ``worktree_key`` keys it, and
counts only when it is a work tree of this clone.
Stores: nothing.
Refuses: nothing. A worktree no listed work tree is (removed, its directory gone
or moved without ``git worktree repair``: git lists such a one as prunable) is named
by its key, as no longer a work tree of this clone; a main work tree git keeps no
path for (one made apart from its git directory, ``--separate-git-dir``: git lists
the git directory in its place) as the main worktree, its path unknown.
Returns: ``Worktrees`` for one listing, git asked once: ``place`` (a path, or
None) and ``elsewhere`` (the label a listing prints beside another worktree's
proposal, ``label``'s, printable as ``forest check`` spells names; None for this
worktree's and for one recorded before worktrees were); ``here`` (whether a key is
this worktree's, or none was recorded).
Test: tests/proposals/test_whose.py
"""

from __future__ import annotations

import os
from pathlib import Path

from forest_files.kernel.errors import ForestError
from forest_files.kernel.state import git_dir_paths, worktree_key

MAIN = "."


class Worktrees:
    """The work trees of the clone at ``root`` by key, asked of git once, when a key
    that is not this worktree's is first placed."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._placed: dict[str, str] | None = None

    def place(self, key: str | None) -> str | None:
        """The path of the worktree ``key`` names, or None."""
        if key is None:
            return None
        if key == worktree_key(self.root):
            return os.fspath(self.root)
        if self._placed is None:
            self._placed = _placed(self.root)
        return self._placed.get(key)

    def elsewhere(self, key: str | None) -> str | None:
        """``in worktree PATH`` for a proposal another worktree captured, else None."""
        if key is None or here(self.root, key):
            return None
        return label(key, self.place(key))


def _placed(root: Path) -> dict[str, str]:
    """Each work tree git lists that is there and of this clone, by its key."""
    from forest_files.gitio.worktrees import worktree_list

    common = os.path.realpath(git_dir_paths(root)[1])
    out: dict[str, str] = {}
    for tree in worktree_list(root):
        if tree.bare or tree.prunable is not None:
            continue
        # Only a directory with its own .git is asked: the git directory git lists for
        # a main work tree kept apart from it has none (kernel/state.py would fall
        # back on GIT_DIR and key it as this clone's main work tree).
        if not os.path.lexists(os.path.join(tree.path, ".git")):
            continue
        try:
            of = os.path.realpath(git_dir_paths(tree.path)[1])
            key = worktree_key(tree.path)
        except (ForestError, OSError):
            continue  # its .git is broken: no path is guessed
        if of == common:
            out.setdefault(key, tree.path)
    return out


def label(key: str, path: str | None) -> str:
    """``in worktree PATH``, printable; without a path, the main worktree's path
    unknown, or a linked one by its key, no longer a work tree of the clone."""
    from forest_files.kernel.shellword import printable

    if path is not None:
        return f"in worktree {printable(path)}"
    if key == MAIN:
        return "in the main worktree (its path unknown)"
    return f"in worktree {printable(key)} (no longer a work tree of this clone)"


def here(root: Path, key: str | None) -> bool:
    """Whether ``key`` is this worktree's (or None: recorded before worktrees were)."""
    return key is None or key == worktree_key(root)
