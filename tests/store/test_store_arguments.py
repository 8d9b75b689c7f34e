"""Arguments of the wrong shape given to the library face: one ``BoundsRefused``
naming the op and the argument and saying what to pass — never a raw
``TypeError``, ``ValueError`` or ``OverflowError`` from deep inside, never a
silent ``[]`` for a str or an unknown bucket, never a value coerced (``1.5``,
``True``) — and the store byte-identical (``assert_refused`` dumps every table,
so a refused recall writes no ``retrieval_log`` row).
"""

from __future__ import annotations

from typing import Any

import pytest

from forest_files import ForestStore, Scroll
from forest_files.kernel.bounds import BoundsRefused
from tests.helpers.store import assert_refused, make_entry, make_pair

BAD_OPEN_BUCKETS = [
    pytest.param("note", "open_buckets: must be a list, not str", id="str"),
    pytest.param(b"note", "open_buckets: must be a list, not bytes", id="bytes"),
    pytest.param({"note": 1}, "open_buckets: must be a list, not dict", id="dict"),
    pytest.param(5, "open_buckets: must be a list, not int", id="int"),
    pytest.param(iter(["note"]), "open_buckets: must be a list, not list_iterator", id="iterator"),
    pytest.param(["nope"], r"open_buckets\[0\]: is not one of the known", id="unknown"),
    pytest.param(["note", "canon"], r"open_buckets\[1\]: is not one of", id="0.3-canon"),
    pytest.param([None], r"open_buckets\[0\]: must be a str, not NoneType", id="none-item"),
    pytest.param([["note"]], r"open_buckets\[0\]: must be a str, not list", id="list-item"),
]


@pytest.mark.parametrize(("value", "match"), BAD_OPEN_BUCKETS)
def test_recall_similar_bad_open_buckets_refused(
    store: ForestStore, scroll: Scroll, value: Any, match: str
) -> None:
    make_entry(store, make_pair(store, scroll), "bees eat nectar")
    err = assert_refused(
        store,
        lambda: store.recall_similar("bees", open_buckets=value),
        match=f"^recall: {match}",
        exc=BoundsRefused,
    )
    assert "use one of" in str(err) or "open_buckets=['note']" in str(err)


BAD_LIMITS = [
    pytest.param("x", "must be an int or None, not str", id="str"),
    pytest.param("3", "must be an int or None, not str", id="str-digits"),
    pytest.param([1], "must be an int or None, not list", id="list"),
    pytest.param(1.5, "must be an int or None, not float", id="float"),
    pytest.param(True, "must be an int or None, not bool", id="bool"),
    pytest.param(2**70, "is beyond SQLite's integer range", id="beyond-int64"),
    pytest.param(-(2**70), "is beyond SQLite's integer range", id="below-int64"),
]


@pytest.mark.parametrize(("value", "match"), BAD_LIMITS)
def test_recall_similar_bad_limit_refused(
    store: ForestStore, scroll: Scroll, value: Any, match: str
) -> None:
    make_entry(store, make_pair(store, scroll), "bees eat nectar")
    assert_refused(
        store,
        lambda: store.recall_similar("bees", limit=value),
        match=f"^recall: limit: {match}",
        exc=BoundsRefused,
    )


def test_recall_similar_good_arguments_accepted(store: ForestStore, scroll: Scroll) -> None:
    pair = make_pair(store, scroll, "bees", "bees hum")
    note = make_entry(store, pair, "bees eat nectar")
    for buckets in (["note"], ("note",), {"note"}, frozenset({"note"})):
        assert [s["id"] for s in store.recall_similar("bees", open_buckets=buckets)] == [note]
    for buckets in (None, []):
        assert len(store.recall_similar("bees", open_buckets=buckets)) == 2
    # a huge limit is as good as none; a negative one means none (SQLite's rule, as 0.4)
    for limit in (2**62, 2**63 - 1, -1, -(2**63), None):
        assert len(store.recall_similar("bees", limit=limit)) == 2
    logged = store.conn.execute("SELECT open_buckets_json FROM retrieval_log").fetchall()
    assert [r[0] for r in logged][:4] == ['["note"]'] * 4
