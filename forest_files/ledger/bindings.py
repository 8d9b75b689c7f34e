"""Bindings in the index: which ground lives in which file section.

Stores: ``binding_events`` (a local cache table, rebuilt from the ledger):
one row per bind, rebind or retire act, in apply order. A binding's current
state is derived (latest event wins; any retire ends it), never updated.
Refuses (``LedgerError`` naming the act): a bind of an entry that was never
adopted, a section hash that is not the bound entry's body hash, a
path that is not repository-relative, a rebind or retire of an unknown or
already retired binding.
Returns: ``Binding`` values; ``contested`` marks two live bindings of one
path + selector (two branches bound it, then merged).
Test: tests/test_bindings.py

A binding names the entry it was made for; its ground is the current live
head of that entry's supersession chain, so a supersession carries the
binding to the new entry without any act on the binding itself.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from forest_files.ledger.acts import Act, LedgerError, is_hex64

if TYPE_CHECKING:  # annotations only: a check reading a binding map never opens a store
    from forest_files.store.forest import ForestStore

_TABLE = """
CREATE TABLE IF NOT EXISTS binding_events (
    seq            INTEGER PRIMARY KEY,
    act_id         TEXT NOT NULL,
    bind_act       TEXT NOT NULL,
    kind           TEXT NOT NULL CHECK (kind IN ('bind', 'rebind', 'retire')),
    path           TEXT,
    selector       TEXT,
    excludes_json  TEXT,
    normalisation  TEXT,
    hash_algo      TEXT,
    section_hash   TEXT,
    file_hash      TEXT,
    entry_id       INTEGER,
    by_sig         TEXT NOT NULL,
    at             TEXT NOT NULL
)
"""
_INDEX = "CREATE INDEX IF NOT EXISTS idx_binding_events_path ON binding_events(path)"
_INSERT = """
INSERT INTO binding_events (act_id, bind_act, kind, path, selector, excludes_json,
    normalisation, hash_algo, section_hash, file_hash, entry_id, by_sig, at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
"""


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
    file_hash: str
    entry_id: int
    bound_by: str
    retired: bool
    contested: bool = False


def ensure_table(store: ForestStore) -> None:
    store.conn.execute(_TABLE)
    store.conn.execute(_INDEX)


def check_repo_path(path: object) -> str:
    """A repository-relative path with ``/`` separators, or ValueError saying why not."""
    if not isinstance(path, str) or not path:
        raise ValueError("path must be a non-empty string")
    if any(ord(c) < 32 or ord(c) == 127 for c in path):
        raise ValueError("path holds a NUL or control character")
    if path.startswith("/") or "\\" in path or (len(path) > 1 and path[1] == ":"):
        raise ValueError("path must be relative to the repository root, with / separators")
    if any(part in ("", ".", "..") for part in path.split("/")):
        raise ValueError("path must not contain '..', '.' or empty segments")
    return path


def _text(fields: Mapping[str, Any], key: str, act: Act) -> str:
    value = fields.get(key)
    if not isinstance(value, str) or not value:
        raise LedgerError(f"act {act.id} ({act.kind}): field {key!r} must be a non-empty string")
    return value


def _hex(fields: Mapping[str, Any], key: str, act: Act) -> str:
    value = fields.get(key)
    if not is_hex64(value):
        raise LedgerError(f"act {act.id} ({act.kind}): field {key!r} must be 64 hex digits")
    return str(value)


def _path(fields: Mapping[str, Any], act: Act) -> str:
    try:
        return check_repo_path(fields.get("path"))
    except ValueError as exc:
        raise LedgerError(f"act {act.id} ({act.kind}): {exc}", act_id=act.id) from None


def apply_bind(store: ForestStore, act: Act, entry_id: int) -> None:
    """Record a bind act (the caller resolved and checked ``entry_id``)."""
    ensure_table(store)
    row = store._require(entry_id, "bind")
    store.conn.execute(_INSERT, _bind_row(act, entry_id, str(row["body_hash"])))


def apply_binds(store: ForestStore, binds: Sequence[tuple[Act, int, str]]) -> None:
    """``apply_bind`` for a batch of (act, entry id, the entry's body hash) whose
    entries the caller has just written (so their body hashes are known)."""
    ensure_table(store)
    store.conn.executemany(_INSERT, [_bind_row(act, e, h) for act, e, h in binds])


def _bind_row(act: Act, entry_id: int, entry_body_hash: str) -> tuple[object, ...]:
    fields = act.fields
    section = _hex(fields, "section_hash", act)
    if entry_body_hash != section:
        raise LedgerError(
            f"act {act.id} (bind): section_hash {section} is not the bound entry's body hash",
            act_id=act.id,
        )
    excludes = fields.get("excludes", [])
    if not isinstance(excludes, list) or not all(isinstance(e, str) for e in excludes):
        raise LedgerError(f"act {act.id} (bind): excludes must be a list of strings")
    return (
        act.id,
        act.id,
        "bind",
        _path(fields, act),
        _text(fields, "selector", act),
        json.dumps(excludes),
        _text(fields, "normalisation", act),
        _text(fields, "hash_algo", act),
        section,
        _hex(fields, "file_hash", act),
        entry_id,
        _text(fields, "by", act),
        _text(fields, "at", act),
    )


def apply_rebind(store: ForestStore, act: Act) -> None:
    ensure_table(store)
    fields = act.fields
    current = _live(store, act)
    store.conn.execute(
        _INSERT,
        (
            act.id,
            current.bind_act,
            "rebind",
            _path(fields, act),
            _text(fields, "selector", act),
            json.dumps(list(current.excludes)),
            current.normalisation,
            current.hash_algo,
            _hex(fields, "section_hash", act),
            _hex(fields, "file_hash", act),
            current.entry_id,
            _text(fields, "by", act),
            _text(fields, "at", act),
        ),
    )


def apply_retire(store: ForestStore, act: Act) -> None:
    ensure_table(store)
    fields = act.fields
    current = _live(store, act)
    _text(fields, "words", act)
    store.conn.execute(
        _INSERT,
        (
            act.id,
            current.bind_act,
            "retire",
            None,
            None,
            None,
            None,
            None,
            None,
            None,
            current.entry_id,
            _text(fields, "by", act),
            _text(fields, "at", act),
        ),
    )


def _live(store: ForestStore, act: Act) -> Binding:
    target = act.fields.get("binding")
    found = {b.bind_act: b for b in all_bindings(store, include_retired=True)}.get(str(target))
    if found is None:
        raise LedgerError(f"act {act.id} ({act.kind}): unknown binding {target}", act_id=act.id)
    if found.retired:
        raise LedgerError(f"act {act.id} ({act.kind}): binding {target} is retired", act_id=act.id)
    return found


def all_bindings(
    store: ForestStore, *, include_retired: bool = False, paths: Iterable[str] | None = None
) -> list[Binding]:
    """Every binding's current state, ordered by path then selector. With ``paths``,
    only bindings that ever named one of them (a hook judging a few staged files)."""
    ensure_table(store)
    state: dict[str, dict[str, Any]] = {}
    if paths is None:
        rows = store.conn.execute("SELECT * FROM binding_events ORDER BY seq").fetchall()
    else:
        wanted = sorted(set(paths))
        rows = []
        for start in range(0, len(wanted), 500):
            chunk = wanted[start : start + 500]
            marks = ",".join("?" * len(chunk))
            rows += store.conn.execute(
                "SELECT * FROM binding_events WHERE bind_act IN "
                f"(SELECT bind_act FROM binding_events WHERE path IN ({marks}))",
                chunk,
            ).fetchall()
        rows.sort(key=lambda r: int(r["seq"]))
    for row in rows:
        key = str(row["bind_act"])
        if row["kind"] == "retire":
            state[key]["retired"] = True
            continue
        previous = state.get(key)
        raw_excludes = row["excludes_json"]
        state[key] = {
            "bind_act": key,
            "path": row["path"],
            "selector": row["selector"],
            "excludes": () if raw_excludes in (None, "[]") else tuple(json.loads(raw_excludes)),
            "normalisation": row["normalisation"],
            "hash_algo": row["hash_algo"],
            "section_hash": row["section_hash"],
            "file_hash": row["file_hash"],
            "entry_id": int(row["entry_id"]),
            "bound_by": previous["bound_by"] if previous else row["by_sig"],
            "retired": False,
        }
    counts: dict[tuple[str, str], int] = {}
    for v in state.values():
        if not v["retired"]:
            where = (v["path"], v["selector"])
            counts[where] = counts.get(where, 0) + 1
    out = [
        Binding(**v, contested=counts.get((v["path"], v["selector"]), 0) > 1)
        for v in state.values()
        if include_retired or not v["retired"]
    ]
    return sorted(out, key=lambda b: (b.path, b.selector, b.bind_act))
