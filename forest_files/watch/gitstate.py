"""Is git at work in this repository, and where is HEAD?

Stores: nothing.
Refuses: nothing.
Returns: ``busy`` — the name of the marker that shows git mid-operation
(``index.lock``, ``MERGE_HEAD``, ``CHERRY_PICK_HEAD``, ``REVERT_HEAD``,
``rebase-merge``, ``rebase-apply``) or None; ``head`` — HEAD's commit id
(through gitio) or None on an unborn branch.
Test: tests/test_watch.py
"""

from __future__ import annotations

import os
from pathlib import Path

from forest_files import gitio

MARKERS = (
    "index.lock",
    "MERGE_HEAD",
    "CHERRY_PICK_HEAD",
    "REVERT_HEAD",
    "rebase-merge",
    "rebase-apply",
)


class GitState:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.git_dir = str(gitio.git_dir(root))  # a linked worktree's own: its markers

    def busy(self) -> str | None:
        for name in MARKERS:
            if os.path.lexists(os.path.join(self.git_dir, name)):
                return name
        return None

    def head(self) -> str | None:
        return gitio.head_commit(self.root)
