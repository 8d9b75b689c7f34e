"""What this process has read from git by object id, kept: ids never change.

A tree listed at a full commit id and blob bytes, per repository, within a byte
budget (content.py reads through it), and the full commit ids git confirmed as
commits (repo.py ``resolve_commit``). The CI gate reads HEAD's ledger for verify,
the range and the view once from git, not three times, and asks once whether a
commit id names a commit, not nine times. Nothing here outlives the process.

Stores: nothing on disk; in memory, per process, bounded (oldest first).
Refuses: nothing.
Returns: ``seen()`` (the ``Seen`` of this process), ``forget()`` (a new one).
Test: tests/gitio/test_gitio.py
"""

from __future__ import annotations

from forest_files.gitio.records import TreeEntry


class Seen:
    """Objects read by id in this process, per repository (ids are immutable)."""

    BLOB_BUDGET = 128 << 20  # bytes of blob content kept; the oldest go first
    TREES = 32  # tree listings kept
    COMMITS = 4096  # full commit ids git confirmed; all dropped when full

    def __init__(self) -> None:
        self.blobs: dict[tuple[str, str], bytes] = {}
        self.blob_bytes = 0
        self.trees: dict[tuple[str, str, str], tuple[TreeEntry, ...]] = {}
        self.commits: set[tuple[str, str]] = set()

    def keep_blob(self, key: tuple[str, str], data: bytes) -> None:
        if key in self.blobs or len(data) > self.BLOB_BUDGET // 4:
            return
        self.blobs[key] = data
        self.blob_bytes += len(data)
        while self.blob_bytes > self.BLOB_BUDGET:
            self.blob_bytes -= len(self.blobs.pop(next(iter(self.blobs))))

    def keep_tree(self, key: tuple[str, str, str], entries: tuple[TreeEntry, ...]) -> None:
        if len(self.trees) >= self.TREES:
            self.trees.pop(next(iter(self.trees)))
        self.trees[key] = entries

    def keep_commit(self, key: tuple[str, str]) -> None:
        if len(self.commits) >= self.COMMITS:
            self.commits.clear()
        self.commits.add(key)


_NOW = [Seen()]


def seen() -> Seen:
    """What this process has kept."""
    return _NOW[0]


def forget() -> None:
    """Drop every object kept (what a new process starts from)."""
    _NOW[0] = Seen()


__all__ = ["Seen", "forget", "seen"]
