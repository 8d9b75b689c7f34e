"""Entries as act fields: how the ledger describes a stored entry.

Stores: nothing.
Refuses: (``LedgerError``) an entry that cannot be described exactly.
Returns: ``EntryRecord`` values (the type lives in ``kinds``); the content id a
record's own fields hash to.
Test: tests/custody/test_repository.py, tests/custody/test_bulk_adopt.py

An entry is referred to by content id only; its body travels beside the
segments, addressed by ``body_hash``.
"""

from __future__ import annotations

import json
import sqlite3

from forest_files.kernel.hashing import entry_content_id
from forest_files.ledger.acts import LedgerError
from forest_files.ledger.kinds import EntryRecord
from forest_files.store.base import StoreBase

__all__ = ["EntryRecord", "describe", "recompute_id", "record_of_row"]


def record_of_row(row: sqlite3.Row, origins: tuple[tuple[str, str], ...]) -> EntryRecord:
    """The record an act carries of an ``entries`` row (addressable by column name),
    given its ``origins`` (content id, edge kind): the row holds none itself."""
    return EntryRecord(
        content_id=str(row["content_id"]),
        scope=str(row["scope"]),
        created_at=str(row["created_at"]),
        jurisdiction=str(row["jurisdiction"]),
        bucket=str(row["bucket"]),
        source=row["source"],
        signature=str(row["signature"]),
        body_hash=str(row["body_hash"]),
        meta=json.loads(row["meta_json"] or "{}"),
        nonce=str(row["nonce"]),
        origins=origins,
    )


def describe(store: StoreBase, entry_id: int) -> EntryRecord:
    """The record of a stored entry; origins are its creation edges, by content id."""
    row = store.get(entry_id)
    if row is None:
        raise LedgerError(f"cannot describe unknown entry {entry_id}")
    edges = store.conn.execute(
        "SELECT t.content_id, g.kind FROM edges g JOIN entries t ON t.id = g.to_id "
        "WHERE g.from_id = ? AND g.created_at = ? ORDER BY g.id",
        (entry_id, row["created_at"]),
    ).fetchall()
    record = record_of_row(row, tuple(sorted((str(c), str(k)) for c, k in edges)))
    if recompute_id(record) != record.content_id:
        # Edges added later (add_edge) in the same millisecond would show up here.
        raise LedgerError(f"entry {record.content_id} cannot be described exactly; retry")
    return record


def recompute_id(record: EntryRecord) -> str:
    """The content id the record's own fields hash to."""
    return entry_content_id(
        scope=record.scope,
        created_at=record.created_at,
        jurisdiction=record.jurisdiction,
        bucket=record.bucket,
        source=record.source,
        signature=record.signature,
        body_hash=record.body_hash,
        meta=record.meta,
        nonce=record.nonce,
        origins=record.origins,
    )
