"""Entries as act fields and back: how the ledger describes a store entry.

Stores: nothing.
Refuses: (``LedgerError`` naming the act) entry fields of the wrong shape or
type, origins that are not ``[content_id, kind]`` pairs, origins naming an
entry the index does not hold.
Returns: ``EntryRecord`` values; their act fields; local origin pairs; the
``write`` and ``root`` acts of entries a store batch imported and rooted.
Test: tests/test_repository.py, tests/test_bulk_adopt.py

An entry is referred to by content id only; its body travels beside the
segments, addressed by ``body_hash``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from forest_files.hashing import entry_content_id
from forest_files.ledger.acts import Act, LedgerError, is_hex64, make_act
from forest_files.store.base import EntryRow, StoreBase

if TYPE_CHECKING:
    from forest_files.store.bulk import Adopted

_TEXT_FIELDS = ("content_id", "scope", "created_at", "jurisdiction", "bucket", "signature")


@dataclass(frozen=True)
class EntryRecord:
    """The immutable fields of one entry, as an act declares them."""

    content_id: str
    scope: str
    created_at: str
    jurisdiction: str
    bucket: str
    source: str | None
    signature: str
    body_hash: str
    meta: Mapping[str, Any]
    nonce: str
    origins: tuple[tuple[str, str], ...]

    @classmethod
    def from_row(cls, row: EntryRow) -> EntryRecord:
        """The record of an entry from the row the store computed for it (no read-back)."""
        return cls(
            content_id=row.content_id,
            scope=row.scope,
            created_at=row.created_at,
            jurisdiction=row.jurisdiction,
            bucket=row.bucket,
            source=row.source,
            signature=row.signature,
            body_hash=row.body_hash,
            meta=row.meta,
            nonce=row.nonce,
            origins=row.origins,
        )

    @property
    def stamp(self) -> tuple[str, str]:
        return (self.created_at, self.nonce)

    def to_fields(self) -> dict[str, Any]:
        return {
            "content_id": self.content_id,
            "scope": self.scope,
            "created_at": self.created_at,
            "jurisdiction": self.jurisdiction,
            "bucket": self.bucket,
            "source": self.source,
            "signature": self.signature,
            "body_hash": self.body_hash,
            "meta": dict(self.meta),
            "nonce": self.nonce,
            "origins": [list(o) for o in self.origins],
        }


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
    record = EntryRecord(
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
        origins=tuple(sorted((str(c), str(k)) for c, k in edges)),
    )
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


def parse_record(value: object, *, act_id: str, key: str) -> EntryRecord:
    """Check the shape of an act's entry fields; refuse anything malformed."""

    def fail(problem: str) -> LedgerError:
        return LedgerError(f"act {act_id}: {key} {problem}", act_id=act_id)

    if not isinstance(value, Mapping):
        raise fail("is not an object")
    for name in _TEXT_FIELDS:
        if not isinstance(value.get(name), str):
            raise fail(f"field {name!r} missing or not a string")
    if not is_hex64(value["content_id"]) or not is_hex64(value.get("body_hash")):
        raise fail("content_id and body_hash must be 64 lowercase hex digits")
    source, nonce, meta = value.get("source"), value.get("nonce"), value.get("meta")
    if source is not None and not isinstance(source, str):
        raise fail("field 'source' must be a string or null")
    if not isinstance(nonce, str) or not isinstance(meta, Mapping):
        raise fail("fields 'nonce' (string) and 'meta' (object) are required")
    origins = value.get("origins")
    if not isinstance(origins, list) or not all(
        isinstance(o, list) and len(o) == 2 and all(isinstance(p, str) for p in o) for o in origins
    ):
        raise fail("field 'origins' must be a list of [content_id, kind] pairs")
    return EntryRecord(
        content_id=value["content_id"],
        scope=value["scope"],
        created_at=value["created_at"],
        jurisdiction=value["jurisdiction"],
        bucket=value["bucket"],
        source=source,
        signature=value["signature"],
        body_hash=value["body_hash"],
        meta=dict(meta),
        nonce=nonce,
        origins=tuple((str(c), str(k)) for c, k in origins),
    )


def local_origins(store: StoreBase, record: EntryRecord, *, act_id: str) -> list[tuple[int, str]]:
    """The record's origins as (local id, kind); an unknown content id is refused."""
    out: list[tuple[int, str]] = []
    for cid, kind in record.origins:
        local = store.id_for_content(cid)
        if local is None:
            raise LedgerError(
                f"act {act_id}: origin {cid} is not in the index (missing dependency?)",
                act_id=act_id,
            )
        out.append((local, kind))
    return out


def require_entry(store: StoreBase, content_id: object, *, act_id: str, key: str) -> int:
    """The local id of the entry an act names by content id."""
    if not is_hex64(content_id):
        raise LedgerError(f"act {act_id}: {key} is not a content id", act_id=act_id)
    local = store.id_for_content(str(content_id))
    if local is None:
        raise LedgerError(
            f"act {act_id}: {key} {content_id} is not in the index (missing dependency?)",
            act_id=act_id,
        )
    return local


def adoption_acts(
    new: Adopted, write_deps: set[str], root_extra: dict[str, Any] | None = None
) -> list[tuple[Act, list[str]]]:
    """The ``write`` and ``root`` acts of one entry ``import_and_root`` made, each with
    the content id it produced (for ``mark_applied_many``), described from the rows
    the store inserted."""
    entry = EntryRecord.from_row(new.entry)
    write = make_act("write", write_deps, {"entry": entry.to_fields()})
    root_fields = {
        **(root_extra or {}),
        "target": entry.content_id,
        "record": EntryRecord.from_row(new.record).to_fields(),
    }
    root = make_act("root", {write.id}, root_fields)
    return [(write, [entry.content_id]), (root, [new.record.content_id])]


def adopted_bodies(adopted: Sequence[Adopted]) -> dict[str, str]:
    """The bodies a batch's segment carries: every entry's and the (shared) words."""
    out = {new.entry.body_hash: new.entry.body for new in adopted}
    out.update({new.record.body_hash: new.record.body for new in adopted})
    return out
