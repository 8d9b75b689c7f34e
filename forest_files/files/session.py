"""The custody a check judges against: the ledger of the same content source.

Stores: nothing in the working tree's index for ``index``/commit sources: their
ledger is replayed into a throwaway store in a temporary directory.
Refuses: whatever replay refuses (a forged or damaged ledger at that source).
Returns: a context manager yielding (store, live bindings, content source).
Test: tests/test_check.py
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from forest_files.files.content import ContentSource, GitTreeSource, WorktreeSource
from forest_files.ledger.bindings import Binding, all_bindings
from forest_files.ledger.replay import replay
from forest_files.ledger.sources import config_from, read_ledger_from
from forest_files.store.forest import ForestStore


@contextmanager
def custody_at(
    root: Path, source: str, *, keep_index_file: bool = False
) -> Iterator[tuple[ForestStore, list[Binding], ContentSource]]:
    """``source``: "worktree", "index" (the staged ledger and staged files) or a commit."""
    if source == "worktree":
        from forest_files.repository import Repository

        with Repository(root) as repo:
            store = repo._synced()
            yield store, all_bindings(store), WorktreeSource(repo.root)
        return
    cfg = config_from(root, source, keep_index_file=keep_index_file)
    snapshot, reader = read_ledger_from(root, source, keep_index_file=keep_index_file)
    content: ContentSource = GitTreeSource(
        root, rev=None if source == "index" else source, keep_index_file=keep_index_file
    )
    with tempfile.TemporaryDirectory(prefix="forest-check-") as tmp:
        store = ForestStore(Path(tmp) / "check.db")
        try:
            store.init_schema()
            store.ensure_anchor(cfg.project_id)
            replay(store, snapshot.ordered(), reader, known=snapshot.acts)
            yield store, all_bindings(store), content
        finally:
            store.close()
