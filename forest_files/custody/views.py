"""Listings of an index by content id: current ground and contested entries.

Stores: nothing (read-only SQL over an index; the store's scope only).
Refuses: a view name other than ``current_ground``/``contested_entries``; an
entry of the view without an adoption record (ForestError).
Returns: ``GroundEntry`` values ordered by content id (never local row ids).
Test: tests/custody/test_repository.py, tests/ledger/test_ledger_sources.py
"""

from __future__ import annotations

from dataclasses import dataclass

from forest_files.kernel.errors import ForestError
from forest_files.store import queries
from forest_files.store.forest import ForestStore

VIEWS = frozenset({"current_ground", "contested_entries"})


@dataclass(frozen=True)
class GroundEntry:
    content_id: str
    body_hash: str
    signature: str
    adopted_by: str
    words: str
    created_at: str


def latest_record(store: ForestStore, entry_id: int, kind: str) -> int:
    """The newest entry that points at ``entry_id`` with an edge of ``kind``."""
    row = store.conn.execute(
        "SELECT from_id FROM edges WHERE to_id = ? AND kind = ? ORDER BY id DESC LIMIT 1",
        (entry_id, kind),
    ).fetchone()
    if row is None:
        raise ForestError(f"entry {store.content_id(entry_id)} has no {kind} record")
    return int(row[0])


def list_view(store: ForestStore, view: str) -> list[GroundEntry]:
    """The entries of ``view`` (the anchor left out), each with its latest adoption."""
    if view not in VIEWS:
        raise ForestError(f"unknown view {view!r}; use one of {sorted(VIEWS)}")
    rows = store.conn.execute(queries.LIST_VIEW.format(view=view), (store.scope,)).fetchall()
    out: list[GroundEntry] = []
    for row in rows:
        record = store.require(latest_record(store, int(row["id"]), "adopts"), "ground")
        out.append(
            GroundEntry(
                content_id=str(row["content_id"]),
                body_hash=str(row["body_hash"]),
                signature=str(row["signature"]),
                adopted_by=str(record["signature"]),
                words=str(record["body"]),
                created_at=str(row["created_at"]),
            )
        )
    return out
