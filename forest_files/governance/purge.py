"""After a forget: the erased body's file, and every local copy of its text.

Stores: deletes ``.forest/ledger/bodies/…/<hash>.txt`` of every body the index
holds as erased (``delete_erased_bodies``; sync calls it, so a forget killed
after its commit is finished by the next command); deletes every cached view
(``.forest/cache/views``: whole stores that hold bodies; they are rebuilt on
demand), every restore capture and any other cache file holding the text,
purges matching proposals from ``.forest/local.db``, and rewrites the index
(FTS ``optimize``, ``secure_delete``, ``VACUUM``, ``wal_checkpoint(TRUNCATE)``)
so no free page or log frame keeps the old bytes.
Refuses: nothing (a file that vanished meanwhile is skipped).
Returns: ``Purged`` (counts and names; never text).
Test: tests/test_forget.py
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from forest_files.governance import tombstone
from forest_files.ledger.segments import body_path
from forest_files.paths import CACHE_DIR, LOCAL_DB, VIEWS_DIR
from forest_files.store import queries
from forest_files.store.forest import ForestStore

Holds = Callable[[str], bool]


@dataclass(frozen=True)
class Purged:
    bodies: int  # ledger body files deleted
    views: int  # cached view files deleted
    cache_files: int  # captures and other cache files that held the text
    proposals: tuple[str, ...]  # proposal ids whose text was purged


def delete_erased_bodies(store: ForestStore, ledger_dir: Path) -> int:
    """Delete the ledger body file of every erased body hash; the count deleted."""
    done = 0
    for (body_hash,) in store.conn.execute(queries.ERASED_BODY_HASHES).fetchall():
        path = body_path(ledger_dir, str(body_hash))
        try:
            path.unlink()
        except FileNotFoundError:
            continue
        done += 1
    return done


def holder(project: str, body: str, lines: tuple[str, ...]) -> Holds:
    """Whether a text holds the erased body: the whole of it, or one of its
    tombstoned lines (``lines``), raw or normalised. A line live ground still
    holds is no tombstone line, so a capture sharing only such lines is kept."""
    marks = {fp: frozenset({"-"}) for fp in lines}
    raw = [
        ln.strip()
        for ln in body.splitlines()
        if tombstone.fingerprint(project, tombstone.normalise_line(ln)) in marks
    ]

    def holds(text: str) -> bool:
        if body.strip() and body.strip() in text:
            return True
        if any(line in text for line in raw):
            return True
        return bool(tombstone.hits(marks, project, text, "-" * 64))

    return holds


def _cache_files(root: Path, holds: Holds) -> tuple[int, int]:
    """Delete every view store and every other cache file whose text ``holds``."""
    views = cache = 0
    views_dir = root / VIEWS_DIR
    for dirpath, _dirs, files in os.walk(root / CACHE_DIR):
        for name in files:
            path = Path(dirpath) / name
            if path.parent == views_dir:
                path.unlink(missing_ok=True)
                views += 1
                continue
            try:
                data = path.read_bytes()
            except OSError:
                continue
            if holds(data.decode("utf-8", "replace")):
                path.unlink(missing_ok=True)
                cache += 1
    return views, cache


def _compact_index(store: ForestStore) -> None:
    """Rewrite the index so the erased bytes survive in no page, segment or log frame."""
    conn = store.conn
    conn.execute("PRAGMA secure_delete = ON")
    conn.execute("INSERT INTO entries_fts (entries_fts) VALUES ('optimize')")
    conn.execute("VACUUM")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def purge_local(root: Path, store: ForestStore, holds: Holds, ledger_dir: Path) -> Purged:
    """Everything after the erase act's commit (see the module docstring)."""
    from forest_files.proposals.store import ProposalStore

    bodies = delete_erased_bodies(store, ledger_dir)
    views, cache = _cache_files(root, holds)
    proposals: list[str] = []
    if (root / LOCAL_DB).exists():
        with ProposalStore(root) as local:
            proposals = local.purge(holds)
    _compact_index(store)
    return Purged(bodies, views, cache, tuple(proposals))
