"""The store's foundation: the one insert (lookups and status live in lookup.py).

Stores: one entries row plus its creation edges per ``_insert_entry`` call,
with a content id computed from the immutable fields, stamped with the
store's scope.
Refuses: ceremony buckets outside a ceremony ("is written only by a
ceremony"), unknown buckets and edge kinds (never silently dropped), unknown
origin ids (``NotFound``), ids and origins of another scope and inserts into
another scope (``ScopeMismatch``), unsigned inserts, empty bodies, invalid
jurisdictions; and, by forest_files/kernel/bounds.py, signatures, bodies
(``max_body_bytes``), meta, entry ids and content ids outside their bounds.
Returns: entry ids and the rows an act describes (``EntryRow``).
Test: tests/test_store_hostile.py, tests/test_store_props.py, tests/test_scopes.py
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, NamedTuple

from forest_files.kernel import bounds
from forest_files.kernel.errors import ForestError, NotFound, ScopeMismatch
from forest_files.kernel.hashing import entry_content_id, hash_body
from forest_files.kernel.vocab import (
    BUCKETS,
    CEREMONY_BUCKETS,
    CEREMONY_EDGE_KINDS,
    EDGE_KINDS,
    JURISDICTIONS,
)
from forest_files.store import queries
from forest_files.store.lookup import LookupBase, mismatch

Origins = Sequence[tuple[int, str]]


class EntryRow(NamedTuple):
    """One entry as it is inserted: the row's columns, then the parsed meta and the
    origins by content id (what an act describing the entry carries)."""

    created_at: str
    jurisdiction: str
    bucket: str
    source: str | None
    signature: str
    body: str
    body_hash: str
    meta_json: str
    content_id: str
    scope: str
    nonce: str
    chain_root: int | None
    meta: dict[str, Any]
    origins: tuple[tuple[str, str], ...]

    def values(self) -> tuple[object, ...]:
        """The INSERT_ENTRY parameters."""
        return self[:12]


def utc_now() -> str:
    """UTC with milliseconds and a Z, Forest's timestamp format."""
    now = datetime.now(UTC)
    return now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"


def check_kinds(origins: Origins, *, allow_ceremony: bool) -> list[tuple[int, str]]:
    """Validate the shape and vocabulary of origin pairs."""
    checked: list[tuple[int, str]] = []
    for item in origins:
        if not isinstance(item, (tuple, list)) or len(item) != 2:
            raise ForestError(f"origins must be (entry_id, edge_kind) pairs; got {item!r}")
        target, kind = item
        if not isinstance(target, int) or isinstance(target, bool):
            raise ForestError(f"origin id must be an int; got {target!r}")
        bounds.check_entry_id("origin id", target)
        if kind in CEREMONY_EDGE_KINDS and not allow_ceremony:
            raise ForestError(
                f"edge kind '{kind}' is a ceremony act; use root_to_ground/supersede/seal/unseal"
            )
        if kind not in EDGE_KINDS:
            raise ForestError(
                f"unknown edge kind {kind!r}; use one of: {', '.join(sorted(EDGE_KINDS))}"
            )
        checked.append((target, str(kind)))
    return checked


