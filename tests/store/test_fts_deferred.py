"""Deferred full-text indexing (``ForestStore.deferred_text_index``) and nested savepoints.

A bulk adoption drops the FTS insert trigger inside its transaction and indexes
the new bodies in one statement at the end. These tests hold it to the
trigger's result: the same index, the trigger always back, nothing changed when
the block is refused or fails.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from forest_files import ForestError, ForestStore, root_to_ground
from forest_files.custody.repository import Repository
from forest_files.kernel.hashing import hash_body
from tests.helpers.git import isolate, make_repo
from tests.helpers.store import assert_refused

WORDS = "I have read this and adopt it as true"


def _trigger_sql(store: ForestStore) -> str | None:
    row = store.conn.execute(
        "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'entries_fts_ai'"
    ).fetchone()
    return None if row is None else str(row[0])


def _fts_rows(store: ForestStore) -> list[tuple[int, str]]:
    return [
        (int(r[0]), str(r[1]))
        for r in store.conn.execute(
            "SELECT rowid, body FROM entries_fts WHERE entries_fts MATCH 'harbor' ORDER BY rowid"
        )
    ]


def _integrity(store: ForestStore) -> None:
    store.conn.execute("INSERT INTO entries_fts (entries_fts) VALUES ('integrity-check')")


def _write(store: ForestStore, origin: int, body: str) -> int:
    return store.write(body=body, bucket="note", signature="s", origins=[(origin, "derived_from")])


def test_deferred_index_equals_trigger_index_accepted(tmp_path, pair: Callable[..., int]) -> None:
    bodies = [f"harbor note {i} about the lantern" for i in range(50)]
    results = []
    for deferred in (False, True):
        store = ForestStore(tmp_path / f"{deferred}.db")
        store.init_schema()
        origin = store.ensure_anchor("p")
        before = _trigger_sql(store)
        with store.atomic():
            if deferred:
                with store.deferred_text_index():
                    assert _trigger_sql(store) is None  # dropped inside the block
                    ids = [_write(store, origin, b) for b in bodies]
            else:
                ids = [_write(store, origin, b) for b in bodies]
        assert _trigger_sql(store) == before
        _integrity(store)
        later = _write(store, origin, "harbor after the block")  # the trigger works again
        results.append((_fts_rows(store), ids, later))
        store.close()
    assert results[0] == results[1]
    assert len(results[0][0]) == 51


def test_deferred_index_outside_transaction_refused(store: ForestStore) -> None:
    with pytest.raises(ForestError, match="open transaction"), store.deferred_text_index():
        pass
    assert _trigger_sql(store) is not None


def test_deferred_index_seal_of_new_entry_refused(store: ForestStore) -> None:
    origin = store.ensure_anchor("p")

    def seal_inside() -> None:
        with store.atomic(), store.deferred_text_index():
            entry = _write(store, origin, "harbor text to seal")
            root_to_ground(
                store,
                entry_id=entry,
                adopting_words=WORDS,
                adopting_signature="author",
                expected_body_hash=hash_body("harbor text to seal"),
            )
            store.seal(entry_id=entry, quote="sealed for the test")

    assert_refused(store, seal_inside, match="inside deferred_text_index is refused")
    assert _trigger_sql(store) is not None
    _integrity(store)


def test_deferred_index_failure_inside_rolls_back_accepted(store: ForestStore) -> None:
    origin = store.ensure_anchor("p")
    kept = _write(store, origin, "harbor kept before")

    def fail_inside() -> None:
        with store.atomic(), store.deferred_text_index():
            _write(store, origin, "harbor lost with the block")
            raise RuntimeError("boom")

    assert_refused(store, fail_inside, match="boom", exc=RuntimeError)
    assert [r for r, _ in _fts_rows(store)] == [kept]
    assert _trigger_sql(store) is not None


def test_deferred_index_caught_failure_keeps_outer_work_accepted(store: ForestStore) -> None:
    """A caller that catches the block's failure and commits keeps its own writes,
    loses the block's, and keeps the trigger (the block is its own savepoint)."""
    origin = store.ensure_anchor("p")
    with store.atomic():
        outer = _write(store, origin, "harbor outer write")
        with pytest.raises(RuntimeError), store.deferred_text_index():
            _write(store, origin, "harbor inner write")
            raise RuntimeError("inner")
    assert [r for r, _ in _fts_rows(store)] == [outer]
    assert _trigger_sql(store) is not None
    _integrity(store)


def test_nested_savepoints_roll_back_only_inner_accepted(store: ForestStore) -> None:
    origin = store.ensure_anchor("p")
    with store.atomic():
        a = _write(store, origin, "harbor level one")
        with store.atomic():
            b = _write(store, origin, "harbor level two")
            with pytest.raises(RuntimeError), store.atomic():
                _write(store, origin, "harbor level three")
                raise RuntimeError("third level fails")
            c = _write(store, origin, "harbor level two again")
    assert [r for r, _ in _fts_rows(store)] == [a, b, c]
    assert (
        store.conn.execute("SELECT COUNT(*) FROM entries WHERE bucket = 'note'").fetchone()[0] == 3
    )


@pytest.mark.parametrize("seal_one", [False, True])
def test_rebuild_indexes_every_live_body_once_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seal_one: bool
) -> None:
    """A rebuild of more than 64 acts: batched when no act seals (``replay``), through
    the triggers otherwise. Either way each live body is found by its own token,
    a sealed one is not, and the index passes FTS5's integrity check."""
    isolate(monkeypatch)
    deferred: list[bool] = []
    original = ForestStore.deferred_text_index

    def observed(self: ForestStore):  # type: ignore[no-untyped-def]
        deferred.append(True)
        return original(self)

    root = make_repo(tmp_path)
    with Repository.init(root, project_id="p") as repo:
        ids = repo.adopt_many([f"harbor token{i} stays" for i in range(80)], words=WORDS, by="a")
        if seal_one:
            repo.seal(ids[0], words="sealed for the test", by="a")
        monkeypatch.setattr(ForestStore, "deferred_text_index", observed)
        report = repo.rebuild()  # 80 acts (one adopt each), or 81 with the seal
        assert report.applied == 80 + int(seal_one)
        # Runs of adopts are always indexed in one batch; with no seal the whole replay is.
        assert deferred and (seal_one or len(deferred) <= 2)
        store = repo.store()
        _integrity(store)
        assert _trigger_sql(store) is not None
        for i in range(80):
            hits = store.conn.execute(
                "SELECT COUNT(*) FROM entries_fts WHERE entries_fts MATCH ?", (f"token{i}",)
            ).fetchone()[0]
            assert hits == (0 if seal_one and i == 0 else 1), i
