"""Builders for custody-store tests: pairs, derived entries, ground, chains.

Every builder goes through the public API (commit_turn, write, root_to_ground,
supersede), so a fixture never holds a state the store could not reach by
itself. ``assert_refused`` is the common shape of a hostile test: the call
raises, and the file is byte-for-byte the same as before (a dump of every
table, FTS shadow tables included) with no transaction left open.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from forest_files import ForestError, ForestStore, Scroll, commit_turn, root_to_ground

ADOPTING_WORDS = "I have read this and adopt it as true"
AUTHOR = "author"


def dump(store: ForestStore) -> list[str]:
    """Every schema object and row of the store, as SQL text."""
    return list(store.conn.iterdump())


@contextmanager
def unchanged(store: ForestStore) -> Iterator[None]:
    """Assert the store's content is identical after the block and no transaction leaks."""
    before = dump(store)
    yield
    assert not store.conn.in_transaction, "a refused call left a transaction open"
    assert dump(store) == before, "a refused call changed the store"


def assert_refused(
    store: ForestStore,
    call: Callable[[], Any],
    *,
    match: str | None = None,
    exc: type[BaseException] = ForestError,
) -> BaseException:
    """``call`` raises ``exc`` (message matching ``match``) and leaves ``store`` untouched."""
    with unchanged(store), pytest.raises(exc, match=match) as info:
        call()
    return info.value


def make_pair(
    store: ForestStore,
    scroll: Scroll,
    user: str = "what do bees eat",
    assistant: str = "nectar and pollen",
    *,
    previous: int | None = None,
) -> int:
    """A conversation pair with a real scroll record behind it."""
    return commit_turn(store, scroll, user, assistant, previous_pair_id=previous)


def make_entry(
    store: ForestStore,
    origin: int,
    body: str,
    *,
    bucket: str = "note",
    kind: str = "derived_from",
    jurisdiction: str = "home",
    signature: str = AUTHOR,
) -> int:
    """A non-pair entry hanging from ``origin``."""
    return store.write(
        body=body,
        bucket=bucket,
        signature=signature,
        jurisdiction=jurisdiction,
        origins=[(origin, kind)],
    )


def body_hash_of(store: ForestStore, entry_id: int) -> str:
    row = store.get(entry_id)
    assert row is not None, f"entry {entry_id} missing"
    return str(row["body_hash"])


def root(store: ForestStore, entry_id: int, *, words: str = ADOPTING_WORDS) -> int:
    """Root ``entry_id`` through the public ceremony gate, with the hash it really has."""
    return root_to_ground(
        store,
        entry_id=entry_id,
        adopting_words=words,
        adopting_signature=AUTHOR,
        expected_body_hash=body_hash_of(store, entry_id),
    )


def rooted_entry(store: ForestStore, scroll: Scroll, body: str = "bees eat nectar") -> int:
    """A note derived from a fresh pair, rooted to ground. Returns the note's id."""
    pair = make_pair(store, scroll)
    note = make_entry(store, pair, body)
    root(store, note)
    assert store.is_ground(note)
    return note


def supersede(store: ForestStore, old_id: int, new_body: str) -> int:
    return store.supersede(
        old_id=old_id,
        new_body=new_body,
        adopting_words="this replaces the earlier wording",
        adopting_signature=AUTHOR,
        signature=AUTHOR,
    )


def ground_chain(
    store: ForestStore, scroll: Scroll, length: int = 3, *, stem: str = "bees eat"
) -> list[int]:
    """A supersession chain of ``length`` entries; only the last is ground."""
    ids = [rooted_entry(store, scroll, f"{stem} version 0")]
    for n in range(1, length):
        ids.append(supersede(store, ids[-1], f"{stem} version {n}"))
    return ids


def adoption_record_ids(store: ForestStore, entry_id: int) -> list[int]:
    rows = store.conn.execute(
        "SELECT from_id FROM edges WHERE to_id = ? AND kind = 'adopts' ORDER BY id", (entry_id,)
    ).fetchall()
    return [int(r[0]) for r in rows]


def ground_ids(conn: sqlite3.Connection) -> set[int]:
    return {int(r[0]) for r in conn.execute("SELECT id FROM current_ground")}


def count(conn: sqlite3.Connection, table: str) -> int:
    return int(conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])


def ground_in_chain(conn: sqlite3.Connection, entry_id: int) -> list[int]:
    """Ids in ``current_ground`` that belong to the supersession chain of ``entry_id``."""
    rows = conn.execute(
        "SELECT g.id FROM current_ground g "
        "WHERE COALESCE(g.chain_root, g.id) = "
        "(SELECT COALESCE(e.chain_root, e.id) FROM entries e WHERE e.id = ?)",
        (entry_id,),
    ).fetchall()
    return [int(r[0]) for r in rows]
