"""Replaying a supersede or resolve whose body or words a recorded erasure removed.

An act whose text was erased replays as an act with an erased body: the same
rows its live command wrote (``rows.supersede`` / ``rows.resolve``, the one
definition of each ceremony), with the marker ``[erased]`` for the text and
the erased hash kept, so content ids, hashes and edges are unchanged and every
later act that names them applies. The applier judged the act against its
dependencies first (status, shape); the content ids it declares are compared
with the ones produced, so a forged act still fails exactly as it would with
its text present.

Stores: the act's entry and adoption record (``ForestStore.insert_erased``).
Refuses (``ForestError``, the applier turns it into the act's fault): a
resolve whose entry hash is not the pick's body hash.
Returns: the new entry's id.
Test: tests/governance/test_forget_paths.py
"""

from __future__ import annotations

from forest_files.kernel.errors import ForestError
from forest_files.ledger.kinds import EntryRecord, ResolveAct, SupersedeAct
from forest_files.store import rows
from forest_files.store.entryrow import ERASED_MARK
from forest_files.store.forest import ForestStore


def _erased(record: EntryRecord, text: str | None) -> str | None:
    return record.body_hash if text is None else None


def supersede(
    store: ForestStore, old_id: int, p: SupersedeAct, body: str | None, words: str | None
) -> int:
    """The rows of supersede ``p`` of entry ``old_id``, its missing text as the marker."""
    old = rows.Subject.of(store.require(old_id, "supersede"))
    made = rows.supersede(
        old,
        body=ERASED_MARK if body is None else body,
        words=ERASED_MARK if words is None else words,
        speaker=p.record.signature,
        signature=p.entry.signature,
        bucket=p.entry.bucket,
        stamp=p.entry.stamp,
        record_stamp=p.record.stamp,
        max_body_bytes=store.max_body_bytes,
        erased=(_erased(p.entry, body), _erased(p.record, words)),
    )
    with store.atomic():
        return store.insert_erased(made)[0]


def resolve(
    store: ForestStore, heads: list[int], pick_id: int, p: ResolveAct, words: str | None
) -> int:
    """The rows of resolve ``p`` (the pick's text, or the marker when it was erased)."""
    pick_row = store.require(pick_id, "resolve")
    if str(pick_row["body_hash"]) != p.entry.body_hash:
        raise ForestError("the resolved text is not the picked head's text")
    gone = str(pick_row["body"]) == ERASED_MARK
    cids = _content_ids(store, heads)
    made = rows.resolve(
        [(h, cids[h]) for h in heads],
        rows.Subject.of(pick_row),
        words=ERASED_MARK if words is None else words,
        speaker=p.record.signature,
        stamp=p.entry.stamp,
        record_stamp=p.record.stamp,
        max_body_bytes=store.max_body_bytes,
        erased=(p.entry.body_hash if gone else None, _erased(p.record, words)),
    )
    with store.atomic():
        return store.insert_erased(made)[0]


def _content_ids(store: ForestStore, ids: list[int]) -> dict[int, str]:
    return {i: store.content_id(i) for i in ids}
