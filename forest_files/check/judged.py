"""Commits this machine judged clean in full: the light ``forest check --staged``.

A commit id names its tree, its ledger and its forest.toml, so "every binding of
commit C is clean against C's own ledger" stays true for C. When HEAD is such a
commit, the staged change is judged the way the pre-commit hook judges it (only
the bindings it can have moved: staged.py), since everything else in the index
is HEAD's. The record is written by a full ``forest check --staged`` that found
every binding clean while the index differed from HEAD in no bound path and no
ledger file, forest.toml or ``.gitattributes`` (so HEAD's bound content, and the rules
git checks it out by, are the index's).

Stores: ``.git/forest/judged-<python tag>.bin`` (local; commit ids only).
Refuses: nothing; an unreadable record is an empty one.
Returns: whether a commit was judged clean; records one.
Test: tests/doors/test_doors.py
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from forest_files.kernel import cache
from forest_files.kernel.paths import CACHE_DIR
from forest_files.kernel.state import worktree_path

_NAME = f"judged-{sys.implementation.cache_tag}.bin"
_KIND = "judged"
_FORMAT = 1
_KEEP = 64  # the most recent commits remembered


def _path(root: Path) -> str:
    return os.path.join(worktree_path(root), CACHE_DIR, _NAME)


def _version() -> str:
    from forest_files import __version__

    return __version__


def _load(root: Path) -> list[str]:
    doc = cache.read(_path(root), _KIND)
    if not isinstance(doc, tuple) or len(doc) != 3 or doc[:2] != (_FORMAT, _version()):
        return []
    commits = doc[2]
    return [c for c in commits if isinstance(c, str)] if isinstance(commits, list) else []


def judged_clean(root: Path, commit: str) -> bool:
    return commit in _load(root)


def remember_clean(root: Path, commit: str) -> None:
    kept = [c for c in _load(root) if c != commit][-(_KEEP - 1) :]
    commits = [*kept, commit]
    cache.write(_path(root), _KIND, (_FORMAT, _version(), commits))
