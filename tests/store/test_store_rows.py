"""What a ceremony writes, once (forest_files/store/rows.py): the store inserts exactly
the rows ``rows`` describes, the planner declares exactly the ids the store then
produces, ``rows.check`` refuses what the store's insert refuses with the same
words, and no other room reaches into the store by a private name.

Every ceremony is run on a real store with a fixed stamp and its inserted rows
read back column by column (edges too) against the described ``Row`` values.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from forest_files import ForestError, ForestStore
from forest_files.custody.plan import plan_adoptions, plan_resolve, plan_seal, plan_supersede
from forest_files.store import rows
from forest_files.store.rows import Row, Subject
from tests.helpers.store import ADOPTING_WORDS, AUTHOR, assert_refused, make_entry, root, supersede

STAMP = ("2024-05-01T10:00:00.000Z", "00000000000000aa")
LATER = ("2024-05-01T10:00:01.000Z", "00000000000000bb")
COLUMNS = (
    "created_at, jurisdiction, bucket, source, signature, body, body_hash, meta_json, "
    "content_id, scope, nonce, chain_root"
)
PACKAGE = Path(__file__).resolve().parents[2] / "forest_files"


def _subject(store: ForestStore, entry_id: int) -> Subject:
    return Subject.of(store.require(entry_id, "test"))


def _inserted(store: ForestStore, entry_id: int) -> tuple[tuple[object, ...], list[Any]]:
    """The row as stored and its creation edges (to id, kind), in insert order."""
    row = store.conn.execute(f"SELECT {COLUMNS} FROM entries WHERE id = ?", (entry_id,))
    edges = store.conn.execute(
        "SELECT to_id, kind FROM edges WHERE from_id = ? ORDER BY id", (entry_id,)
    )
    return tuple(row.fetchone()), [tuple(e) for e in edges.fetchall()]


def _assert_as_described(store: ForestStore, entry_id: int, row: Row, before: int = 0) -> None:
    stored, edges = _inserted(store, entry_id)
    assert stored == row.values()
    assert edges == [(before if link.id is None else link.id, link.kind) for link in row.links]


def _contest(store: ForestStore, pair: Callable[..., int]) -> tuple[int, int, int]:
    """A ground note superseded twice (a merged branch's sibling): (old, head a, head b)."""
    old = make_entry(store, pair(), "the river floods in spring")
    root(store, old)
    a = supersede(store, old, "the river floods in early spring")
    b = store.supersede_beside(
        old_id=old,
        new_body="the river floods in late spring",
        adopting_words=ADOPTING_WORDS,
        adopting_signature=AUTHOR,
        signature=AUTHOR,
        bucket=None,
        stamp=LATER,
    )
    assert store.is_contested(a) and store.is_contested(b)
    return old, a, b


# --- the store inserts what rows describes -----------------------------------------------


def test_rows_root_inserted_as_described_accepted(
    store: ForestStore, pair: Callable[..., int]
) -> None:
    note = make_entry(store, pair(), "bees eat nectar")
    want = rows.root(_subject(store, note), words=ADOPTING_WORDS, speaker=AUTHOR, stamp=STAMP)
    record = store.root(
        entry_id=note,
        quote=ADOPTING_WORDS,
        adopting_signature=AUTHOR,
        expected_body_hash=str(store.require(note, "t")["body_hash"]),
        stamp=STAMP,
    )
    _assert_as_described(store, record, want)


@pytest.mark.parametrize("beside", [False, True])
def test_rows_supersede_inserted_as_described_accepted(
    store: ForestStore, pair: Callable[..., int], beside: bool
) -> None:
    old = make_entry(store, pair(), "bees eat nectar", bucket="journal")
    root(store, old)
    if beside:  # a merged branch superseded it first: the second successor
        supersede(store, old, "bees eat pollen")
    want = rows.supersede(
        _subject(store, old),
        body="bees eat nectar and pollen",
        words=ADOPTING_WORDS,
        speaker=AUTHOR,
        signature=AUTHOR,
        bucket=None,
        stamp=STAMP,
    )
    ceremony = store.supersede_beside if beside else store.supersede
    new_id = ceremony(
        old_id=old,
        new_body="bees eat nectar and pollen",
        adopting_words=ADOPTING_WORDS,
        adopting_signature=AUTHOR,
        signature=AUTHOR,
        bucket=None,
        stamp=STAMP,
    )
    _assert_as_described(store, new_id, want.entry)
    _assert_as_described(store, new_id + 1, want.record, before=new_id)
    assert want.entry.bucket == "journal" and want.entry.chain_root == old
    assert store.is_contested(new_id) is beside


def test_rows_resolve_inserted_as_described_accepted(
    store: ForestStore, pair: Callable[..., int]
) -> None:
    _, a, b = _contest(store, pair)
    heads = [(h, store.content_id(h)) for h in (a, b)]
    want = rows.resolve(
        heads, _subject(store, b), words=ADOPTING_WORDS, speaker=AUTHOR, stamp=STAMP
    )
    new_id = store.resolve(
        contested_id=a, pick_id=b, adopting_words=ADOPTING_WORDS, adopting_signature=AUTHOR,
        stamp=STAMP,
    )  # fmt: skip
    _assert_as_described(store, new_id, want.entry)
    _assert_as_described(store, new_id + 1, want.record, before=new_id)
    assert store.is_ground(new_id)


@pytest.mark.parametrize("beside", [False, True])
def test_rows_seal_and_unseal_inserted_as_described_accepted(
    store: ForestStore, pair: Callable[..., int], beside: bool
) -> None:
    note = make_entry(store, pair(), "the hive key")
    for sealing in (True, False):
        want = rows.seal(
            _subject(store, note), quote="keep it", signature=AUTHOR, stamp=STAMP,
            sealing=sealing,
        )  # fmt: skip
        if beside:  # the record of a change a merged branch made too: no status gate
            record = store.seal_beside(
                entry_id=note, quote="keep it", signature=AUTHOR, stamp=STAMP, sealing=sealing
            )
        else:
            ceremony = store.seal if sealing else store.unseal
            record = ceremony(entry_id=note, quote="keep it", signature=AUTHOR, stamp=STAMP)
        _assert_as_described(store, record, want)
    assert not store.is_sealed(note)


def test_rows_adopt_inserted_as_described_accepted(
    store: ForestStore, pair: Callable[..., int]
) -> None:
    origin = make_entry(store, pair(), "the anchor of a batch")
    made = store.import_and_root(
        [("first section", {"path": "a.md"}), ("second section", {})],
        origin=origin,
        signature=AUTHOR,
        adopting_words=ADOPTING_WORDS,
        adopting_signature=AUTHOR,
    )
    for adopted in made:
        want = rows.adopt(
            (origin, store.content_id(origin)),
            scope=store.scope,
            body=adopted.entry.body,
            meta=adopted.entry.meta,
            signature=AUTHOR,
            words=ADOPTING_WORDS,
            speaker=AUTHOR,
            stamp=adopted.entry.stamp,
            record_stamp=adopted.record.stamp,
        )
        assert (adopted.entry, adopted.record) == tuple(want)
        _assert_as_described(store, adopted.entry_id, want.entry)
        _assert_as_described(store, adopted.record_id, want.record, before=adopted.entry_id)


# --- the planner declares the ids the store produces -----------------------------------------


def _record_id(store: ForestStore, entry_id: int) -> str:
    row = store.conn.execute(
        "SELECT from_id FROM edges WHERE to_id = ? AND kind = 'adopts' ORDER BY id DESC",
        (entry_id,),
    ).fetchone()
    return store.content_id(int(row[0]))


def test_rows_planned_supersede_ids_are_the_stores_accepted(
    store: ForestStore, pair: Callable[..., int]
) -> None:
    """The live supersession and, of the same ground, a merged branch's second one."""
    old = make_entry(store, pair(), "the river floods in spring")
    root(store, old)
    for text, ceremony in (
        ("the river floods in May", store.supersede),
        ("the river floods in June", store.supersede_beside),
    ):
        planned = plan_supersede(store, old, text, words=ADOPTING_WORDS, by=AUTHOR)
        new_id = ceremony(
            old_id=old, new_body=text, adopting_words=ADOPTING_WORDS, adopting_signature=AUTHOR,
            signature=AUTHOR, bucket=None, stamp=planned.entry.stamp,
        )  # fmt: skip
        assert store.content_id(new_id) == planned.entry.content_id
        assert _record_id(store, new_id) == planned.record.content_id
        assert planned.old == store.content_id(old)
    assert store.is_contested(new_id)


def test_rows_planned_resolve_and_seal_ids_are_the_stores_accepted(
    store: ForestStore, pair: Callable[..., int]
) -> None:
    _, a, b = _contest(store, pair)
    planned = plan_resolve(store, [a, b], a, words=ADOPTING_WORDS, by=AUTHOR)
    new_id = store.resolve(
        contested_id=a, pick_id=a, adopting_words=ADOPTING_WORDS, adopting_signature=AUTHOR,
        stamp=planned.entry.stamp,
    )  # fmt: skip
    assert store.content_id(new_id) == planned.entry.content_id
    assert _record_id(store, new_id) == planned.record.content_id
    assert planned.heads == tuple(sorted(store.content_id(h) for h in (a, b)))
    for sealing in (True, False):
        seal = plan_seal(store, new_id, words="keep it", by=AUTHOR, sealing=sealing)
        assert ("seal" if sealing else "unseal") == seal.KIND and seal.sealing is sealing
        ceremony = store.seal if sealing else store.unseal
        got = ceremony(entry_id=new_id, quote="keep it", signature=AUTHOR, stamp=seal.record.stamp)
        assert store.content_id(got) == seal.record.content_id


def test_rows_planned_adoptions_ids_are_the_stores_accepted(
    store: ForestStore, pair: Callable[..., int]
) -> None:
    from forest_files.store.bulk import Adoption

    origin = make_entry(store, pair(), "the anchor of a batch")
    items: list[tuple[str, dict[str, Any], None]] = [("one", {"n": 1}, None), ("two", {}, None)]
    planned = plan_adoptions(store, origin, items, words=ADOPTING_WORDS, by=AUTHOR)
    plans = [
        Adoption(body, meta, origin, AUTHOR, ADOPTING_WORDS, AUTHOR, p.entry.stamp, p.record.stamp)
        for p, (body, meta, _) in zip(planned, items, strict=True)
    ]
    made = store.insert_adoptions(plans)
    assert [(m.entry.content_id, m.record.content_id) for m in made] == [
        (p.entry.content_id, p.record.content_id) for p in planned
    ]
    assert [store.content_id(m.entry_id) for m in made] == [p.entry.content_id for p in planned]


# --- one set of refusals ------------------------------------------------------------------

BAD_ROWS: dict[str, dict[str, Any]] = {
    "ceremony bucket outside a ceremony": {"bucket": "adoption_record"},
    "blank signature": {"signature": "  "},
    "signature not text": {"signature": 7},
    "blank body": {"body": "\n\t"},
    "body not text": {"body": None},
    "signature over its bound": {"signature": "x" * 100_000},
    "signature with a line break": {"signature": "ada\nlovelace"},
    "meta not JSON": {"meta": {"when": object()}},
    "unknown jurisdiction": {"jurisdiction": "elsewhere"},
    "unknown bucket": {"bucket": "secret_stash"},
    "source not text": {"source": 12},
}


@pytest.mark.parametrize("name", sorted(BAD_ROWS))
def test_rows_check_refuses_as_the_insert_refused(
    store: ForestStore, pair: Callable[..., int], name: str
) -> None:
    origin = make_entry(store, pair(), "an origin")
    fields: dict[str, Any] = {
        "bucket": "note",
        "signature": AUTHOR,
        "body": "a note",
        "meta": None,
        "jurisdiction": "home",
        "source": None,
        **BAD_ROWS[name],
    }
    with pytest.raises(ForestError) as by_rows:
        rows.check(**fields, ceremony=False, max_body_bytes=store.max_body_bytes)

    def insert() -> int:
        with store.atomic():
            return store.insert_entry(**fields, origins=[(origin, "derived_from")])

    by_store = assert_refused(store, insert)
    assert str(by_rows.value) == str(by_store)


def test_rows_supersede_beside_keeps_the_ceremony_gates_refused(
    store: ForestStore, pair: Callable[..., int]
) -> None:
    """The merge case drops only the "is current ground" gate: words, praise, a
    ceremony bucket or a pair as the new bucket, blank signatures stay refused."""
    old = make_entry(store, pair(), "bees eat nectar")
    root(store, old)
    supersede(store, old, "bees eat pollen")
    base: dict[str, Any] = {
        "old_id": old,
        "new_body": "bees eat honey",
        "adopting_words": ADOPTING_WORDS,
        "adopting_signature": AUTHOR,
        "signature": AUTHOR,
        "bucket": None,
        "stamp": STAMP,
    }
    for change, match in (
        ({"adopting_words": " "}, "without adopting words"),
        ({"adopting_words": "lovely!"}, "enthusiasm is not root"),
        ({"bucket": "sealing_record"}, "ceremony bucket"),
        ({"bucket": "pair"}, "scroll_ptr"),
        ({"signature": ""}, "unsigned"),
        ({"new_body": "   "}, "empty body"),
    ):
        assert_refused(store, lambda c=change: store.supersede_beside(**{**base, **c}), match=match)


def test_rows_successor_of_a_pair_is_a_note_accepted() -> None:
    assert rows.successor_bucket("pair", None) == "note"
    assert rows.successor_bucket("adoption_record", None) == "note"
    assert rows.successor_bucket("journal", None) == "journal"
    assert rows.successor_bucket("journal", "note") == "note"


def test_rows_erased_body_not_the_marker_refused() -> None:
    fields: dict[str, Any] = {
        "scope": "default",
        "stamp": STAMP,
        "jurisdiction": "home",
        "bucket": "note",
        "source": None,
        "signature": AUTHOR,
        "meta": None,
        "links": (),
    }
    with pytest.raises(ForestError, match="marker"):
        rows.entry_row(**fields, body="the old text", erased_body_hash="a" * 64)
    kept = rows.entry_row(**fields, body=rows.ERASED_MARK, erased_body_hash="a" * 64)
    assert kept.body_hash == "a" * 64


# --- no other room calls the store by a private name -------------------------------------

# ``store._name(`` / ``self.store._name`` on a store object; the rooms that use the store.
_PRIVATE_CALL = re.compile(r"\bstore\._[a-z]\w*")


@pytest.mark.parametrize("room", ["custody", "governance", "proposals"])
def test_rows_store_private_names_outside_the_store_refused(room: str) -> None:
    found = [
        f"{path.relative_to(PACKAGE)}:{n}: {line.strip()}"
        for path in sorted((PACKAGE / room).rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if _PRIVATE_CALL.search(line)
    ]
    assert found == [], "call the store's public names (forest_files/store/forest.py)"


@pytest.mark.parametrize(
    "meta",
    [
        {"z": "last", "a": "first", "path": "docs/ü.md", "q": 'quote " and \\ back'},
        {"nul": "\x00", "line": "a\u2028b", "astral": "\U0001f332"},
        {"n": 1, "nested": {"b": [1, 2], "a": None}, "flag": True},
    ],
)
def test_rows_meta_reads_back_as_its_json_accepted(meta: dict[str, Any]) -> None:
    """The meta a row carries (and its content id hashes) is what a reader of its
    ``meta_json`` gets back, keys in the same order: a flat object of strings is not
    decoded again, so it must come back identical, escapes and all."""
    import json

    row = rows.entry_row(
        scope="default",
        stamp=("2026-01-01T00:00:00.000Z", "00" * 8),
        jurisdiction="home",
        bucket="import",
        source=None,
        signature="tester",
        body="text",
        links=(),
        meta=meta,
    )
    back = json.loads(row.meta_json)
    assert row.meta == back
    assert list(row.meta) == list(back)
    assert row.meta is not meta  # a copy: the caller's dict never becomes the row's
