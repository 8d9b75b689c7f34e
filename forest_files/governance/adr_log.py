"""The decision history of ADRs, from the ledger (``forest adr log``).

Each custody act on a binding of an ADR path, in the order the index applied
them: ``adopted`` (an adopt act binding it), ``amended`` (a supersession of its
ground, or a rebind carrying new text), ``moved`` (a rebind), ``retired``,
``resolved`` (a contest ended). An act is in the log when its binding named a path
the ADR set names (governance/adr.py) at any time, before or after a move: a renamed
ADR directory keeps each decision's whole history under the old glob and the new.

Stores: nothing. Reads the checked-out ledger and the index.
Refuses: nothing itself (a damaged ledger is the reader's refusal).
Returns: ``Decision`` values (ids, paths, claimed signers, times and the recorded
words, never section text).
Test: tests/governance/test_adr.py
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from forest_files.kernel.errors import ForestError
from forest_files.ledger.kinds import AdoptAct, RebindAct, ResolveAct, RetireAct, SupersedeAct

if TYPE_CHECKING:
    from forest_files.custody.repository import Repository
    from forest_files.governance.adr import AdrSet
    from forest_files.ledger.acts import Act
    from forest_files.store.forest import ForestStore


@dataclass(frozen=True)
class Decision:
    at: str
    event: str  # adopted | amended | moved | retired | resolved
    path: str
    selector: str
    by: str  # the claimed signature
    words: str
    ground: str | None  # the content id the act made ground, if any
    act: str
    moved_to: str | None = None  # a rebind's new path


@dataclass
class _Tracks:
    """Where each binding stands, and which binding each entry's chain belongs to."""

    where: dict[str, tuple[str, str]] = field(default_factory=dict)  # bind act -> place
    chain: dict[str, str] = field(default_factory=dict)  # content id -> bind act


def decision_log(repo: Repository, adrs: AdrSet) -> list[Decision]:
    """Every act on an ADR binding, oldest first (the index's apply order)."""
    from forest_files.custody.applied import applied_ids
    from forest_files.ledger.segments import read_ledger

    store = repo.synced()
    snapshot = read_ledger(repo.ledger_dir)
    tracks = _Tracks()
    made: list[tuple[str, Decision]] = []  # (the binding's bind act, a decision on it)
    for act_id in applied_ids(store):
        act = snapshot.acts.get(act_id)
        if act is not None:
            made += _decisions(store, act, tracks)
    adr_bindings = {
        bound
        for bound, d in made
        if adrs.matches(d.path) or (d.moved_to is not None and adrs.matches(d.moved_to))
    }
    return [d for bound, d in made if bound in adr_bindings]


def _decisions(store: ForestStore, act: Act, t: _Tracks) -> list[tuple[str, Decision]]:
    p = act.payload
    if isinstance(p, AdoptAct) and p.binding is not None:
        t.where[act.id] = (p.binding.path, p.binding.selector)
        t.chain[p.entry.content_id] = act.id
        made = _made(store, act, "adopted", act.id, p.entry.content_id, p.record.content_id, t)
        return [(act.id, made)]
    if isinstance(p, SupersedeAct | ResolveAct):
        olds = (p.old,) if isinstance(p, SupersedeAct) else p.heads
        bound = next((t.chain[o] for o in olds if o in t.chain), None)
        if bound is None:
            return []
        t.chain[p.entry.content_id] = bound
        event = "amended" if isinstance(p, SupersedeAct) else "resolved"
        return [
            (bound, _made(store, act, event, bound, p.entry.content_id, p.record.content_id, t))
        ]
    if isinstance(p, RebindAct) and p.binding in t.where:
        old_path, _ = t.where[p.binding]
        t.where[p.binding] = (p.path, p.selector)
        words, ground = "", None
        if p.supersede is not None:  # moved with new text adopted in the same act
            ground = p.supersede.entry.content_id
            t.chain[ground] = p.binding
            words = _words(store, p.supersede.record.content_id)
        moved = Decision(p.at, "moved", old_path, p.selector, p.by, words, ground, act.id, p.path)
        return [(p.binding, moved)]
    if isinstance(p, RetireAct) and p.binding in t.where:
        path, selector = t.where[p.binding]
        return [(p.binding, Decision(p.at, "retired", path, selector, p.by, p.words, None, act.id))]
    return []


def _made(
    store: ForestStore, act: Act, event: str, bound: str, entry: str, record: str, t: _Tracks
) -> Decision:
    """A decision whose act made ``entry`` ground with the words of ``record``."""
    p = act.payload
    assert isinstance(p, AdoptAct | SupersedeAct | ResolveAct)
    path, selector = t.where.get(bound, ("", ""))
    words = _words(store, record)
    return Decision(
        p.entry.created_at, event, path, selector, p.record.signature, words, entry, act.id
    )


def _words(store: ForestStore, record: str) -> str:
    """The words an adoption record holds ("" when erased or unknown here)."""
    try:
        row = store.get(store.local_id(record))
    except ForestError:
        return ""
    if row is None or row["body"] is None:
        return ""
    return "[sealed]" if store.is_sealed(int(row["id"])) else str(row["body"])
