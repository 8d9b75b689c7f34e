"""What ``forest log`` lists: each custody act the index applied, oldest first, by ids.

Stores: nothing.
Refuses: nothing (an act the ledger on disk no longer holds is left out).
Returns: ``LogEntry`` values — act id, kind, the entry it is about, what it made,
signer, time, and (actlog.py) the bound section and the words; for a rebind, the
selector the binding stood at before it as the rebind's deps record it (``moved_from``:
on two or more merged branches each rebind from its own place); never a body.
Test: tests/custody/test_repository.py, tests/doors/test_cli.py,
      tests/doors/test_log_rebound_twice.py
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from forest_files.custody.replay import applied_ids
from forest_files.ledger.act_order import topo_order
from forest_files.ledger.acts import Act
from forest_files.ledger.kinds import (
    AdoptAct,
    EraseAct,
    RebindAct,
    ResolveAct,
    RetireAct,
    SealAct,
    SupersedeAct,
)
from forest_files.ledger.segments import read_ledger
from forest_files.store.forest import ForestStore


@dataclass(frozen=True)
class LogEntry:
    """One custody act: ``subject`` is the entry it is about, ``result`` what it made."""

    act_id: str
    kind: str
    subject: str
    result: str
    by: str
    created_at: str
    selector: str = ""  # the bound section the act is about (actlog.py), if any
    words: str = ""  # the words it recorded, if any
    moved_from: str = ""  # a rebind: where its binding stood before it


def log_of(store: ForestStore, ledger_dir: Path) -> list[LogEntry]:
    """The custody acts ``store`` applied (bodies never included), oldest first: in
    dependency order, and among acts that do not depend on each other by the time
    each claims, then by id. The order depends only on the ledger, so every clone
    lists it alike (a replay applies independent acts by id, not by time)."""
    snapshot = read_ledger(ledger_dir)
    from forest_files.custody.actlog import described

    applied = [a for a in map(snapshot.acts.get, applied_ids(store)) if a is not None]
    entries = {act.id: _log_entry(act) for act in applied}
    kept = set(entries)
    gone = {d for act in applied for d in act.deps if d not in kept}  # left out above
    acts = topo_order(applied, satisfied=gone, first=lambda act: entries[act.id].created_at)
    said = described(store, ledger_dir, acts)
    places = _Places()
    out: list[LogEntry] = []
    for act in acts:
        selector, words = said.get(act.id, ("", ""))
        entry = replace(entries[act.id], selector=selector, words=words)
        p = act.payload
        if isinstance(p, AdoptAct) and p.binding is not None:
            places.put(act, act.id, p.binding.selector)
        elif isinstance(p, RebindAct):
            entry = replace(entry, moved_from=places.before(act, p.binding))
            places.put(act, p.binding, p.selector)
        out.append(entry)
    return out


class _Places:
    """Where each binding stood after each of its events (adopt, rebind), and where
    it stands in the order the log lists them."""

    def __init__(self) -> None:
        self._at: dict[str, tuple[str, str, frozenset[str]]] = {}  # act: binding, place, deps
        self._last: dict[str, str] = {}  # bind act -> its place, act by act

    def put(self, act: Act, binding: str, place: str) -> None:
        self._at[act.id] = (binding, place, frozenset(act.deps))
        self._last[binding] = place

    def before(self, act: Act, binding: str) -> str:
        """Where ``binding`` stood as the rebind ``act`` records it: the place of the
        binding's event it depends on (a rebind depends on the binding's latest
        event: custody/record_rebind.py), not the one the log listed last, which on
        merged branches is another branch's move. Depending on several (a
        rebind settling one rebound twice), the latest of them, the tip whose act
        id sorts last where they are tips alike (custody/rebind_tips.py); a rebind
        naming none of them (an older ledger), where the log had it."""
        mine = {d for d in act.deps if self._at.get(d, ("",))[0] == binding}
        tips = [d for d in mine if not any(d in self._at[o][2] for o in mine)]
        if not tips:
            return self._last.get(binding, "")
        return self._at[max(tips)][1]


def _log_entry(act: Act) -> LogEntry:
    """What ``forest log`` shows of one act: ids, signer and time, never a body."""
    p = act.payload
    if isinstance(p, RebindAct):
        return LogEntry(act.id, act.kind, p.selector, p.binding, p.by, p.at)
    if isinstance(p, RetireAct):
        return LogEntry(act.id, act.kind, p.binding, p.binding, p.by, p.at)
    if isinstance(p, EraseAct):
        return LogEntry(act.id, act.kind, p.body_hash, act.id, p.by, p.at)
    if isinstance(p, SealAct):
        record = p.record
        return LogEntry(act.id, act.kind, p.target, record.content_id, p.signer, record.created_at)
    entry = p.entry
    if isinstance(p, AdoptAct):
        subject = p.binding.selector if p.binding is not None else entry.content_id
    elif isinstance(p, SupersedeAct):
        subject = p.old
    elif isinstance(p, ResolveAct):
        subject = p.pick
    else:
        subject = entry.content_id
    return LogEntry(act.id, act.kind, subject, entry.content_id, p.signer, entry.created_at)
