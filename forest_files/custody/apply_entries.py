"""Applying the acts on entries: write, supersede and resolve.

Stores: a write's entry; a supersession's successor and adoption record (beside
a live rival when a merged branch superseded it too); a resolve's entry and
record; with an erased text, the same rows with the marker (erased_acts.py).
Refuses (``LedgerError`` naming the act, or a live command's ``ForestError``):
a write to a reserved, root or anchor bucket, or of an orphan; an entry and
record of one act that do not share a stamp, or a record that is not an
adoption_record naming its entry; a supersession of an entry not ground, or
contested, at its dependencies; a resolve whose pick is not one of its heads,
whose heads are not of one chain or not live at its dependencies, or whose text
is not the pick's; every shared rule (apply_rules.py).
Returns: the content ids made, with the paths the chain was ever bound to.
Test: tests/ledger/test_ledger_kinds.py, tests/governance/test_forget_paths.py,
tests/custody/test_applier_props.py
"""

from __future__ import annotations

from forest_files.custody import applied as book
from forest_files.custody import erased_acts
from forest_files.custody.apply_rules import ApplyRules, chain_of
from forest_files.kernel.vocab import RESERVED_BUCKETS, ROOT_BUCKET
from forest_files.ledger.acts import Act
from forest_files.ledger.kinds import EntryRecord, ResolveAct, SupersedeAct, WriteAct
from forest_files.store.base import check_kinds
from forest_files.store.entryrow import ERASED_MARK


def write(ap: ApplyRules, act: Act, p: WriteAct) -> list[str]:
    rec = p.entry
    if rec.bucket in RESERVED_BUCKETS or rec.bucket in (ROOT_BUCKET, "anchor"):
        raise ap.fail(act, f"bucket {rec.bucket!r} is never written by a write act")
    origins = check_kinds(
        [(ap.local(act, cid, "origin"), kind) for cid, kind in rec.origins],
        allow_ceremony=False,
    )
    if not origins:
        raise ap.fail(act, "orphan write: every entry needs an origin")
    new_id = ap.insert_declared(act, rec, origins, ceremony=False)
    return [ap.check_id(act, new_id, rec)]


# -- supersede and resolve --------------------------------------------------------
def _successor_shape(ap: ApplyRules, act: Act, entry: EntryRecord, record: EntryRecord) -> None:
    if entry.stamp != record.stamp:
        raise ap.fail(act, "entry and record of one act must share a stamp")
    if record.bucket != "adoption_record":
        raise ap.fail(act, "its record is an adoption_record")
    ap.record_of(act, record, entry.content_id, "adopts")


def _adoption_of(ap: ApplyRules, act: Act, entry_id: int, record: EntryRecord) -> str:
    from forest_files.custody.views import latest_record

    return ap.check_id(act, latest_record(ap.store, entry_id, "adopts"), record)


def supersede(ap: ApplyRules, act: Act, p: SupersedeAct) -> tuple[list[str], frozenset[str]]:
    store = ap.store
    old = ap.local(act, p.old, "old")
    _successor_shape(ap, act, p.entry, p.record)
    body, words = ap.body(act, p.entry), ap.body(act, p.record)
    if not book.status_at_deps(store, old, act).ground:
        raise ap.fail(act, "supersedes an entry that was not ground at its dependencies")
    if _rivals_at_deps(ap, act, old):
        raise ap.fail(
            act,
            "supersedes an entry that is not current ground: it is contested; "
            "resolve the contest first",
        )
    paths = ap.paths_of_entry(old)
    if body is None or words is None:  # replayed after an erase: its text is gone
        new_id = erased_acts.supersede(store, old, p, body, words)
    elif store.is_ground(old):
        new_id = store.supersede(
            old_id=old,
            new_body=body,
            adopting_words=words,
            adopting_signature=p.record.signature,
            signature=p.entry.signature,
            bucket=p.entry.bucket,
            scrub=None,
            expected_body_hash=p.entry.body_hash,
            stamp=p.entry.stamp,
        )
    else:  # a merged branch superseded it too: a second successor, contested after
        new_id = store.supersede_beside(
            old_id=old,
            new_body=body,
            adopting_words=words,
            adopting_signature=p.record.signature,
            signature=p.entry.signature,
            bucket=p.entry.bucket,
            stamp=p.entry.stamp,
        )
    produced = [ap.check_id(act, new_id, p.entry), _adoption_of(ap, act, new_id, p.record)]
    return produced, paths


def _rivals_at_deps(ap: ApplyRules, act: Act, entry_id: int) -> list[int]:
    """Other live heads of the entry's chain, as seen from the act's dependencies."""
    chain = chain_of(ap.store, entry_id)
    rows = ap.store.conn.execute(
        "SELECT id FROM entries WHERE (id = ? OR chain_root = ?) AND id != ? "
        "AND bucket NOT IN ('adoption_record', 'sealing_record', 'unsealing_record')",
        (chain, chain, entry_id),
    ).fetchall()
    return [int(r[0]) for r in rows if book.status_at_deps(ap.store, int(r[0]), act).ground]


def resolve(ap: ApplyRules, act: Act, p: ResolveAct) -> tuple[list[str], frozenset[str]]:
    store = ap.store
    heads = [ap.local(act, h, "head") for h in p.heads]
    pick = ap.local(act, p.pick, "pick")
    _successor_shape(ap, act, p.entry, p.record)
    if pick not in heads:
        raise ap.fail(act, "the pick is not one of the heads it resolves")
    if len({chain_of(store, h) for h in heads}) != 1:
        raise ap.fail(act, "the heads it resolves are not of one supersession chain")
    if not all(book.status_at_deps(store, h, act).ground for h in heads):
        raise ap.fail(act, "resolves a head that was not live at its dependencies")
    text, words = ap.body(act, p.entry), ap.body(act, p.record)
    picked = store.require(pick, "resolve")
    if text is None or words is None or str(picked["body"]) == ERASED_MARK:
        # replayed after an erase: the pick's hash stands for its text
        paths = ap.paths_of_entry(pick)
        new_id = erased_acts.resolve(store, sorted(heads), pick, p, words)
        produced = [ap.check_id(act, new_id, p.entry)]
        return [*produced, _adoption_of(ap, act, new_id, p.record)], paths
    if text != str(picked["body"]):
        raise ap.fail(act, "the resolved text is not the picked head's text")
    paths = ap.paths_of_entry(pick)
    new_id = store.resolve(
        contested_id=heads[0],
        pick_id=pick,
        adopting_words=words,
        adopting_signature=p.record.signature,
        stamp=p.entry.stamp,
        heads=sorted(heads),
    )
    produced = [ap.check_id(act, new_id, p.entry), _adoption_of(ap, act, new_id, p.record)]
    return produced, paths
