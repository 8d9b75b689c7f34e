"""Listings of an index by content id: current ground and contested entries.

Stores: nothing (read-only SQL over an index; the store's scope only).
Refuses: a view name other than ``current_ground``/``contested_entries``; an
entry of the view without an adoption record (ForestError).
Returns: ``GroundEntry`` values ordered by content id (never local row ids).
Test: tests/custody/test_repository.py, tests/ledger/test_ledger_sources.py
"""

from __future__ import annotations

from dataclasses import dataclass

from forest_files.custody import adoptions
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
    """The entries of ``view`` (the anchor left out), each with its latest adoption:
    who adopted it and their words as the ledger declares them where ``store`` is a
    working tree's index (custody/adoptions.py: a row the ledger did not make is not
    believed, one line on stderr says so), as read for a view or a throwaway replay."""
    if view not in VIEWS:
        raise ForestError(f"unknown view {view!r}; use one of {sorted(VIEWS)}")
    rows = store.conn.execute(queries.LIST_VIEW.format(view=view), (store.scope,)).fetchall()
    cids = [str(row["content_id"]) for row in rows]
    records = adoptions.index_records(store.conn, cids)
    said = {cid: (rec.signature, rec.body) for cid, rec in records.items()}
    ledger = adoptions.ledger_of(store.conn) if cids else None
    if ledger is not None:
        said.update(adoptions.proven_adoptions(ledger, records, cids))
    out: list[GroundEntry] = []
    for row, cid in zip(rows, cids, strict=True):
        if cid not in said:
            raise ForestError(f"entry {cid} has no adopts record")
        by, words = said[cid]
        out.append(
            GroundEntry(
                content_id=cid,
                body_hash=str(row["body_hash"]),
                signature=str(row["signature"]),
                adopted_by=by,
                words=words,
                created_at=str(row["created_at"]),
            )
        )
    return out
