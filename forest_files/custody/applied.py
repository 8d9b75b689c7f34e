"""What this index has applied: act bookkeeping and status at an act's dependencies.

Stores: two local index tables (``ledger_applied``: act id → content ids it
produced, its deps and depth, in apply order; ``ledger_entry_acts``: content
id → the act that produced it) and ``ledger_act_paths`` (act id → every
bound path the act touched, as its applier derived them: what authority is
judged over).
Refuses (``LedgerError``): an act depending on an act this index never applied.
Returns: applied ids, producers, what an act produced (``produced_by``), the deps
each act was applied with (``recorded_deps``), a new act's deps (``deps_for``), an
entry's status as seen from an act's dependency closure (``status_at_deps``).
Test: tests/custody/test_repository.py, tests/ledger/test_ledger_equivalence.py

Judging at the dependencies: status is read from the status-changing edges
whose producing act lies in the act's dependency closure. Closures are not
materialised: for each producer of a status edge of the entry, a backward walk
over the deps the index recorded (``ledger_applied.deps``) asks whether it is
an ancestor, pruned below the producer's depth, so replaying a few new acts
never needs the rest of the ledger in memory. Known limit: "contested at the
dependencies" is not computed; an entry counts as ground there if adopted, not
superseded and not sealed.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from forest_files.ledger.acts import Act, LedgerError, is_hex64
from forest_files.store.forest import ForestStore

BodyReader = Callable[[str], str | None]
STATUS_EDGES = ("adopts", "supersedes", "seals", "unseals")

# ``deps``: the act's deps, space-separated; ``depth``: 1 + the largest depth of its
# deps (0 without deps), so an ancestor search can stop below the depth it looks for.
_TABLES = (
    "CREATE TABLE IF NOT EXISTS ledger_applied (act_id TEXT PRIMARY KEY, entry_ids TEXT, "
    "deps TEXT NOT NULL, depth INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS ledger_entry_acts "
    "(content_id TEXT PRIMARY KEY, act_id TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS ledger_segments (name TEXT PRIMARY KEY, size INTEGER NOT NULL, "
    "mtime_ns INTEGER NOT NULL, checked_ns INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS ledger_act_paths (act_id TEXT NOT NULL, path TEXT NOT NULL, "
    "PRIMARY KEY (act_id, path))",
)


def ensure_tables(store: ForestStore) -> None:
    for sql in _TABLES:
        store.conn.execute(sql)


def tables_current(store: ForestStore) -> bool:
    """False for an index whose ledger tables an older forest-files made (rebuild it)."""
    from forest_files.custody.bindings import table_current

    ensure_tables(store)
    applied = {str(r[1]) for r in store.conn.execute("PRAGMA table_info(ledger_applied)")}
    segments = {str(r[1]) for r in store.conn.execute("PRAGMA table_info(ledger_segments)")}
    return {"deps", "depth"} <= applied and "checked_ns" in segments and table_current(store)


def record_paths(store: ForestStore, made: Sequence[tuple[str, Iterable[str]]]) -> None:
    """Remember the bound paths each (act id, paths) touched."""
    store.conn.executemany(
        "INSERT OR IGNORE INTO ledger_act_paths (act_id, path) VALUES (?, ?)",
        [(act_id, path) for act_id, paths in made for path in sorted(paths)],
    )


def act_paths(store: ForestStore, act_ids: Iterable[str]) -> dict[str, frozenset[str]]:
    """The bound paths each applied act touched (empty for an act that touched none)."""
    wanted = sorted(set(act_ids))
    out: dict[str, set[str]] = {a: set() for a in wanted}
    for start in range(0, len(wanted), 500):
        chunk = wanted[start : start + 500]
        marks = ",".join("?" * len(chunk))
        rows = store.conn.execute(
            f"SELECT act_id, path FROM ledger_act_paths WHERE act_id IN ({marks})", chunk
        )
        for act_id, path in rows:
            out[str(act_id)].add(str(path))
    return {a: frozenset(p) for a, p in out.items()}


def is_applied(store: ForestStore, act_id: str) -> bool:
    row = store.conn.execute("SELECT 1 FROM ledger_applied WHERE act_id = ?", (act_id,))
    return row.fetchone() is not None


def produced_by(store: ForestStore, act_id: str) -> tuple[str, ...] | None:
    """The content ids an applied act produced, in the order it produced them; None
    when this index never applied it."""
    row = store.conn.execute(
        "SELECT entry_ids FROM ledger_applied WHERE act_id = ?", (act_id,)
    ).fetchone()
    return None if row is None else tuple(str(c) for c in json.loads(row[0] or "[]"))


def _applied_deps(store: ForestStore, act_id: str) -> tuple[tuple[str, ...], int] | None:
    """(deps, depth) of an applied act, or None when this index never applied it."""
    row = store.conn.execute(
        "SELECT deps, depth FROM ledger_applied WHERE act_id = ?", (act_id,)
    ).fetchone()
    return None if row is None else (tuple(str(row[0]).split()), int(row[1]))


def recorded_deps(store: ForestStore, act_ids: Iterable[str]) -> dict[str, frozenset[str]]:
    """The deps this index applied each of ``act_ids`` with (one it never applied: none)."""
    out: dict[str, frozenset[str]] = {}
    for act_id in act_ids:
        found = _applied_deps(store, act_id)
        out[act_id] = frozenset() if found is None else frozenset(found[0])
    return out


def _depth(store: ForestStore, act_id: str, deps: Sequence[str]) -> int:
    """The act's depth; refuses a dep this index has not applied (replay's order puts
    every dep first, and a live act names only applied acts)."""
    depth = 0
    for dep in deps:
        found = _applied_deps(store, dep)
        if found is None:
            raise LedgerError(f"act {act_id} depends on unknown act {dep}", act_id=act_id)
        depth = max(depth, found[1] + 1)
    return depth


def applied_ids(store: ForestStore) -> list[str]:
    """Act ids applied to this index, in the order they were applied."""
    ensure_tables(store)
    rows = store.conn.execute("SELECT act_id FROM ledger_applied ORDER BY rowid").fetchall()
    return [str(r[0]) for r in rows]


def creator_act(store: ForestStore, content_id: str) -> str | None:
    row = store.conn.execute(
        "SELECT act_id FROM ledger_entry_acts WHERE content_id = ?", (content_id,)
    ).fetchone()
    return None if row is None else str(row[0])


_INSERT_APPLIED = "INSERT INTO ledger_applied (act_id, entry_ids, deps, depth) VALUES (?, ?, ?, ?)"
_INSERT_ENTRY_ACT = "INSERT INTO ledger_entry_acts (content_id, act_id) VALUES (?, ?)"


def mark_applied(
    store: ForestStore, act_id: str, content_ids: Sequence[str], *, deps: Sequence[str]
) -> None:
    store.conn.execute(
        _INSERT_APPLIED,
        (act_id, json.dumps(list(content_ids)), " ".join(deps), _depth(store, act_id, deps)),
    )
    store.conn.executemany(_INSERT_ENTRY_ACT, [(cid, act_id) for cid in content_ids])


def _id_list(content_ids: Sequence[str]) -> str:
    """``json.dumps(list(content_ids))``, without the encoder for plain hex ids."""
    if all(is_hex64(c) for c in content_ids):
        return "[" + ", ".join(f'"{c}"' for c in content_ids) + "]"
    return json.dumps(list(content_ids))


def mark_applied_many(store: ForestStore, made: Sequence[tuple[Act, Sequence[str]]]) -> None:
    """``mark_applied`` for a batch of new acts in dependency order (a dep is either
    earlier in the batch or already applied); two ``executemany`` in all."""
    depths: dict[str, int] = {}
    applied: list[tuple[str, str, str, int]] = []
    produced: list[tuple[str, str]] = []
    for act, content_ids in made:
        depth = 0
        for dep in act.deps:
            known = depths.get(dep)
            if known is None:
                found = _applied_deps(store, dep)
                if found is None:
                    raise LedgerError(f"act {act.id} depends on unknown act {dep}", act_id=act.id)
                known = depths[dep] = found[1]
            depth = max(depth, known + 1)
        depths[act.id] = depth
        applied.append((act.id, _id_list(content_ids), " ".join(act.deps), depth))
        produced += [(cid, act.id) for cid in content_ids]
    store.conn.executemany(_INSERT_APPLIED, applied)
    store.conn.executemany(_INSERT_ENTRY_ACT, produced)


def _status_edges(store: ForestStore, entry_id: int) -> list[tuple[str, str | None]]:
    """(edge kind, producing act) of every status change of the entry, oldest first."""
    rows = store.conn.execute(_STATUS_EDGES_SQL, (entry_id, *STATUS_EDGES)).fetchall()
    return [(str(kind), None if act is None else str(act)) for kind, act in rows]


_STATUS_EDGES_SQL = (
    "SELECT g.kind, a.act_id FROM edges g JOIN entries f ON f.id = g.from_id "
    "LEFT JOIN ledger_entry_acts a ON a.content_id = f.content_id "
    f"WHERE g.to_id = ? AND g.kind IN ({','.join('?' * len(STATUS_EDGES))}) ORDER BY g.id"
)


def deps_for(store: ForestStore, *, refs: Iterable[int], status_of: Iterable[int] = ()) -> set[str]:
    """Deps of a new act: the producers of ``refs`` and the latest status change of each
    of ``status_of`` (entries the index holds without an act, like the anchor, add none)."""
    deps: set[str] = set()
    for entry_id in refs:
        act = creator_act(store, store.content_id(entry_id))
        if act is not None:
            deps.add(act)
    for entry_id in status_of:
        changes = [a for _, a in _status_edges(store, entry_id) if a is not None]
        if changes:
            deps.add(changes[-1])
    return deps


def chain_deps(store: ForestStore, entry_id: int) -> set[str]:
    """Deps of a new act on ``entry_id``'s chain: its producer and the latest status
    change of every live head, so the act sees a contest as it stands now."""
    heads = set(store.contest_heads(entry_id)) | {entry_id}
    return deps_for(store, refs=[entry_id], status_of=sorted(heads))


@dataclass(frozen=True)
class Status:
    adopted: bool
    superseded: bool
    sealed: bool

    @property
    def ground(self) -> bool:
        return self.adopted and not self.superseded and not self.sealed


def ancestors_among(store: ForestStore, act: Act, wanted: set[str]) -> set[str]:
    """The acts of ``wanted`` that lie in ``act``'s dependency closure.

    Walks back from the act's deps through the index, never below the smallest
    depth still wanted (a dep is always shallower than its dependent), so the
    cost is the part of the history between the act and what it looks for.
    """
    depth: dict[str, int] = {}
    for want in wanted:
        found = _applied_deps(store, want)
        if found is not None:
            depth[want] = found[1]
    remaining = set(depth)
    hits: set[str] = set()
    seen: set[str] = set()
    todo = list(act.deps)
    while todo and remaining:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        found = _applied_deps(store, current)
        if found is None:
            raise LedgerError(f"act {act.id} depends on unknown act {current}", act_id=act.id)
        if current in remaining:
            remaining.discard(current)
            hits.add(current)
            if not remaining:
                break
        deps, current_depth = found
        if current_depth > min(depth[r] for r in remaining):
            todo.extend(deps)
    return hits


def status_at_deps(store: ForestStore, entry_id: int, act: Act) -> Status:
    edges = _status_edges(store, entry_id)
    closure = ancestors_among(store, act, {p for _, p in edges if p is not None})
    adopted = superseded = sealed = False
    for kind, producer in edges:
        if producer is None or producer not in closure:
            continue
        if kind == "adopts":
            adopted = True
        elif kind == "supersedes":
            superseded = True
        else:
            sealed = kind == "seals"
    return Status(adopted, superseded, sealed)
