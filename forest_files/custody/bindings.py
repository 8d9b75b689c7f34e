"""Bindings in the index: which ground lives in which file section.

Stores: ``binding_events`` (a local cache table, rebuilt from the ledger; its SQL in
bindings_sql.py):
one row per binding made by an ``adopt`` act, per ``rebind`` and per
``retire``, in apply order. A binding's current state is derived (latest
event wins, but of two rebinds merged branches made, the one rebind_tips.py
settles on; any retire ends it, and a later rebind never revives it), never
updated.
Refuses (``LedgerError`` naming the act): a binding whose section hash is not
the adopted entry's body hash, a path that is not repository-relative or is a
special path (``.git/``, ``.forest/``, ``forest.toml``), a rebind or retire of
an unknown binding.
Returns: ``Binding`` values; ``contested`` marks two live bindings of one
path + selector (two branches bound it, then merged); the bound paths of a
supersession chain (what an act on that chain has authority over).
Test: tests/custody/test_file_custody.py, tests/governance/test_authority_derived.py

A binding names the entry it was made for; its ground is the current live
head of that entry's supersession chain, so a supersession carries the
binding to the new entry without any act on the binding itself. No hash a
binding records is evidence about a file: checks hash what they read.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

# The path rule (repository-relative, never special) is the kernel's, shared with the codec.
from forest_files.custody import bindings_sql as sql
from forest_files.kernel.repopath import check_repo_path as check_repo_path

# json and the ledger's acts are imported where used: a check reading a binding map
# (bindmap.py) needs only ``Binding`` (the ledger's kinds cost ~10 ms to import).

if TYPE_CHECKING:
    from forest_files.ledger.kinds import BindSpec, RebindAct, RetireAct

if TYPE_CHECKING:  # annotations only: a check reading a binding map never opens a store
    from forest_files.store.forest import ForestStore


_BOUND, _RETIRED = 8, 9  # where a folded state holds who bound it, and whether retired


@dataclass(frozen=True)
class Binding:
    """The current state of one binding (derived from its events)."""

    bind_act: str
    path: str
    selector: str
    excludes: tuple[str, ...]
    normalisation: str
    hash_algo: str
    section_hash: str
    entry_id: int
    bound_by: str
    retired: bool
    contested: bool = False


_FIELD_NAMES = tuple(f.name for f in fields(Binding))


def ensure_table(store: ForestStore) -> None:
    store.conn.execute(sql.TABLE)
    for statement in sql.INDEXES:
        store.conn.execute(statement)


def table_current(store: ForestStore) -> bool:
    """False for an index whose binding table an older forest-files made."""
    ensure_table(store)
    columns = {str(r[1]) for r in store.conn.execute("PRAGMA table_info(binding_events)")}
    return "file_hash" not in columns


def apply_bind(
    store: ForestStore, act_id: str, spec: BindSpec, entry_id: int, *, by: str, at: str
) -> None:
    """Record the binding an adopt act makes (the caller checked the entry and spec)."""
    apply_binds(store, [(act_id, spec, entry_id, by, at)])


def apply_binds(store: ForestStore, binds: Sequence[tuple[str, BindSpec, int, str, str]]) -> None:
    """``apply_bind`` for a batch of (act id, spec, entry id, by, at)."""
    import json

    ensure_table(store)
    # A batch's bindings mostly share their rules: each distinct value encoded once.
    # Normalisations ride as normalise:NAME@V.
    ruled = [(b, b[1].rules) for b in binds]
    encoded = {rules: json.dumps(list(rules)) for rules in {r for _, r in ruled}}
    rows = [
        (
            act_id,
            act_id,
            "bind",
            spec.path,
            spec.selector,
            encoded[rules],
            spec.normalisation,
            spec.hash_algo,
            spec.section_hash,
            entry_id,
            by,
            at,
        )
        for (act_id, spec, entry_id, by, at), rules in ruled
    ]
    store.conn.executemany(sql.INSERT, rows)


def binding_of(store: ForestStore, bind_act: str, *, act_id: str) -> Binding:
    """The current state of the binding made by ``bind_act`` (retired ones too)."""
    ensure_table(store)
    rows = store.conn.execute(sql.BINDING_EVENTS, (bind_act,)).fetchall()
    state = _fold(_settled(store, rows)[0])
    if bind_act not in state:
        from forest_files.ledger.acts import LedgerError

        raise LedgerError(f"act {act_id}: unknown binding {bind_act}", act_id=act_id)
    return Binding(*state[bind_act])


def apply_rebind(store: ForestStore, act_id: str, act: RebindAct, current: Binding) -> None:
    import json

    store.conn.execute(
        sql.INSERT,
        (
            act_id,
            current.bind_act,
            "rebind",
            act.path,
            act.selector,
            json.dumps(list(_renormalised(current.excludes, act.normalise))),
            current.normalisation,
            current.hash_algo,
            act.section_hash,
            current.entry_id,
            act.by,
            act.at,
        ),
    )


def _renormalised(rules: tuple[str, ...], normalise: tuple[str, ...] | None) -> tuple[str, ...]:
    """A binding's rules after a rebind: its normalisations replaced when the act
    names them (ledger format 3), kept otherwise."""
    if normalise is None:
        return rules
    from forest_files.ledger.kinds import rules_of

    return rules_of(tuple(r for r in rules if not r.startswith("normalise:")), normalise)


def apply_retire(store: ForestStore, act_id: str, act: RetireAct, current: Binding) -> None:
    store.conn.execute(
        sql.INSERT,
        (
            act_id, current.bind_act, "retire", None, None, None, None, None, None,
            current.entry_id, act.by, act.at,
        ),
    )  # fmt: skip


def chain_paths(store: ForestStore, chain: int) -> frozenset[str]:
    """Every path a live binding of the supersession chain ``chain`` names."""
    ensure_table(store)
    live: dict[str, str | None] = {}
    for bind_act, kind, path, _ in store.conn.execute(sql.CHAIN_EVENTS, (chain, chain)):
        if kind == "retire":
            live[str(bind_act)] = None
        elif kind == "bind" or live.get(str(bind_act)) is not None:
            live[str(bind_act)] = str(path)
    return frozenset(p for p in live.values() if p is not None)


def chain_paths_ever(store: ForestStore, chain: int) -> frozenset[str]:
    """Every path a binding of the supersession chain ``chain`` ever named: live or
    retired, before and after each rebind (what an act on the chain is judged over)."""
    ensure_table(store)
    rows = store.conn.execute(sql.CHAIN_EVENTS, (chain, chain))
    return frozenset(str(path) for _, kind, path, _ in rows if kind != "retire" and path)


def _fold(rows: Iterable[Any]) -> dict[str, list[Any]]:
    """Binding states from their events (``sql.EVENT``'s columns), in seq order: the latest
    location wins; a retire ends a binding and nothing after it revives it. A state is
    ``Binding``'s fields in its order (``contested`` False: all_bindings sets it), made
    a ``Binding`` once."""
    import json

    state: dict[str, list[Any]] = {}
    for _, _, bind_act, kind, path, sel, rules, norm, algo, section, entry, by in rows:
        key = str(bind_act)
        previous = state.get(key)
        if kind == "retire":
            if previous is not None:
                previous[_RETIRED] = True
            continue
        if previous is None and kind != "bind":
            continue  # an orphan event: replay never writes one
        excludes = () if rules in (None, "[]") else tuple(json.loads(rules))
        bound_by, retired = (by, False) if previous is None else previous[_BOUND : _RETIRED + 1]
        state[key] = [
            key,
            path,
            sel,
            excludes,
            norm,
            algo,
            section,
            int(entry),
            bound_by,
            retired,
            False,
        ]
    return state


def _settled(store: ForestStore, rows: list[Any]) -> tuple[list[Any], dict[str, tuple[str, ...]]]:
    """Rows ordered to fold alike in every index, and the bindings rebound twice."""
    from forest_files.custody.rebind_tips import settled

    return settled(store.conn, rows)


def all_bindings(
    store: ForestStore, *, include_retired: bool = False, paths: Iterable[str] | None = None
) -> list[Binding]:
    """Every binding's current state, ordered by path then selector. With ``paths``,
    only bindings that ever named one of them (a hook judging a few staged files)."""
    ensure_table(store)
    if paths is None:
        rows = store.conn.execute(sql.ALL_EVENTS).fetchall()
    else:
        wanted = sorted(set(paths))
        rows = []
        for start in range(0, len(wanted), 500):
            chunk = wanted[start : start + 500]
            rows += store.conn.execute(sql.events_at(len(chunk)), chunk).fetchall()
        rows.sort(key=lambda r: int(r["seq"]))
    state = _fold(_settled(store, rows)[0])
    counts: dict[tuple[str, str], int] = {}
    live = [v for v in state.values() if not v[_RETIRED]]
    for v in live:
        counts[v[1], v[2]] = counts.get((v[1], v[2]), 0) + 1  # path, selector
    kept = list(state.values()) if include_retired else live
    for v in kept:  # contested: two live bindings or more at its place
        v[-1] = counts.get((v[1], v[2]), 0) > 1
    return sorted(made(kept), key=lambda b: (b.path, b.selector, b.bind_act))


def made(states: Iterable[Sequence[Any]]) -> list[Binding]:
    """A ``Binding`` of each state: ``Binding``'s fields in its order, then anything
    after them ignored (a saved map's row ends with its ground: bindmap.py ``load``).
    Its instance dict is filled in place, not through the frozen ``__init__`` that sets
    each field through ``object.__setattr__`` (half the cost at 10,000 bindings, a
    fresh clone's ``forest ci``). Equal to, and hashes as, ``Binding(*state[:11])``.
    Refuses (``ValueError``) a state shorter than the fields."""
    new, names, count = object.__new__, _FIELD_NAMES, len(_FIELD_NAMES)
    out: list[Binding] = []
    for state in states:
        if len(state) < count:
            raise ValueError(f"a binding's state holds {len(state)} values, not {count}")
        binding = new(Binding)
        binding.__dict__.update(zip(names, state, strict=False))
        out.append(binding)
    return out
