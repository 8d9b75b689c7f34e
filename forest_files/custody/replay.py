"""Replay: apply a ledger's acts to the local index through the one applier.

Stores: what the appliers store (``apply``) and their bookkeeping (``applied``).
Refuses: whatever the appliers refuse, as ``LedgerError`` naming the act; the
whole call rolls back on the first refusal.
Returns: the number of acts applied.
After the acts, a second pass (erased_ground.py) erases every entry still
holding a body hash an erase removed, so the order acts arrive in never
leaves erased text in the index; a live ground it empties is a finding.
Test: tests/custody/test_repository.py, tests/ledger/test_ledger_equivalence.py

Replay never judges authority or ``forest.toml`` policy: those are judged when
an act is made (live, against today's map) and by the CI gate for the acts a
range adds (against the map at the merge-base), so tightening a policy or
removing a holder never breaks a rebuild.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import nullcontext

from forest_files.custody import erased_ground
from forest_files.custody.applied import (
    BodyReader,
    applied_ids,
    creator_act,
    deps_for,
    ensure_tables,
    is_applied,
    mark_applied,
    mark_applied_many,
    tables_current,
)
from forest_files.custody.apply import Applier
from forest_files.kernel.gcpause import gc_paused
from forest_files.kernel.progress import Progress
from forest_files.ledger.act_refs import body_refs, erased_bodies
from forest_files.ledger.acts import Act
from forest_files.ledger.kinds import EraseAct
from forest_files.store.forest import ForestStore

__all__ = [
    "BodyReader",
    "applied_ids",
    "creator_act",
    "deps_for",
    "ensure_tables",
    "is_applied",
    "mark_applied",
    "mark_applied_many",
    "replay",
    "tables_current",
]

# Act kinds that only add entries and edges other than seals: replaying only
# these may defer the full-text index (WriteMixin.deferred_text_index).
_INDEX_SAFE = frozenset({"write", "adopt", "supersede", "rebind", "retire"})
_BATCH_INDEX_AT = 64
_PROGRESS_CHUNK = 2000  # acts applied between two progress updates (one transaction)


def _applied_among(store: ForestStore, act_ids: Sequence[str]) -> set[str]:
    """The ids of ``act_ids`` this index has applied: one query per 500 ids, not one
    per act (a rebuild's index is empty: one query answers for the whole ledger)."""
    if not act_ids:
        return set()
    if store.conn.execute("SELECT 1 FROM ledger_applied LIMIT 1").fetchone() is None:
        return set()
    done: set[str] = set()
    for start in range(0, len(act_ids), 500):
        chunk = act_ids[start : start + 500]
        marks = ",".join("?" * len(chunk))
        rows = store.conn.execute(
            f"SELECT act_id FROM ledger_applied WHERE act_id IN ({marks})", chunk
        )
        done.update(str(r[0]) for r in rows)
    return done


def replay(
    store: ForestStore,
    acts: Sequence[Act],
    body_reader: BodyReader,
    *,
    known: Mapping[str, Act] | None = None,
    named: set[str] | None = None,
) -> int:
    """Apply ``acts`` (in dependency order) not yet applied, in one transaction.

    Every dep of an act must be applied before it (earlier in ``acts`` or
    already in the index). ``known`` is accepted for older callers and not
    needed. ``named``: every body hash ``acts`` name is added to it, in the walk
    that finds the bodies their erase acts remove (a view's manifest: viewbuild.py).
    A refused act rolls the whole call back.
    """
    del known
    with store.atomic():
        ensure_tables(store)
        done = _applied_among(store, [a.id for a in acts])
        fresh = [a for a in acts if a.id not in done]
        # Many acts that never seal, unseal or erase (a rebuild, a view, a big pull):
        # their bodies reach the full-text index in one batch at the end.
        batch = len(fresh) >= _BATCH_INDEX_AT and all(a.kind in _INDEX_SAFE for a in fresh)
        with store.deferred_text_index() if batch else nullcontext(), gc_paused():
            erased = _erased_naming(acts, named) | erased_ground.erased_hashes(store)
            applier = Applier(store, body_reader, erased)
            with Progress("replaying acts", len(fresh)) as bar:  # drawn only on a terminal
                for start in range(0, len(fresh), _PROGRESS_CHUNK):
                    applier.apply_many(fresh[start : start + _PROGRESS_CHUNK])
                    bar.advance(min(_PROGRESS_CHUNK, len(fresh) - start))
        if fresh:  # the second pass: no erased text left, whatever the order
            erased_ground.settle(store)
    return len(fresh)


def _erased_naming(acts: Sequence[Act], named: set[str] | None) -> frozenset[str]:
    """The body hashes the erase acts among ``acts`` remove; with ``named``, every body
    hash ``acts`` name is added to it in the same walk."""
    if named is None:
        return erased_bodies(a.payload for a in acts)
    erased: list[str] = []
    for act in acts:
        payload = act.payload
        named.update(body_refs(payload))
        if isinstance(payload, EraseAct):
            erased.append(payload.body_hash)
    return frozenset(erased)