class StoreBase(LookupBase):
    """The single insert path shared by every op (lookups and status: LookupBase)."""

    max_body_bytes: int = bounds.MAX_STORE_BODY_BYTES  # a library may lower it per store

    # -- the one insert -----------------------------------------------------
    def _insert_entry(
        self,
        *,
        body: str,
        jurisdiction: str,
        bucket: str,
        signature: str,
        source: str | None = None,
        meta: Mapping[str, Any] | None = None,
        origins: Origins = (),
        ceremony: bool = False,
        chain_root: int | None = None,
        created_at: str | None = None,
        nonce: str | None = None,
        scope_of: str | None = None,
        erased_body_hash: str | None = None,
    ) -> int:
        """Validate and insert one entry with its creation edges. Call inside ``atomic``."""
        row, edges = self._entry_row(
            body=body,
            jurisdiction=jurisdiction,
            bucket=bucket,
            signature=signature,
            source=source,
            meta=meta,
            origins=origins,
            ceremony=ceremony,
            chain_root=chain_root,
            created_at=created_at,
            nonce=nonce,
            scope_of=scope_of,
            erased_body_hash=erased_body_hash,
        )
        cur = self.conn.execute(queries.INSERT_ENTRY, row.values())
        new_id = int(cur.lastrowid or 0)
        for target, kind in edges:
            self.conn.execute(queries.INSERT_EDGE, (new_id, target, kind, row.created_at))
        return new_id

    def _entry_row(
        self,
        *,
        body: str,
        jurisdiction: str,
        bucket: str,
        signature: str,
        source: str | None,
        meta: Mapping[str, Any] | None,
        origins: Origins,
        ceremony: bool,
        chain_root: int | None = None,
        created_at: str | None = None,
        nonce: str | None = None,
        scope_of: str | None = None,
        erased_body_hash: str | None = None,
        known: Mapping[int, str] | None = None,
    ) -> tuple[EntryRow, list[tuple[int, str]]]:
        """Every check of an insert: the row it writes and its checked origin edges.

        ``known``: content ids of origin ids not inserted yet (a batch names
        entries it is about to insert).
        """
        if bucket in CEREMONY_BUCKETS and not ceremony:
            raise ForestError(
                f"bucket '{bucket}' is written only by a ceremony; "
                "use root_to_ground/supersede/seal/unseal"
            )
        if not isinstance(signature, str) or not signature.strip():
            raise ForestError("unsigned insert refused: give a non-blank signature")
        if not isinstance(body, str) or not body.strip():
            raise ForestError("empty body refused: a body needs visible text")
        bounds.check_text("signature", signature, bounds.MAX_SIGNATURE_CHARS)
        bounds.check_body("body", body, self.max_body_bytes)
        bounds.check_meta(meta or {})
        if jurisdiction not in JURISDICTIONS:
            raise ForestError(f"invalid jurisdiction {jurisdiction!r}; use 'home' or 'wild'")
        if bucket not in BUCKETS:
            raise ForestError(
                f"unknown bucket {bucket!r}; use one of: {', '.join(sorted(BUCKETS))}"
            )
        if source is not None and not isinstance(source, str):
            raise ForestError(f"source must be a string or None; got {type(source).__name__}")
        edges = check_kinds(origins, allow_ceremony=ceremony)
        targets: Mapping[int, str] = known or {}
        unknown = [e for e in edges if e[0] not in targets]
        if unknown:  # a batch names its own rows in ``known``: no query, no copy
            targets = {**targets, **self._origin_content_ids(unknown)}
        meta_obj = dict(meta or {})
        try:
            # ``json.dumps({}, sort_keys=True)`` is "{}": most entries carry no meta.
            meta_json = json.dumps(meta_obj, sort_keys=True) if meta_obj else "{}"
        except (TypeError, ValueError) as exc:
            raise ForestError(f"meta must be JSON-serialisable: {exc}") from None
        body_hash = hash_body(body)
        if erased_body_hash is not None:
            # Replay of an entry whose body a recorded erasure removed: keep its hash.
            if body != "[erased]":
                raise ForestError("an erased entry's body must be the marker [erased]")
            body_hash = erased_body_hash
        stamp = created_at or utc_now()
        salt = secrets.token_hex(8) if nonce is None else nonce
        scope = self.scope
        if scope_of is not None and scope_of != scope:
            # A replayed or planned row declares its scope: it must be this store's.
            raise ScopeMismatch(
                "insert: the entry declares another scope than this store's (scope "
                "mismatch); write it through a store opened with its scope"
            )
        meta_read = json.loads(meta_json) if meta_obj else {}
        cid = entry_content_id(
            scope=scope,
            created_at=stamp,
            jurisdiction=jurisdiction,
            bucket=bucket,
            source=source,
            signature=signature,
            body_hash=body_hash,
            meta=meta_read,
            nonce=salt,
            origins=[(targets[t], k) for t, k in edges],
        )
        by_content = tuple(sorted((targets[t], k) for t, k in edges))
        return EntryRow(
            stamp, jurisdiction, bucket, source, signature, body, body_hash, meta_json,
            cid, scope, salt, chain_root, meta_read, by_content,
        ), edges  # fmt: skip

    def _origin_content_ids(self, edges: list[tuple[int, str]]) -> dict[int, str]:
        ids = sorted({t for t, _ in edges})
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        rows = self.conn.execute(queries.CONTENT_IDS.format(marks=marks), ids).fetchall()
        found = {int(r[0]): (r[1] or f"local:{r[0]}") for r in rows if r[2] == self.scope}
        foreign = {int(r[0]) for r in rows if r[2] != self.scope}
        missing = [i for i in ids if i not in found]
        if missing and missing[0] in foreign:
            # An edge across scopes: both endpoints must be of the store's scope.
            raise mismatch("origins", missing[0])
        if missing:
            raise NotFound(f"unknown entry {missing[0]} in origins; link to an existing entry")
        return found
