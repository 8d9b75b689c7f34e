"""Is git at work in this repository, and where is HEAD?

Stores: nothing.
Refuses: nothing.
Returns: ``busy`` — the name of the marker that shows git mid-operation
(``index.lock``, ``MERGE_HEAD``, ``CHERRY_PICK_HEAD``, ``REVERT_HEAD``,
``rebase-merge``, ``rebase-apply``) or None; ``head`` — HEAD's commit id
(through gitio, asked again only when HEAD, its branch's ref file or
packed-refs changed) or None on an unborn branch.
Test: tests/doors/test_watch.py
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
        common = gitio.run_git(root, ["rev-parse", "--git-common-dir"]).stdout.decode().strip()
        self.common_dir = os.path.join(str(root), common) if not os.path.isabs(common) else common
        self._head: tuple[tuple[object, ...], str | None] | None = None

    def busy(self) -> str | None:
        for name in MARKERS:
            if os.path.lexists(os.path.join(self.git_dir, name)):
                return name
        return None

    def head(self) -> str | None:
        """HEAD's commit id; git is asked again only when a file HEAD resolves through
        (HEAD itself, the branch's ref file, packed-refs) changed since last asked."""
        key = self._head_key()
        if self._head is not None and key is not None and self._head[0] == key:
            return self._head[1]
        found = gitio.head_commit(self.root)
        self._head = (key, found) if key is not None else None
        return found

    def _head_key(self) -> tuple[object, ...] | None:
        def stamp(path: str) -> tuple[int, int, int] | None:
            try:
                st = os.stat(path)
            except FileNotFoundError:
                return None
            return (st.st_mtime_ns, st.st_size, st.st_ino)

        head_file = os.path.join(self.git_dir, "HEAD")
        try:
            with open(head_file, encoding="utf-8") as fh:
                head = fh.read().strip()
        except OSError:
            return None
        ref = head[5:].strip() if head.startswith("ref: ") else ""
        ref_file = os.path.join(self.common_dir, *ref.split("/")) if ref else ""
        packed = os.path.join(self.common_dir, "packed-refs")
        tables = os.path.join(self.common_dir, "reftable", "tables.list")  # the reftable backend
        refs = (stamp(ref_file) if ref else None, stamp(packed), stamp(tables))
        return (head, stamp(head_file), *refs)  # git writes each by a lock file and a rename
