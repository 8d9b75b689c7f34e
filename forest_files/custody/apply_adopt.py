"""Applying adopt acts: consecutive adopts in one batch, an erased one on its own.

Stores: each adopt's import entry and adoption record (``insert_adoptions`` for a
batch; one at a time for an adopt whose body or words a recorded erase removed,
its text the marker), its binding, its bookkeeping (``applied``) and bound path.
Refuses (``LedgerError`` naming the act, or a live command's ``ForestError``):
an adopt of anything but a fresh 'import' entry (home, no source) with exactly
one derived_from origin; a record that is not an adoption_record naming exactly
its entry; a binding whose section hash is not the adopted body's hash or whose
selector is not valid or does not name its path; every shared rule
(apply_rules.py).
Returns: one ``Applied`` per act, in the order given.
Test: tests/custody/test_bulk_adopt.py, tests/custody/test_applier_equivalence.py,
tests/ledger/test_ledger_kinds.py
"""

from __future__ import annotations

from collections.abc import Sequence

from forest_files.custody import applied as book
from forest_files.custody import bindings
from forest_files.custody.apply_rules import Applied, ApplyRules
from forest_files.kernel.errors import ForestError, NoSpace, StoreBusy, StoreCorruption
from forest_files.ledger.acts import Act, LedgerError
from forest_files.ledger.kinds import AdoptAct, BindSpec
from forest_files.store.bulk import Adoption


def adopts(ap: ApplyRules, acts: Sequence[tuple[Act, AdoptAct]]) -> list[Applied]:
    plans, checked = _plans(ap, acts)
    try:
        made = ap.store.insert_adoptions(plans) if plans else []
    except (StoreBusy, StoreCorruption, NoSpace):
        raise
    except ForestError as exc:
        if ap.live:
            raise
        raise ap.fail(acts[0][0], f"refused: {exc}") from None
    results: dict[str, Applied] = {}
    binds: list[tuple[str, BindSpec, int, str, str]] = []
    marks: list[tuple[Act, list[str]]] = []
    for (act, p), new in zip(checked, made, strict=True):
        # The rows' content ids are the ones inserted (``rows.adopt``'s, the function
        # the planner describes them with), compared without reading them back.
        produced = [ap.same_row(act, new.entry, p.entry)]
        produced.append(ap.same_row(act, new.record, p.record))
        if p.binding is not None:
            binds.append((act.id, p.binding, new.entry_id, p.record.signature, p.record.created_at))
        paths = frozenset() if p.binding is None else frozenset({p.binding.path})
        results[act.id] = Applied(act, tuple(produced), paths)
        marks.append((act, produced))
    bindings.apply_binds(ap.store, binds)
    book.mark_applied_many(ap.store, marks)
    book.record_paths(
        ap.store, [(a.id, r.paths) for a, r in ((a, results[a.id]) for a, _ in marks)]
    )
    for act, p in acts:
        if act.id not in results:
            results[act.id] = _adopt_erased(ap, act, p)
    return [results[act.id] for act, _ in acts]


def _plans(
    ap: ApplyRules, acts: Sequence[tuple[Act, AdoptAct]]
) -> tuple[list[Adoption], list[tuple[Act, AdoptAct]]]:
    """Each adopt checked and planned; one whose body was erased is left out."""
    plans: list[Adoption] = []
    checked: list[tuple[Act, AdoptAct]] = []
    for act, p in acts:
        ap.scope(act)
        try:
            plan = _adopt_plan(ap, act, p)
        except (LedgerError, StoreBusy, StoreCorruption, NoSpace):
            raise
        except ForestError as exc:
            if ap.live:
                raise
            raise ap.fail(act, f"refused: {exc}") from None
        if plan is None:  # an erased body: the one-entry path keeps the marker
            continue
        plans.append(plan)
        checked.append((act, p))
    return plans, checked


def _adopt_plan(ap: ApplyRules, act: Act, p: AdoptAct) -> Adoption | None:
    entry, record = p.entry, p.record
    if entry.bucket != "import" or entry.jurisdiction != "home" or entry.source is not None:
        raise ap.fail(act, "an adopt imports a fresh 'import' entry (home, no source)")
    if len(entry.origins) != 1 or entry.origins[0][1] != "derived_from":
        raise ap.fail(act, "an adopted import has exactly one derived_from origin")
    if record.bucket != "adoption_record":
        raise ap.fail(act, "an adopt's record is an adoption_record")
    ap.record_of(act, record, entry.content_id, "adopts")
    origin = ap.local(act, entry.origins[0][0], "origin")
    if p.binding is not None:
        _check_spec(ap, act, p.binding, entry.body_hash)
    body, words = ap.body(act, entry), ap.body(act, record)
    if body is None or words is None:
        return None
    ap.refuse_tombstoned(act)
    return Adoption(
        body=body,
        meta=entry.meta,
        origin=origin,
        signature=entry.signature,
        words=words,
        speaker=record.signature,
        entry_stamp=entry.stamp,
        record_stamp=record.stamp,
        body_hash=entry.body_hash,  # ``ap.body`` hashed the text it read to this
        # An act with its line was made by the codec (ledger/acts.py ``decode_line``,
        # ``make_act``), whose parse judged each record's meta (``EntryRecord.parse``:
        # ``bounds.check_meta``); a hand-made act's meta is judged by the row's check.
        meta_judged=act.line is not None,
    )


def _check_spec(ap: ApplyRules, act: Act, spec: BindSpec, body_hash: str) -> None:
    from forest_files.text.selector import parse_selector
    from forest_files.text.selector_errors import SelectorError

    if spec.section_hash != body_hash:
        raise ap.fail(act, "the binding's section_hash is not the adopted body's hash")
    try:
        named = parse_selector(spec.selector).path
    except SelectorError as exc:  # a ledger's selector was never typed: no forms listed
        raise ap.fail(act, f"the binding's selector is not valid: {exc.problem}") from None
    except ValueError as exc:
        raise ap.fail(act, f"the binding's selector is not valid: {exc}") from None
    if named != spec.path:
        raise ap.fail(act, f"the binding's selector names {named}, not its path")


def _adopt_erased(ap: ApplyRules, act: Act, p: AdoptAct) -> Applied:
    """An adopt whose body or words a recorded erasure removed: one entry at a time."""
    store = ap.store
    origin = ap.local(act, p.entry.origins[0][0], "origin")
    entry_id = ap.insert_declared(act, p.entry, [(origin, "derived_from")], ceremony=False)
    record_id = ap.insert_declared(act, p.record, [(entry_id, "adopts")], ceremony=True)
    produced = [ap.check_id(act, entry_id, p.entry), ap.check_id(act, record_id, p.record)]
    paths: frozenset[str] = frozenset()
    if p.binding is not None:
        bindings.apply_bind(
            store, act.id, p.binding, entry_id, by=p.record.signature, at=p.record.created_at
        )
        paths = frozenset({p.binding.path})
    book.mark_applied(store, act.id, produced, deps=act.deps)
    book.record_paths(store, [(act.id, paths)])
    return Applied(act, tuple(produced), paths)
