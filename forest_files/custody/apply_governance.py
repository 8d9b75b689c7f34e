"""Applying the governance acts on entries: seal, unseal and erase.

Stores: a sealing or unsealing record (beside the other when a merged branch
made the same change; the marker when its quote was erased); an erase's erased
bodies and the tombstone lines, tokens and body mark it records (tombstone.py),
kept in the applier's loaded tombstones too.
Refuses (``LedgerError`` naming the act, or a live command's ``ForestError``):
a seal or unseal whose dependencies do not reach its target's maker, whose
record is not the right bucket or does not name exactly its target, or whose
target was already sealed (not sealed) at its dependencies; an erase whose
dependencies made no entry holding the body, or of a body live ground holds at
its dependencies; every shared rule (apply_rules.py).
Returns: the record's content id, or nothing for an erase, with the paths of
the chains touched.
Test: tests/ledger/test_ledger_kinds.py, tests/governance/test_forget_paths.py,
tests/custody/test_tombstone.py
"""

from __future__ import annotations

from forest_files.custody import applied as book
from forest_files.custody import tombstone
from forest_files.custody.apply_rules import ApplyRules
from forest_files.kernel.shellword import forest_text
from forest_files.ledger.acts import Act
from forest_files.ledger.kinds import EraseAct, SealAct


def seal(ap: ApplyRules, act: Act, p: SealAct) -> tuple[list[str], frozenset[str]]:
    store = ap.store
    target = ap.local(act, p.target, "target")
    ap.made_within(act, p.target, "target")
    bucket = "sealing_record" if p.sealing else "unsealing_record"
    if p.record.bucket != bucket:
        raise ap.fail(act, f"its record is a {bucket}")
    ap.record_of(act, p.record, p.target, "seals" if p.sealing else "unseals")
    quote = ap.body(act, p.record)
    if book.status_at_deps(store, target, act).sealed == p.sealing:
        state = "already sealed" if p.sealing else "not sealed"
        raise ap.fail(act, f"target was {state} at its dependencies")
    if quote is None:  # replayed after an erase of its quote: the record, marked
        kind = "seals" if p.sealing else "unseals"
        record_id = ap.insert_declared(act, p.record, [(target, kind)], ceremony=True)
    elif store.is_sealed(target) != p.sealing:
        ceremony = store.seal if p.sealing else store.unseal
        record_id = ceremony(
            entry_id=target, quote=quote, signature=p.record.signature, stamp=p.record.stamp
        )
    else:  # a merged branch made the same change: record it beside the other one
        record_id = store.seal_beside(
            entry_id=target,
            quote=quote,
            signature=p.record.signature,
            stamp=p.record.stamp,
            sealing=p.sealing,
        )
    return [ap.check_id(act, record_id, p.record)], ap.paths_of_entry(target)


def erase(ap: ApplyRules, act: Act, p: EraseAct) -> frozenset[str]:
    store = ap.store
    rows = store.conn.execute(
        "SELECT id FROM entries WHERE body_hash = ?", (p.body_hash,)
    ).fetchall()
    producers = {book.creator_act(store, store.content_id(int(r[0]))) for r in rows}
    if not book.ancestors_among(store, act, {a for a in producers if a is not None}):
        raise ap.fail(act, "its dependencies made no entry holding the body it erases")
    paths: set[str] = set()
    for row in rows:
        entry_id = int(row[0])
        if book.status_at_deps(store, entry_id, act).ground:
            ground = store.content_id(entry_id)
            raise ap.fail(
                act,
                f"erases the body of live ground {ground}; supersede or seal it first "
                f"({forest_text('seal', ground, options=('--words', '…'))})",
            )
        paths |= ap.paths_of_entry(entry_id)
    for row in rows:
        store.erase_body(int(row[0]), signature=p.by, reason=p.reason, at=p.at)
    marks = (
        *(p.lines or ()),
        *(p.tokens or ()),
        tombstone.body_mark(ap.project or "", p.body_hash),
    )
    tombstone.record(store, act.id, marks)
    if ap.tombs is not None:
        for fp in marks:
            ap.tombs[fp] = ap.tombs.get(fp, frozenset()) | {act.id}
    return frozenset(paths)
