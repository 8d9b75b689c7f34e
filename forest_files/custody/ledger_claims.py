"""What the ledger declares about bindings and grounds, read for the index proof.

The index proof (indexproof.py) compares the index with these declarations: the
entries acts declared (content id and body hash), which were superseded or left
sealed, each binding's rules, the place its latest act named (its adopt's, or its
last rebind's), its adopt act's entry, the
retired bindings, and which entry each supersession or resolve put after another.

Stores: nothing.
Refuses: nothing (a line the quick reading cannot take is read the typed way).
Returns: ``claims_of_ledger`` / ``claims_of`` a ``Claims``; ``chain_of`` every entry of
the chain an entry began.
Test: tests/custody/test_indexproof.py, tests/custody/test_indexproof_places.py
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from forest_files.ledger.kinds import (
    AdoptAct,
    EntryRecord,
    RebindAct,
    ResolveAct,
    RetireAct,
    SealAct,
    SupersedeAct,
    UnsealAct,
    rules_of,
)

if TYPE_CHECKING:
    from forest_files.ledger.segments import LedgerSnapshot


@dataclass
class Claims:
    """What the ledger declares about bindings and grounds."""

    declared: dict[str, str] = field(default_factory=dict)  # content id -> body hash
    superseded: set[str] = field(default_factory=set)
    sealed: set[str] = field(default_factory=set)
    specs: dict[str, tuple[tuple[str, ...], str, str]] = field(default_factory=dict)
    places: dict[str, set[tuple[str, str]]] = field(default_factory=dict)  # its latest
    retired: set[str] = field(default_factory=set)
    entry_of: dict[str, str] = field(default_factory=dict)  # bind act -> its first entry
    after: dict[str, set[str]] = field(default_factory=dict)  # content id -> successors
    # bind act -> {act id of its adopt or a rebind: (the place it named, its deps)}
    moves: dict[str, dict[str, tuple[tuple[str, str], tuple[str, ...]]]] = field(
        default_factory=dict
    )


class _Mixed(Exception):
    """A target both sealed and unsealed, or a binding's normalisations changed: only
    the acts' dependency order decides."""


def claims_of_ledger(ledger_dir: Path) -> Claims:
    """The ledger's declarations, read from its segments' JSON lines alone: the index
    was synced from these very segments (every act checked when applied), so the
    proof needs their fields, not a second full decode (0.2 s, not 2 s, at 10,000
    acts). An entry both sealed and unsealed, or a line that is not what the
    format says, or a rebind that changes normalisations, is read the typed way
    instead (``claims_of``, in act order)."""
    import json

    from forest_files.ledger.segment_files import segment_paths
    from forest_files.ledger.segments import read_ledger

    out = Claims()
    seals: dict[str, set[bool]] = {}
    try:
        for path in segment_paths(ledger_dir):
            for line in path.read_bytes().split(b"\n"):
                if line:
                    _claim_raw(out, seals, json.loads(line))
        if any(len(kinds) > 1 for kinds in seals.values()):
            raise _Mixed
    except (_Mixed, ValueError, TypeError, KeyError, AttributeError):
        return claims_of(read_ledger(ledger_dir))
    out.sealed = {target for target, kinds in seals.items() if True in kinds}
    return _latest_places(out)


def _renormalise(out: Claims, binding: str, normalise: tuple[str, ...]) -> None:
    """A rebind that names normalisations: the binding's rules from then on."""
    made = out.specs.get(binding)
    if made is not None:
        kept = tuple(r for r in made[0] if not r.startswith("normalise:"))
        out.specs[binding] = (rules_of(kept, normalise), made[1], made[2])


