"""Live acts, planned: the typed act a command will apply, built before any insert.

Content ids are computable from an entry's immutable fields, so a live
command describes exactly the rows the store will write (the same buckets,
origins, scopes and stamps the store's ceremonies use) and hands the act to
the one applier (``apply``), which inserts them and refuses any content id
that comes out different.

Stores: nothing.
Refuses: nothing itself (the applier judges every act).
Returns: typed payloads (``kinds``).
Test: tests/test_repository.py, tests/test_ledger_equivalence.py
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from forest_files.kernel.hashing import entry_content_id, hash_body
from forest_files.ledger.kinds import (
    AdoptAct,
    BindSpec,
    EntryRecord,
    ResolveAct,
    SealAct,
    SupersedeAct,
)
from forest_files.store.base import utc_now
from forest_files.store.ceremonies import CeremonyMixin
from forest_files.store.forest import ForestStore

Stamp = tuple[str, str]


def new_stamp() -> Stamp:
    return (utc_now(), secrets.token_hex(8))


def describe_new(
    *,
    scope: str,
    created_at: str,
    jurisdiction: str,
    bucket: str,
    source: str | None,
    signature: str,
    body: str,
    meta: Mapping[str, Any] | None,
    nonce: str,
    origins: Sequence[tuple[str, str]],
    body_hash: str | None = None,
) -> EntryRecord:
    """The record of an entry not inserted yet, with the id the store will compute
    (``entry_content_id`` of the same fields the store hashes: ``base._entry_row``).

    ``body_hash``: ``hash_body(body)`` when the caller computed it already (one
    adopting text for a whole batch of records).
    """
    # The meta as the store reads it back from its JSON (an empty one is just {}).
    meta_read = json.loads(json.dumps(dict(meta), sort_keys=True)) if meta else {}
    if body_hash is None:
        body_hash = hash_body(body)
    fields: dict[str, Any] = {  # what the id hashes is what the record holds
        "scope": scope,
        "created_at": created_at,
        "jurisdiction": jurisdiction,
        "bucket": bucket,
        "source": source,
        "signature": signature,
        "body_hash": body_hash,
        "meta": meta_read,
        "nonce": nonce,
        "origins": tuple(sorted((str(c), str(k)) for c, k in origins)),
    }
    return EntryRecord(content_id=entry_content_id(**fields), **fields)


def _adoption_record(
    entry: EntryRecord, words: str, by: str, stamp: Stamp, words_hash: str | None = None
) -> EntryRecord:
    return describe_new(
        scope=entry.scope,
        created_at=stamp[0],
        jurisdiction="home",
        bucket="adoption_record",
        source=None,
        signature=by.strip(),
        body=words.strip(),
        meta=None,
        nonce=stamp[1],
        origins=[(entry.content_id, "adopts")],
        body_hash=words_hash,
    )


def plan_adoptions(
    store: ForestStore,
    origin: int,
    items: Sequence[tuple[str, Mapping[str, Any], BindSpec | None]],
    *,
    words: str,
    by: str,
    signature: str | None = None,
) -> list[AdoptAct]:
    """One adopt per (body, meta, binding): an import derived from ``origin``, rooted
    with ``words`` by ``by``. The batch is one act of adoption: one creation time,
    one read of the system's randomness for every nonce."""
    origin_cid = store.content_id(origin)
    stamp = utc_now()
    salts = secrets.token_bytes(16 * len(items)).hex()
    words_hash = hash_body(words.strip())  # one text for every record of the batch
    out: list[AdoptAct] = []
    for pos, (body, meta, spec) in enumerate(items):
        entry = describe_new(
            scope=store.scope,
            created_at=stamp,
            jurisdiction="home",
            bucket="import",
            source=None,
            signature=signature if signature is not None else by,
            body=body,
            meta=meta,
            nonce=salts[32 * pos : 32 * pos + 16],
            origins=[(origin_cid, "derived_from")],
        )
        stamp_of_record = (stamp, salts[32 * pos + 16 : 32 * pos + 32])
        record = _adoption_record(entry, words, by, stamp_of_record, words_hash)
        out.append(AdoptAct(entry=entry, record=record, binding=spec))
    return out


def plan_supersede(
    store: ForestStore,
    old_id: int,
    body: str,
    *,
    words: str,
    by: str,
    signature: str | None = None,
    bucket: str | None = None,
    stamp: Stamp | None = None,
) -> SupersedeAct:
    """The supersession ``store.supersede`` would record for ``old_id``."""
    old = store._require(old_id, "supersede")
    when = stamp or new_stamp()
    old_cid = str(old["content_id"])
    entry = describe_new(
        scope=str(old["scope"]),
        created_at=when[0],
        jurisdiction=str(old["jurisdiction"]),
        bucket=CeremonyMixin._successor_bucket(str(old["bucket"]), bucket),
        source=old["source"],
        signature=(signature if signature is not None else by).strip(),
        body=body,
        meta=None,
        nonce=when[1],
        origins=[(old_cid, "supersedes"), (old_cid, "derived_from")],
    )
    return SupersedeAct(old=old_cid, entry=entry, record=_adoption_record(entry, words, by, when))


def plan_resolve(
    store: ForestStore, heads: Sequence[int], pick: int, *, words: str, by: str
) -> ResolveAct:
    """The resolve ``store.resolve`` would record: every head superseded by ``pick``'s text."""
    row = store._require(pick, "resolve")
    when = new_stamp()
    head_cids = sorted(store.content_id(h) for h in heads)
    pick_cid = str(row["content_id"])
    entry = describe_new(
        scope=str(row["scope"]),
        created_at=when[0],
        jurisdiction=str(row["jurisdiction"]),
        bucket=str(row["bucket"]),
        source=row["source"],
        signature=by.strip(),
        body=str(row["body"]),
        meta=None,
        nonce=when[1],
        origins=[(h, "supersedes") for h in head_cids] + [(pick_cid, "derived_from")],
    )
    record = _adoption_record(entry, words, by, when)
    return ResolveAct(heads=tuple(head_cids), pick=pick_cid, entry=entry, record=record)


def plan_seal(store: ForestStore, target: int, *, words: str, by: str, sealing: bool) -> SealAct:
    """The sealing (or unsealing) record ``store.seal``/``unseal`` would write."""
    row = store._require(target, "seal" if sealing else "unseal")
    when = new_stamp()
    record = describe_new(
        scope=str(row["scope"]),
        created_at=when[0],
        jurisdiction="home",
        bucket="sealing_record" if sealing else "unsealing_record",
        source=None,
        signature=by,
        body=words,
        meta=None,
        nonce=when[1],
        origins=[(str(row["content_id"]), "seals" if sealing else "unseals")],
    )
    return SealAct(target=str(row["content_id"]), record=record, sealing=sealing)
