"""Which index file a hook git runs judges, and whether another git holds its lock.

Stores: nothing.
Refuses: nothing (what git refuses, GitFailed).
Returns: ``commit_names_its_files`` (``git commit FILE…``: a temporary index),
``commit_stages_into_lock`` (``git commit`` staging into the index lock),
``is_index_locked``.
Test: tests/gitio/test_gitio.py, tests/doors/test_hooks.py
"""

from __future__ import annotations

import os
from pathlib import Path

from forest_files.gitio._run import git_out


def commit_names_its_files(repo: Path | str) -> bool:
    """True in a hook git runs for ``git commit FILE…`` (``--only``): what it judges is
    a temporary index of HEAD and the named files alone, which ``GIT_INDEX_FILE``
    names; it is then neither the repository's index nor that index's lock (``git
    commit -a`` and ``-i`` stage into the lock). What the hook's routes ``git add``
    reaches the repository's index, not that commit."""
    named = os.environ.get("GIT_INDEX_FILE")
    if not named:
        return False
    index = Path(git_out(repo, ["rev-parse", "--path-format=absolute", "--git-path", "index"]))
    mine = Path(os.path.abspath(named)).resolve()
    return mine not in (index.resolve(), index.with_name(index.name + ".lock").resolve())


def commit_stages_into_lock(repo: Path | str) -> bool:
    """True in a hook git runs for ``git commit`` with or without ``-a``, ``-i`` or
    ``-p``: ``GIT_INDEX_FILE`` names the repository's index lock, which git renames
    over the index only when the commit lands. What ``-a``/``-p`` staged into it is
    gone once the hook refuses, so a route that reads the index must stage it again."""
    named = os.environ.get("GIT_INDEX_FILE")
    if not named:
        return False
    index = Path(git_out(repo, ["rev-parse", "--path-format=absolute", "--git-path", "index"]))
    lock = index.with_name(index.name + ".lock")
    return Path(os.path.abspath(named)).resolve() == lock.resolve()


def is_index_locked(repo: Path | str, *, keep_index_file: bool = False) -> bool:
    """True while another git process holds the (possibly temporary) index lock."""
    index = git_out(
        repo,
        ["rev-parse", "--path-format=absolute", "--git-path", "index"],
        keep_index_file=keep_index_file,
    )
    return Path(index + ".lock").exists()


__all__ = ["commit_names_its_files", "commit_stages_into_lock", "is_index_locked"]
