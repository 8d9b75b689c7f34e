"""Copy a Forest store's entries, edges and retrieval log into a new forest-files store.

Stores: one new forest-files store at the path it is given (a temporary file
beside the target; ``forest_files.migrate`` gives it its name). Ids, timestamps,
bodies, hashes, signatures and meta are copied verbatim, in one transaction
whose foreign keys are checked before COMMIT; each entry gets a content id in
scope ``MIGRATION_SCOPE`` with nonce ``migrated:<old id>`` and the chain_root of
its ``supersedes`` chain. 0.3 buckets ``session_pair`` and ``canon`` become
``pair`` and ``note``.
Refuses: any entry whose body_hash is not the SHA-256 of its body, whose
meta_json is not a JSON object, or whose bucket neither Forest nor forest-files
knows (the whole run, naming every such id); a row the schema rejects; dangling
references.
Returns: ``MigrationReport`` (``build``), with the notes of migrate_report.py.
Test: tests/face/test_migrate.py (through ``forest_files.migrate``)
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from forest_files.kernel.errors import ForestError
from forest_files.kernel.hashing import entry_content_id, hash_body
from forest_files.kernel.vocab import BUCKETS, Bucket
from forest_files.store.forest import ForestStore
from forest_files.store.migrate_report import (
    MIGRATION_SCOPE,
    MigrationReport,
    Tally,
    compare_views,
    ids,
    translation_notes,
)
from forest_files.store.migrate_source import SourceVersion

# 0.3 buckets that 0.4 renamed or dropped; everything else carries over as is.
_BUCKETS_03 = {"session_pair": Bucket.PAIR.value, "canon": Bucket.NOTE.value}
# A migrated entry may use any bucket Forest had, never forest-files' reserved anchor.
_TARGET_BUCKETS = BUCKETS - {Bucket.ANCHOR.value}
_ENTRY_COLUMNS = (
    "id, created_at, {j} AS jurisdiction, bucket, {s} AS source, signature, body, body_hash, "
    "meta_json"
)
_SELECT_ENTRIES = {
    "0.4": f"SELECT {_ENTRY_COLUMNS.format(j='jurisdiction', s='source')} FROM entries ORDER BY id",
    "0.3": f"SELECT {_ENTRY_COLUMNS.format(j='forest', s='NULL')} FROM entries ORDER BY id",
}
_SELECT_EDGES = "SELECT id, from_id, to_id, kind, created_at FROM edges ORDER BY id"
_SELECT_LOG = (
    "SELECT id, created_at, query, open_buckets_json, result_ids_json, note "
    "FROM retrieval_log ORDER BY id"
)
_INSERT_ENTRY = (
    "INSERT INTO entries (id, created_at, jurisdiction, bucket, source, signature, body, "
    "body_hash, meta_json, content_id, scope, nonce, chain_root) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_INSERT_EDGE = "INSERT INTO edges (id, from_id, to_id, kind, created_at) VALUES (?, ?, ?, ?, ?)"
_INSERT_LOG = (
    "INSERT INTO retrieval_log (id, created_at, query, open_buckets_json, result_ids_json, "
    "note) VALUES (?, ?, ?, ?, ?, ?)"
)


def build(src: sqlite3.Connection, tmp: Path, version: SourceVersion) -> MigrationReport:
    roots, notes = _chain_roots(src)
    with ForestStore(tmp, scope=MIGRATION_SCOPE) as store:
        store.init_schema()
        dst = store.conn
        with store.atomic():
            # Ids are copied verbatim, so a reference may point forward; the
            # foreign keys are checked once, before COMMIT.
            dst.execute("PRAGMA defer_foreign_keys = ON")
            tally = _copy_entries(src, dst, version, roots)
            _refuse_bad_entries(tally)
            edges = _copy_edges(src, dst)
            log = _copy_log(src, dst)
            _refuse_dangling(dst)
        notes += translation_notes(version, tally)
        notes += compare_views(src, dst)
    return MigrationReport(version, tally.entries, edges, log, tuple(notes))


def _chain_roots(src: sqlite3.Connection) -> tuple[dict[int, int], list[str]]:
    """chain_root per superseding entry: the far end of its ``supersedes`` chain."""
    targets: dict[int, int] = {}
    forks: list[int] = []
    for from_id, to_id in src.execute(
        "SELECT from_id, to_id FROM edges WHERE kind = 'supersedes' ORDER BY id"
    ):
        if from_id in targets:
            forks.append(int(from_id))
            targets[from_id] = min(targets[from_id], int(to_id))
        else:
            targets[int(from_id)] = int(to_id)
    roots: dict[int, int] = {}
    for start in sorted(targets):
        roots[start] = _chain_end(start, targets, roots)
    notes = []
    if forks:
        notes.append(
            f"entries {ids(forks)} supersede more than one entry; their chain_root follows "
            "the lowest superseded id"
        )
    return roots, notes


def _chain_end(start: int, targets: dict[int, int], roots: dict[int, int]) -> int:
    """Follow ``supersedes`` from ``start`` to the entry that supersedes nothing.

    A cycle (impossible through Forest's API, possible in a hand-edited file)
    ends at the first entry met twice, so the walk always stops.
    """
    seen, here = {start}, targets[start]
    while here in targets and here not in seen:
        if here in roots:
            return roots[here]
        seen.add(here)
        here = targets[here]
    return here


def _copy_entries(
    src: sqlite3.Connection, dst: sqlite3.Connection, version: SourceVersion, roots: dict[int, int]
) -> Tally:
    tally = Tally()
    for row in src.execute(_SELECT_ENTRIES[version]):
        tally.entries += 1
        values = _target_values(tuple(row), version, tally, roots)
        # After the first bad entry nothing is inserted, but every entry is
        # still verified so that the refusal names all of them.
        if values is not None and not tally.refused():
            _insert(dst, _INSERT_ENTRY, values, f"entry {row[0]}")
    return tally


def _target_values(
    row: tuple[Any, ...], version: SourceVersion, tally: Tally, roots: dict[int, int]
) -> tuple[Any, ...] | None:
    """The target row for one source entry, or None (recorded in ``tally``) if it is bad."""
    old_id, created_at, jurisdiction, bucket, source, signature, body, body_hash, meta_json = row
    if not _hash_matches(body, body_hash):
        tally.tampered.append(old_id)
        return None
    meta = _meta_object(meta_json)
    if meta is None:
        tally.bad_meta.append(old_id)
        return None
    if version == "0.3" and bucket in _BUCKETS_03:
        (tally.canon if bucket == "canon" else tally.pairs_03).append(old_id)
        bucket = _BUCKETS_03[bucket]
    if bucket not in _TARGET_BUCKETS:
        tally.bad_bucket.append(old_id)
        return None
    nonce = f"migrated:{old_id}"
    cid = entry_content_id(
        scope=MIGRATION_SCOPE,
        created_at=created_at,
        jurisdiction=jurisdiction,
        bucket=bucket,
        source=source,
        signature=signature,
        body_hash=body_hash,
        meta=meta,
        nonce=nonce,
        origins=[],
    )
    return (
        *(old_id, created_at, jurisdiction, bucket, source, signature, body, body_hash),
        *(meta_json, cid, MIGRATION_SCOPE, nonce, roots.get(old_id)),
    )


def _hash_matches(body: object, body_hash: object) -> bool:
    if not isinstance(body, str) or not isinstance(body_hash, str):
        return False
    try:
        return hash_body(body) == body_hash
    except ForestError:
        return False


def _meta_object(meta_json: object) -> dict[str, Any] | None:
    """The parsed meta when it is a JSON object that hashes canonically, else None."""
    try:
        meta = json.loads(str(meta_json))
        if not isinstance(meta, dict):
            return None
        json.dumps(meta, allow_nan=False)
    except ValueError:
        return None
    return meta


def _refuse_bad_entries(tally: Tally) -> None:
    if tally.tampered:
        raise ForestError(
            f"body_hash does not match body for entries {ids(tally.tampered)}; "
            "the source looks tampered, so nothing was migrated"
        )
    if tally.bad_meta:
        raise ForestError(
            f"meta_json is not a JSON object for entries {ids(tally.bad_meta)}; "
            "nothing was migrated"
        )
    if tally.bad_bucket:
        raise ForestError(
            f"entries {ids(tally.bad_bucket)} use a bucket that neither Forest nor "
            "forest-files knows; nothing was migrated"
        )


def _copy_edges(src: sqlite3.Connection, dst: sqlite3.Connection) -> int:
    copied = 0
    for row in src.execute(_SELECT_EDGES):
        edge_id, from_id, to_id, kind = row[:4]
        _insert(dst, _INSERT_EDGE, tuple(row), f"edge {edge_id} ({kind} {from_id}->{to_id})")
        copied += 1
    return copied


def _copy_log(src: sqlite3.Connection, dst: sqlite3.Connection) -> int:
    copied = 0
    for row in src.execute(_SELECT_LOG):
        _insert(dst, _INSERT_LOG, tuple(row), f"retrieval_log row {row[0]}")
        copied += 1
    return copied


def _insert(dst: sqlite3.Connection, sql: str, values: tuple[object, ...], what: str) -> None:
    try:
        dst.execute(sql, values)
    except sqlite3.IntegrityError as exc:
        raise ForestError(
            f"{what} is refused by the forest-files schema ({exc}); the source is "
            "inconsistent, so nothing was migrated"
        ) from exc


def _refuse_dangling(dst: sqlite3.Connection) -> None:
    bad = dst.execute("PRAGMA foreign_key_check").fetchall()
    if bad:
        shown = ", ".join(f"{r[0]} row {r[1]} -> {r[2]}" for r in bad[:10])
        raise ForestError(f"the source has dangling references ({shown}); nothing was migrated")
