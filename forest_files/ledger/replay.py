"""Replay: apply ledger acts to the local index through the store's own gates.

Stores: the entries and edges each act makes, plus two local index tables
(``ledger_applied``: act id → content ids it produced, in apply order;
``ledger_entry_acts``: content id → the act that produced it).
Refuses (``LedgerError`` naming the act): a body missing or not hashing to
its ``body_hash``; an act whose declared content ids differ from what the
store produces (forged or edited fields); a write of a ceremony, anchor or
pair entry, or without an origin; everything the live gates refuse (a root
of something already ground, praise-only words, …); a supersession of an
entry that was not ground at the act's declared dependencies; a seal of what
was sealed (an unseal of what was not sealed) at its dependencies.
Returns: the number of acts applied; ``deps_for`` gives a new act's deps.
Test: tests/test_repository.py

Judging at the dependencies: status is read from the status-changing edges
whose producing act lies in the act's dependency closure. Closures are not
materialised: for each producer of a status edge of the entry, a backward walk
over the deps the index recorded (``ledger_applied.deps``) asks whether it is
an ancestor, pruned below the producer's depth, so replaying a few new acts
never needs the rest of the ledger in memory. So two branches
that superseded (or sealed) the same entry both replay after a merge; the
second supersession is inserted beside the first and both successors are
*contested*. Known limit: "contested at the dependencies" is not computed;
an entry counts as ground there if adopted, not superseded and not sealed.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass

from forest_files.errors import ForestError, StoreBusy, StoreCorruption
from forest_files.hashing import hash_body
from forest_files.ledger import bindings
from forest_files.ledger.acts import Act, LedgerError
from forest_files.ledger.record import (
    EntryRecord,
    local_origins,
    parse_record,
    require_entry,
)
from forest_files.praise import refuse_praise
from forest_files.store.base import check_kinds
from forest_files.store.forest import ForestStore
from forest_files.vocab import RESERVED_BUCKETS, ROOT_BUCKET

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
)


def ensure_tables(store: ForestStore) -> None:
    for sql in _TABLES:
        store.conn.execute(sql)


def tables_current(store: ForestStore) -> bool:
    """False for an index whose ledger tables an older forest-files made (rebuild it)."""
    ensure_tables(store)
    applied = {str(r[1]) for r in store.conn.execute("PRAGMA table_info(ledger_applied)")}
    segments = {str(r[1]) for r in store.conn.execute("PRAGMA table_info(ledger_segments)")}
    return {"deps", "depth"} <= applied and "checked_ns" in segments


def is_applied(store: ForestStore, act_id: str) -> bool:
    row = store.conn.execute("SELECT 1 FROM ledger_applied WHERE act_id = ?", (act_id,))
    return row.fetchone() is not None


def _applied_deps(store: ForestStore, act_id: str) -> tuple[tuple[str, ...], int] | None:
    """(deps, depth) of an applied act, or None when this index never applied it."""
    row = store.conn.execute(
        "SELECT deps, depth FROM ledger_applied WHERE act_id = ?", (act_id,)
    ).fetchone()
    return None if row is None else (tuple(str(row[0]).split()), int(row[1]))


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
        applied.append((act.id, json.dumps(list(content_ids)), " ".join(act.deps), depth))
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


@dataclass(frozen=True)
class _Status:
    adopted: bool
    superseded: bool
    sealed: bool

    @property
    def ground(self) -> bool:
        return self.adopted and not self.superseded and not self.sealed


def _ancestors_among(store: ForestStore, act: Act, wanted: set[str]) -> set[str]:
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


def _status_at_deps(store: ForestStore, entry_id: int, act: Act) -> _Status:
    edges = _status_edges(store, entry_id)
    closure = _ancestors_among(store, act, {p for _, p in edges if p is not None})
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
    return _Status(adopted, superseded, sealed)


class _Replayer:
    def __init__(self, store: ForestStore, read: BodyReader, erased: set[str]) -> None:
        self.store = store
        self.read = read
        # Body hashes a recorded erase act removed: their bodies may be absent.
        self.erased = erased

    def fail(self, act: Act, reason: str, code: str = "refused") -> LedgerError:
        return LedgerError(f"act {act.id} ({act.kind}): {reason}", act_id=act.id, code=code)

    def body(self, act: Act, record: EntryRecord) -> str:
        text = self.read(record.body_hash)
        if text is None:
            raise self.fail(act, f"body {record.body_hash} is missing", "body-missing")
        if hash_body(text) != record.body_hash:
            raise self.fail(act, f"body {record.body_hash} does not hash to it", "body-hash")
        return text

    def check(self, act: Act, local_id: int, record: EntryRecord) -> str:
        produced = self.store.content_id(local_id)
        if produced != record.content_id:
            raise self.fail(
                act,
                f"declares entry {record.content_id} but replay produced {produced} "
                "(forged or edited act)",
                "id-mismatch",
            )
        return produced

    def apply(self, act: Act) -> list[str]:
        handler = {
            "write": self.write,
            "root": self.root,
            "supersede": self.supersede,
            "seal": self.seal,
            "unseal": self.seal,
            "resolve": self.resolve,
            "erase": self.erase,
            "bind": self.bind,
            "rebind": self.rebind,
            "retire": self.retire,
        }.get(act.kind)
        if handler is None:
            raise self.fail(act, "this version of forest-files cannot replay it; upgrade")
        return handler(act)

    def write(self, act: Act) -> list[str]:
        rec = parse_record(act.fields.get("entry"), act_id=act.id, key="entry")
        if rec.bucket in RESERVED_BUCKETS or rec.bucket == ROOT_BUCKET:
            raise self.fail(act, f"bucket {rec.bucket!r} is never written by a write act")
        origins = check_kinds(local_origins(self.store, rec, act_id=act.id), allow_ceremony=False)
        if not origins:
            raise self.fail(act, "orphan write: every entry needs an origin")
        erased = self.read(rec.body_hash) is None and rec.body_hash in self.erased
        new_id = self.store._insert_entry(
            body="[erased]" if erased else self.body(act, rec),
            erased_body_hash=rec.body_hash if erased else None,
            jurisdiction=rec.jurisdiction,
            bucket=rec.bucket,
            signature=rec.signature,
            source=rec.source,
            meta=rec.meta,
            origins=origins,
            created_at=rec.created_at,
            nonce=rec.nonce,
            scope_of=rec.scope,
        )
        return [self.check(act, new_id, rec)]

    def root(self, act: Act) -> list[str]:
        target = require_entry(self.store, act.fields.get("target"), act_id=act.id, key="target")
        rec = parse_record(act.fields.get("record"), act_id=act.id, key="record")
        words = self.body(act, rec)
        refuse_praise(words)
        row = self.store._require(target, "root")
        record_id = self.store._root(
            entry_id=target,
            quote=words,
            adopting_signature=rec.signature,
            expected_body_hash=str(row["body_hash"]),
            stamp=rec.stamp,
        )
        return [self.check(act, record_id, rec)]

    def supersede(self, act: Act) -> list[str]:
        store = self.store
        old = require_entry(store, act.fields.get("old"), act_id=act.id, key="old")
        entry = parse_record(act.fields.get("entry"), act_id=act.id, key="entry")
        record = parse_record(act.fields.get("record"), act_id=act.id, key="record")
        if entry.stamp != record.stamp:
            raise self.fail(act, "entry and record of one supersession must share a stamp")
        body, words = self.body(act, entry), self.body(act, record)
        if not _status_at_deps(store, old, act).ground:
            raise self.fail(act, "supersedes an entry that was not ground at its dependencies")
        if store.is_ground(old):
            new_id = store.supersede(
                old_id=old,
                new_body=body,
                adopting_words=words,
                adopting_signature=record.signature,
                signature=entry.signature,
                bucket=entry.bucket,
                scrub=None,
                expected_body_hash=entry.body_hash,
                stamp=entry.stamp,
            )
        else:
            new_id = self._sibling_supersede(old, entry, record, body, words)
        adoption = store.conn.execute(
            "SELECT from_id FROM edges WHERE to_id = ? AND kind = 'adopts' ORDER BY id", (new_id,)
        ).fetchone()
        return [self.check(act, new_id, entry), self.check(act, int(adoption[0]), record)]

    def _sibling_supersede(
        self, old: int, entry: EntryRecord, record: EntryRecord, body: str, words: str
    ) -> int:
        """A second successor of one ground (a merged branch): same inserts as
        ``supersede``, without its live 'is ground now' check; the result is contested."""
        store = self.store
        refuse_praise(words)
        row = store._require(old, "supersede")
        new_id = store._insert_entry(
            body=body,
            jurisdiction=row["jurisdiction"],
            bucket=store._successor_bucket(row["bucket"], entry.bucket),
            signature=entry.signature,
            source=row["source"],
            origins=[(old, "supersedes"), (old, "derived_from")],
            ceremony=True,
            chain_root=row["chain_root"] or old,
            created_at=entry.created_at,
            nonce=entry.nonce,
            scope_of=row["scope"],
        )
        store._insert_entry(
            body=words,
            jurisdiction="home",
            bucket="adoption_record",
            signature=record.signature,
            origins=[(new_id, "adopts")],
            ceremony=True,
            created_at=record.created_at,
            nonce=record.nonce,
            scope_of=row["scope"],
        )
        return new_id

    def erase(self, act: Act) -> list[str]:
        """Apply a recorded erasure to every entry holding that body (store._erase)."""
        body_hash = act.fields.get("body_hash")
        if not isinstance(body_hash, str) or len(body_hash) != 64:
            raise self.fail(act, "an erase act names the body_hash it erases")
        by = act.fields.get("by")
        reason = act.fields.get("reason")
        rows = self.store.conn.execute(
            "SELECT id FROM entries WHERE body_hash = ?", (body_hash,)
        ).fetchall()
        for row in rows:
            self.store._erase(
                int(row[0]),
                signature=by if isinstance(by, str) and by.strip() else "ledger",
                reason=reason if isinstance(reason, str) and reason.strip() else "erase act",
            )
        return []

    def bind(self, act: Act) -> list[str]:
        entry = require_entry(self.store, act.fields.get("entry"), act_id=act.id, key="entry")
        if not self.store._is_adopted(entry):
            raise self.fail(act, "binds an entry that was never adopted (not ground)")
        bindings.apply_bind(self.store, act, entry)
        return []

    def rebind(self, act: Act) -> list[str]:
        bindings.apply_rebind(self.store, act)
        return []

    def retire(self, act: Act) -> list[str]:
        bindings.apply_retire(self.store, act)
        return []

    def resolve(self, act: Act) -> list[str]:
        store = self.store
        raw_heads = act.fields.get("heads")
        if not isinstance(raw_heads, list) or len(raw_heads) < 2:
            raise self.fail(act, "a resolve names two or more contested heads")
        heads = [require_entry(store, h, act_id=act.id, key="heads") for h in raw_heads]
        pick = require_entry(store, act.fields.get("pick"), act_id=act.id, key="pick")
        entry = parse_record(act.fields.get("entry"), act_id=act.id, key="entry")
        record = parse_record(act.fields.get("record"), act_id=act.id, key="record")
        if entry.stamp != record.stamp:
            raise self.fail(act, "entry and record of one resolve must share a stamp")
        if not all(_status_at_deps(store, h, act).ground for h in heads):
            raise self.fail(act, "resolves a head that was not live at its dependencies")
        if hash_body(self.body(act, entry)) != store._require(pick, "resolve")["body_hash"]:
            raise self.fail(act, "the resolved text is not the picked head's text")
        new_id = store.resolve(
            contested_id=heads[0],
            pick_id=pick,
            adopting_words=self.body(act, record),
            adopting_signature=record.signature,
            stamp=entry.stamp,
            heads=sorted(heads),
        )
        adoption = store.conn.execute(
            "SELECT from_id FROM edges WHERE to_id = ? AND kind = 'adopts' ORDER BY id", (new_id,)
        ).fetchone()
        return [self.check(act, new_id, entry), self.check(act, int(adoption[0]), record)]

    def seal(self, act: Act) -> list[str]:
        store = self.store
        target = require_entry(store, act.fields.get("target"), act_id=act.id, key="target")
        rec = parse_record(act.fields.get("record"), act_id=act.id, key="record")
        quote = self.body(act, rec)
        sealing = act.kind == "seal"
        at_deps = _status_at_deps(store, target, act).sealed
        if at_deps == sealing:
            state = "already sealed" if sealing else "not sealed"
            raise self.fail(act, f"target was {state} at its dependencies")
        if store.is_sealed(target) != sealing:
            ceremony = store.seal if sealing else store.unseal
            record_id = ceremony(
                entry_id=target, quote=quote, signature=rec.signature, stamp=rec.stamp
            )
        else:  # a merged branch made the same change: record it beside the other one
            record_id = store._insert_entry(
                body=quote,
                jurisdiction="home",
                bucket="sealing_record" if sealing else "unsealing_record",
                signature=rec.signature,
                origins=[(target, "seals" if sealing else "unseals")],
                ceremony=True,
                created_at=rec.created_at,
                nonce=rec.nonce,
                scope_of=str(store._require(target, act.kind)["scope"]),
            )
        return [self.check(act, record_id, rec)]


# Act kinds that only add entries and edges other than seals: replaying only
# these may defer the full-text index (WriteMixin.deferred_text_index).
_INDEX_SAFE = frozenset({"write", "root", "supersede", "bind", "rebind", "retire"})
_BATCH_INDEX_AT = 64


def replay(
    store: ForestStore,
    acts: Sequence[Act],
    body_reader: BodyReader,
    *,
    known: Mapping[str, Act] | None = None,
) -> int:
    """Apply ``acts`` (in dependency order) not yet applied, in one transaction.

    Every dep of an act must be applied before it (earlier in ``acts`` or
    already in the index): closures are judged from the index's own record
    of deps (``ledger_applied``). ``known`` is accepted for older callers and
    not needed. A refused act rolls the whole call back, so acts need no
    savepoint of their own.
    """
    del known
    erased = {str(a.fields.get("body_hash")) for a in acts if a.kind == "erase"}
    replayer = _Replayer(store, body_reader, erased)
    count = 0
    # Many acts that never seal, unseal or erase (a rebuild, a view, a big pull):
    # their bodies reach the full-text index in one batch at the end.
    batch = len(acts) >= _BATCH_INDEX_AT and all(a.kind in _INDEX_SAFE for a in acts)
    with store.atomic(), store.deferred_text_index() if batch else nullcontext():
        ensure_tables(store)
        for act in acts:
            if is_applied(store, act.id):
                continue
            try:
                mark_applied(store, act.id, replayer.apply(act), deps=act.deps)
            except (LedgerError, StoreBusy, StoreCorruption):
                raise
            except ForestError as exc:
                raise replayer.fail(act, f"refused on replay: {exc}") from None
            count += 1
    return count