def _claim_raw(out: Claims, seals: dict[str, set[bool]], d: dict[str, Any]) -> None:
    kind, act_id = d["kind"], d["id"]
    for name in ("entry", "record"):
        if name in d:
            out.declared[str(d[name]["content_id"])] = str(d[name]["body_hash"])
    if kind == "adopt" and d.get("binding") is not None:
        spec = d["binding"]
        rules = rules_of(tuple(spec["excludes"]), spec.get("normalise"))
        out.specs[act_id] = (rules, spec["normalisation"], spec["hash_algo"])
        _moved(out, act_id, act_id, (spec["path"], spec["selector"]), d["deps"])
        out.entry_of[act_id] = str(d["entry"]["content_id"])
    elif kind == "supersede":
        out.superseded.add(d["old"])
        out.after.setdefault(d["old"], set()).add(str(d["entry"]["content_id"]))
    elif kind == "resolve":
        out.superseded.update(d["heads"])
        for head in d["heads"]:
            out.after.setdefault(head, set()).add(str(d["entry"]["content_id"]))
    elif kind == "rebind":
        _moved(out, d["binding"], act_id, (d["path"], d["selector"]), d["deps"])
        if "normalise" in d:  # which change is the latest: only act order decides
            raise _Mixed
        if d.get("supersede") is not None:
            _claim_raw(out, seals, {**d["supersede"], "kind": "supersede", "id": act_id})
    elif kind == "retire":
        out.retired.add(d["binding"])
    elif kind in ("seal", "unseal"):
        seals.setdefault(d["target"], set()).add(kind == "seal")


def claims_of(snapshot: LedgerSnapshot) -> Claims:
    """The ledger's declarations, its acts taken in dependency order (seals and unseals
    of one entry end in the state the last of them left)."""
    out = Claims()
    for act in snapshot.ordered():
        _claim(out, act.id, act.payload, act.deps)
    return _latest_places(out)


def _claim(out: Claims, act_id: str, payload: object, deps: tuple[str, ...] = ()) -> None:
    for name in ("entry", "record"):
        record = getattr(payload, name, None)
        if isinstance(record, EntryRecord):
            out.declared[record.content_id] = record.body_hash
    if isinstance(payload, AdoptAct) and payload.binding is not None:
        spec = payload.binding
        out.specs[act_id] = (spec.rules, spec.normalisation, spec.hash_algo)
        _moved(out, act_id, act_id, (spec.path, spec.selector), deps)
        out.entry_of[act_id] = payload.entry.content_id
    elif isinstance(payload, SupersedeAct):
        out.superseded.add(payload.old)
        out.after.setdefault(payload.old, set()).add(payload.entry.content_id)
    elif isinstance(payload, ResolveAct):
        out.superseded.update(payload.heads)
        for head in payload.heads:
            out.after.setdefault(head, set()).add(payload.entry.content_id)
    elif isinstance(payload, RebindAct):
        _moved(out, payload.binding, act_id, (payload.path, payload.selector), deps)
        if payload.normalise is not None:
            _renormalise(out, payload.binding, payload.normalise)
        if payload.supersede is not None:
            _claim(out, act_id, payload.supersede)
    elif isinstance(payload, RetireAct):
        out.retired.add(payload.binding)
    elif isinstance(payload, UnsealAct):  # before SealAct: an unseal is a kind of seal act
        out.sealed.discard(payload.target)
    elif isinstance(payload, SealAct):
        out.sealed.add(payload.target)


def _moved(out: Claims, binding: str, act_id: str, place: tuple[str, str], deps: object) -> None:
    """An adopt or rebind act of ``binding`` that named ``place``."""
    if not isinstance(deps, list | tuple) or not all(isinstance(d, str) for d in deps):
        raise TypeError("deps")  # not what the format says: read the typed way
    out.moves.setdefault(binding, {})[act_id] = (place, tuple(deps))


def _latest_places(out: Claims) -> Claims:
    """Each binding's place as its latest act named it: the adopt's, or the last
    rebind's (its acts none of the binding's others depends on; a rebind lists every
    earlier act of its binding among its deps, so in one history there is one, and
    rebinds of two merged branches leave each's, either of which the index holds)."""
    for binding, acts in out.moves.items():
        before = {d for _place, deps in acts.values() for d in deps}
        out.places[binding] = {place for a, (place, _d) in acts.items() if a not in before}
    return out


def chain_of(first: str | None, claims: Claims) -> set[str]:
    """Every entry of the chain ``first`` began: it and each entry put after one."""
    seen: set[str] = set()
    todo = [first] if first is not None else []
    while todo:
        cid = todo.pop()
        if cid not in seen:
            seen.add(cid)
            todo += claims.after.get(cid, ())
    return seen


__all__ = ["Claims", "chain_of", "claims_of", "claims_of_ledger"]
