"""The rebuild transaction (``ForestStore.rebuilding``): reset, refill, foreign keys
judged once before the commit; a refused refill leaves the old index whole."""

from __future__ import annotations

import pytest

from forest_files import ForestError, ForestStore, Scroll
from forest_files.kernel.errors import StoreConstraint
from tests.helpers.store import make_entry, rooted_entry


def _dump(store: ForestStore) -> list[tuple[object, ...]]:
    return [tuple(r) for r in store.conn.execute("SELECT * FROM entries ORDER BY id")]


def _foreign_keys(store: ForestStore) -> int:
    return int(store.conn.execute("PRAGMA foreign_keys").fetchone()[0])


def test_rebuilding_dangling_edge_refused(store: ForestStore, scroll: Scroll) -> None:
    rooted_entry(store, scroll)
    before = _dump(store)
    with pytest.raises(StoreConstraint, match="FOREIGN KEY"), store.rebuilding():
        store.conn.execute(
            "INSERT INTO edges (from_id, to_id, kind, created_at) VALUES (998, 999, 'cites', 'x')"
        )
    assert _dump(store) == before
    assert not store.conn.in_transaction
    assert _foreign_keys(store) == 1


def test_rebuilding_refill_accepted(store: ForestStore, scroll: Scroll) -> None:
    rooted_entry(store, scroll)
    with store.rebuilding():
        assert _dump(store) == []
        pair = rooted_entry(store, scroll, "a new index")
        make_entry(store, pair, "derived again")
    assert len(_dump(store)) > 0
    assert store.conn.execute("PRAGMA foreign_key_check").fetchone() is None
    assert _foreign_keys(store) == 1


def test_rebuilding_inside_transaction_refused(store: ForestStore) -> None:
    with store.atomic(), pytest.raises(ForestError, match="own transaction"):  # noqa: SIM117
        with store.rebuilding():
            pass
    assert _foreign_keys(store) == 1
