"""Live acts, planned: the typed act a command will apply, built before any insert.

Content ids are computable from an entry's immutable fields, so a live
command describes exactly the rows the store will write: the rows of
forest_files/store/rows.py, the very functions the store's ceremonies insert.
It hands the act to the one applier (``apply``), which applies it through
those ceremonies and refuses any content id that comes out different.

Stores: nothing.
Refuses: what ``require`` refuses of the entries an act names (an unknown id,
another scope's); the rest is the applier's to judge.
Returns: typed payloads (``kinds``).
Test: tests/custody/test_repository.py, tests/ledger/test_ledger_equivalence.py,
tests/store/test_store_rows.py
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from forest_files.kernel.hashing import hash_body
from forest_files.kernel.progress import tracked
from forest_files.ledger.kinds import (
    AdoptAct,
    BindSpec,
    EntryRecord,
    ResolveAct,
    SealAct,
    SupersedeAct,
    seal_act,
)
from forest_files.store import rows
from forest_files.store.base import new_stamp
from forest_files.store.clock import utc_now
from forest_files.store.forest import ForestStore
from forest_files.store.rows import Row, Stamp


def record_of(row: Row) -> EntryRecord:
    """The entry record an act declares for ``row`` (what its content id hashes)."""
    return EntryRecord(
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
    source = (origin, store.content_id(origin))
    stamp = utc_now()
    salts = secrets.token_bytes(16 * len(items)).hex()
    words_hash = hash_body(words.strip())  # one text for every record of the batch
    out: list[AdoptAct] = []
    for pos, (body, meta, spec) in enumerate(tracked(items, "adopting", len(items))):
        made = rows.adopt(
            source,
            scope=store.scope,
            body=body,
            meta=meta,
            signature=signature if signature is not None else by,
            words=words,
            speaker=by,
            stamp=(stamp, salts[32 * pos : 32 * pos + 16]),
            record_stamp=(stamp, salts[32 * pos + 16 : 32 * pos + 32]),
            words_hash=words_hash,
        )
        out.append(AdoptAct(record_of(made.entry), record_of(made.record), spec))
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
    old = rows.Subject.of(store.require(old_id, "supersede"))
    made = rows.supersede(
        old,
        body=body,
        words=words,
        speaker=by,
        signature=signature if signature is not None else by,
        bucket=bucket,
        stamp=stamp or new_stamp(),
    )
    return SupersedeAct(old.content_id, record_of(made.entry), record_of(made.record))


def plan_resolve(
    store: ForestStore, heads: Sequence[int], pick: int, *, words: str, by: str
) -> ResolveAct:
    """The resolve ``store.resolve`` would record: every head superseded by ``pick``'s text."""
    chosen = rows.Subject.of(store.require(pick, "resolve"))
    named = [(h, store.content_id(h)) for h in heads]
    made = rows.resolve(named, chosen, words=words, speaker=by, stamp=new_stamp())
    head_cids = tuple(sorted(cid for _, cid in named))
    return ResolveAct(head_cids, chosen.content_id, record_of(made.entry), record_of(made.record))


def plan_seal(store: ForestStore, target: int, *, words: str, by: str, sealing: bool) -> SealAct:
    """The sealing (or unsealing) record ``store.seal``/``unseal`` would write."""
    subject = rows.Subject.of(store.require(target, "seal" if sealing else "unseal"))
    made = rows.seal(subject, quote=words, signature=by, stamp=new_stamp(), sealing=sealing)
    return seal_act(subject.content_id, record_of(made), sealing=sealing)
