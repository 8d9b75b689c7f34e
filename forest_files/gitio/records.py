"""The records gitio returns: a path of a tree or of the git index, a path of a diff.

Stores: nothing (pure types).
Refuses: nothing.
Returns: ``TreeEntry``, ``Change``.
Test: tests/gitio/test_gitio.py
"""

from __future__ import annotations

from typing import NamedTuple


class TreeEntry(NamedTuple):
    """One path of a tree or of the git index. ``stage`` is 0 unless conflicted.
    (A NamedTuple, not a dataclass: the hook's start-up skips ``dataclasses``.)"""

    mode: str
    type: str
    blob: str
    path: str
    stage: int = 0


class Change(NamedTuple):
    """One path of a diff: status letter (A, M, D, T, R, C, …), path, and the
    source path for renames and copies."""

    status: str
    path: str
    old_path: str | None = None
