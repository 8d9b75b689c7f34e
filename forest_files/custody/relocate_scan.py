"""What an old layout's ``.forest/`` holds, seen with ``lstat`` alone, and what git holds there.

The move of an old layout (custody/relocate.py) walks only real directories: every
component of a path (``.forest``, ``.forest/cache``, …) is checked with ``lstat``, so a
symlink anywhere on the way is never walked through, and a link among the files is
listed, never descended (``os.walk``). Git is asked, through gitio, which files under
``.forest/`` outside the ledger it tracks (a claim that arrived through git, never
moved or deleted) and whether any commit of any ref ever held a database (an untracked
copy of a committed file came through git: nobody's own proposals or log).

Stores: nothing; ``prune_empty`` removes the empty folders of the old caches.
Refuses: nothing (a link or anything but a directory on the way: no real directory,
nothing listed; a repository with no commit yet committed nothing).
Returns: whether a path is a ``real_dir`` (its ``parent_real``); the files under one
(``regular_rels``); the tracked files (``tracked_local``); ``ever_committed``.
Test: tests/custody/test_relocate.py, tests/custody/test_ledger_dirs.py,
tests/kernel/test_state.py
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

from forest_files import gitio
from forest_files.kernel.paths import FOREST_DIR, LEDGER_DIR


def real_dir(root: Path, rel: str) -> bool:
    """Every component of ``rel`` under ``root`` is a real directory (``lstat``: a
    symlink anywhere on the way is never walked through)."""
    here = os.fspath(root)
    for part in rel.split("/"):
        here = os.path.join(here, part)
        try:
            if not stat.S_ISDIR(os.lstat(here).st_mode):
                return False
        except OSError:
            return False
    return True


def parent_real(root: Path, rel: str) -> bool:
    parent = rel.rpartition("/")[0]
    return not parent or real_dir(root, parent)


def tracked_local(root: Path) -> set[str]:
    """What git tracks under ``.forest/`` outside the ledger (index and HEAD alike)."""
    out = gitio.run_git(root, ["ls-files", "-z", "--cached", "--", FOREST_DIR]).stdout
    return {p for p in gitio.split_z(out) if not p.startswith(LEDGER_DIR + "/")}


def ever_committed(root: Path, rels: list[str]) -> bool:
    """Any commit of any ref ever held one of ``rels`` (asked once, in a repository
    laid out the old way: an untracked copy of a committed file came through git)."""
    args = ["log", "--all", "-1", "--format=%H", "--", *rels]
    try:
        return bool(gitio.run_git(root, args).stdout.strip())
    except gitio.GitFailed:
        return False  # no commit yet: nothing came through git


def regular_rels(root: Path, rel: str) -> list[str]:
    """The files under ``root/rel`` (repository-relative), walked only where every
    directory on the way is a real one; links inside are listed, never descended."""
    if not real_dir(root, rel):
        return []
    found: list[str] = []
    for dirpath, dirs, files in os.walk(root / rel):  # os.walk never descends into links
        del dirs
        found += [(Path(dirpath) / n).relative_to(root).as_posix() for n in sorted(files)]
    return found


def prune_empty(folder: Path) -> None:
    for dirpath, _dirs, _files in sorted(os.walk(folder), key=lambda w: -len(w[0])):
        with contextlib.suppress(OSError):  # not empty: a tracked file, one that stayed
            os.rmdir(dirpath)
