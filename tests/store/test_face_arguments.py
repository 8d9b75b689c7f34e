"""More of the library face given arguments of the wrong shape (the first ops are in
tests/store/test_store_arguments.py): one ``BoundsRefused`` naming the op and the
argument, never a raw ``AttributeError``, ``TypeError`` or ``ProgrammingError`` from
inside, never a value quietly turned into text with ``str()``; a value Forest 0.4
refused (``None`` for a required text) keeps 0.4's refusal. The store is byte-identical
after each refusal (``assert_refused`` dumps every table).
"""

from __future__ import annotations

from typing import Any

import pytest

from forest_files import ForestStore, Scroll
from forest_files.kernel.bounds import BoundsRefused
from tests.helpers.store import assert_refused, make_entry, make_pair

# erase_body: a list or number as the signature or reason raised AttributeError
# (``.strip``), a list as ``at`` reached sqlite3 (ProgrammingError), and a float ``at``
# (``time.time()``) was recorded as the text "1733000000.5" for the erasure's time.
BAD_ERASES = [
    pytest.param({"signature": ["ada"]}, "signature: must be a str, not list", id="sig-list"),
    pytest.param({"signature": 7}, "signature: must be a str, not int", id="sig-int"),
    pytest.param({"reason": ["leak"]}, "reason: must be a str, not list", id="reason-list"),
    pytest.param({"reason": 1.5}, "reason: must be a str, not float", id="reason-float"),
    pytest.param({"at": ["now"]}, "at: must be a str or None, not list", id="at-list"),
    pytest.param({"at": 1733000000.5}, "at: must be a str or None, not float", id="at-float"),
    pytest.param({"at": 1733000000}, "at: must be a str or None, not int", id="at-int"),
]


def _erase(store: ForestStore, entry_id: int, **change: Any) -> None:
    kwargs: dict[str, Any] = {"signature": "author", "reason": "leaked key"}
    store.erase_body(entry_id, **{**kwargs, **change})


@pytest.mark.parametrize(("change", "match"), BAD_ERASES)
def test_erase_body_bad_argument_shape_refused(
    store: ForestStore, scroll: Scroll, change: dict[str, Any], match: str
) -> None:
    note = make_entry(store, make_pair(store, scroll), "bees eat nectar")
    err = assert_refused(
        store,
        lambda: _erase(store, note, **change),
        match=f"^erase: {match}; e\\.g\\. ",
        exc=BoundsRefused,
    )
    assert "leak" not in str(err).split("e.g.")[0] and "ada" not in str(err)


@pytest.mark.parametrize("field", ["signature", "reason"])
def test_erase_body_none_text_refused_as_missing(
    store: ForestStore, scroll: Scroll, field: str
) -> None:
    note = make_entry(store, make_pair(store, scroll), "bees eat nectar")
    err = assert_refused(
        store,
        lambda: _erase(store, note, **{field: None}),
        match="^erase: signature and reason are required",
    )
    assert not isinstance(err, BoundsRefused)


def test_erase_body_at_str_or_none_accepted(store: ForestStore, scroll: Scroll) -> None:
    pair = make_pair(store, scroll)
    first, second = (make_entry(store, pair, f"bees eat {w}") for w in ("nectar", "pollen"))
    _erase(store, first, at="2026-01-01T12:00:00.000Z")
    _erase(store, second, at=None)
    stamps = dict(store.conn.execute("SELECT entry_id, created_at FROM erasures").fetchall())
    assert stamps[first] == "2026-01-01T12:00:00.000Z" and stamps[second].endswith("Z")


@pytest.mark.parametrize("value", [["ab" * 32], None, 5, b"ab"])
def test_id_for_content_not_str_refused(store: ForestStore, scroll: Scroll, value: Any) -> None:
    """A list reached sqlite3 (ProgrammingError); None and an int (an entry id given by
    mistake) answered "exists nowhere"."""
    make_pair(store, scroll)
    assert_refused(
        store,
        lambda: store.id_for_content(value),
        match=rf"^id_for_content: content_id: must be a str, not {type(value).__name__}",
        exc=BoundsRefused,
    )


def test_id_for_content_str_accepted(store: ForestStore, scroll: Scroll) -> None:
    pair = make_pair(store, scroll)
    assert store.id_for_content(store.content_id(pair)) == pair
    assert store.id_for_content("f" * 64) is None
