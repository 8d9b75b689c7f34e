"""One entry as the store inserts it: its row, the refusals of a row, its content id.

The foundation of forest_files/store/rows.py (what each ceremony writes) and of the
store's one insert (``StoreBase.insert_entry``).

Stores: nothing (no clock, no randomness: a caller gives every stamp).
Refuses (``ForestError``): ``check`` refuses a row as the store's insert does, in
its order — a ceremony bucket outside a ceremony, a blank signature or body,
signatures, bodies and meta over their bounds, an unknown jurisdiction or
bucket, a source that is not text; ``entry_row`` refuses meta that is not JSON,
an erased entry whose body is not the marker, and (through its content id) any
field that is not valid Unicode text, checked or not.
Returns: ``Row`` (the columns an entry is inserted with, its origins as ``Link``
values, its content id); ``Subject`` (what a ceremony reads of an entry).
Test: tests/store/test_store_rows.py, tests/store/test_store_hostile.py
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from forest_files.kernel import bounds
from forest_files.kernel.errors import ForestError
from forest_files.kernel.hashing import entry_content_id, hash_body
from forest_files.kernel.vocab import BUCKETS, CEREMONY_BUCKETS, JURISDICTIONS

Stamp = tuple[str, str]  # (created_at, nonce): a replayed act keeps its rows' ids with it
ERASED_MARK = "[erased]"


class Link(NamedTuple):
    """One origin of a row: the entry it names (``id`` None: the entry the same
    ceremony writes just before it), by content id, and the edge kind."""

    id: int | None
    content_id: str
    kind: str


class Subject(NamedTuple):
    """What a ceremony reads of an entry already in the store."""

    id: int
    content_id: str
    scope: str
    jurisdiction: str
    bucket: str
    source: str | None
    chain: int  # the supersession chain it belongs to (its own id at a chain's start)
    body: str

    @classmethod
    def of(cls, row: sqlite3.Row) -> Subject:
        """The subject of an ``entries`` row (a row of the store's scope)."""
        entry_id = int(row["id"])
        return cls(
            entry_id,
            str(row["content_id"] or f"local:{entry_id}"),
            str(row["scope"]),
            str(row["jurisdiction"]),
            str(row["bucket"]),
            row["source"],
            int(row["chain_root"] or entry_id),
            str(row["body"]),
        )


class Row(NamedTuple):
    """One entry as it is inserted: the row's columns, then the parsed meta and the
    origins (what an act describing the entry carries)."""

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
    links: tuple[Link, ...]

    def values(self) -> tuple[object, ...]:
        """The INSERT_ENTRY parameters."""
        return self[:12]

    @property
    def origins(self) -> tuple[tuple[str, str], ...]:
        """The origins by content id, sorted (as the content id hashes them)."""
        return tuple(sorted((link.content_id, link.kind) for link in self.links))

    @property
    def stamp(self) -> Stamp:
        return (self.created_at, self.nonce)


# -- one row ------------------------------------------------------------------------------
def check(
    *,
    bucket: str,
    signature: object,
    body: object,
    meta: object,
    jurisdiction: str,
    source: object,
    ceremony: bool,
    max_body_bytes: int,
    meta_judged: bool = False,
) -> None:
    """Refuse a row as the store's insert does, in the same order (origins aside);
    ``meta_judged``: the meta passed ``bounds.check_meta`` already (not judged again)."""
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
    bounds.check_body("body", body, max_body_bytes)
    if not meta_judged:
        bounds.check_meta(meta or {})
    if jurisdiction not in JURISDICTIONS:
        raise ForestError(f"invalid jurisdiction {jurisdiction!r}; use 'home' or 'wild'")
    if bucket not in BUCKETS:
        raise ForestError(f"unknown bucket {bucket!r}; use one of: {', '.join(sorted(BUCKETS))}")
    if source is not None and not isinstance(source, str):
        raise ForestError(f"source must be a string or None; got {type(source).__name__}")
    bounds.check_unicode("source", source)


def entry_row(
    *,
    scope: str,
    stamp: Stamp,
    jurisdiction: str,
    bucket: str,
    source: str | None,
    signature: str,
    body: str,
    links: Sequence[Link],
    meta: Mapping[str, Any] | None = None,
    chain_root: int | None = None,
    body_hash: str | None = None,
    erased_body_hash: str | None = None,
    ceremony: bool = True,
    max_body_bytes: int | None = None,
    meta_judged: bool = False,
) -> Row:
    """The row of one entry and its content id (``entry_content_id`` of the fields).

    ``body_hash``: ``hash_body(body)`` when the caller computed it already (one
    adopting text for a batch); ``erased_body_hash``: the hash of a body a
    recorded erasure removed (the body is then the marker); ``max_body_bytes``:
    given, the row is first judged by ``check`` (``ceremony``: written by one;
    ``meta_judged``: its meta passed ``bounds.check_meta`` already).
    """
    if max_body_bytes is not None:
        check(
            bucket=bucket,
            signature=signature,
            body=body,
            meta=meta,
            jurisdiction=jurisdiction,
            source=source,
            ceremony=ceremony,
            max_body_bytes=max_body_bytes,
            meta_judged=meta_judged,
        )
    meta_obj = dict(meta or {})
    try:
        # ``json.dumps({}, sort_keys=True)`` is "{}": most entries carry no meta.
        meta_json = json.dumps(meta_obj, sort_keys=True) if meta_obj else "{}"
    except (TypeError, ValueError) as exc:
        raise ForestError(f"meta must be JSON-serialisable: {exc}") from None
    if erased_body_hash is not None:
        if body != ERASED_MARK:
            raise ForestError("an erased entry's body must be the marker [erased]")
        body_hash = erased_body_hash
    elif body_hash is None:
        body_hash = hash_body(body)
    meta_read = _read_back(meta_obj, meta_json)
    cid = entry_content_id(
        scope=scope,
        created_at=stamp[0],
        jurisdiction=jurisdiction,
        bucket=bucket,
        source=source,
        signature=signature,
        body_hash=body_hash,
        meta=meta_read,
        nonce=stamp[1],
        origins=[(link.content_id, link.kind) for link in links],
    )
    return Row(
        stamp[0], jurisdiction, bucket, source, signature, body, body_hash, meta_json,
        cid, scope, stamp[1], chain_root, meta_read, tuple(links),
    )  # fmt: skip


def _read_back(meta: dict[str, Any], meta_json: str) -> dict[str, Any]:
    """The meta as a reader of ``meta_json`` gets it back. The usual meta (a file's path
    and selector: a flat object of strings) comes back as itself, keys sorted, so it is
    not decoded again; anything else is."""
    if not meta:
        return {}
    if all(type(k) is str and type(v) is str for k, v in meta.items()):
        return dict(sorted(meta.items()))
    loaded: dict[str, Any] = json.loads(meta_json)
    return loaded
