"""An entry id that is not an int an entry can have, given to any op of the library
face: one ``BoundsRefused`` naming the op and saying the id must be an int (or is
beyond SQLite's range) — never an ``OverflowError``, ``ProgrammingError`` or
``UnicodeEncodeError`` from inside sqlite3, never a misleading "unknown entry 2" for
the string ``"2"`` of an entry that exists, never the value echoed — and the store
byte-identical (``assert_refused`` dumps every table).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from forest_files import (
    ForestStore,
    Scroll,
    answer_question,
    check_file_drift,
    feed_question,
    is_open,
    plant_question,
)
from forest_files.kernel.bounds import BoundsRefused
from tests.helpers.store import assert_refused, make_entry, make_pair, rooted_entry

BAD_IDS = [
    pytest.param(2**70, id="beyond-int64"),
    pytest.param(-(2**63) - 1, id="below-int64"),
    pytest.param("2", id="str-of-a-real-id"),
    pytest.param("a\udcffb", id="lone-surrogate"),
    pytest.param([2], id="list"),
    pytest.param({"id": 2}, id="dict"),
    pytest.param(2.0, id="float"),
    pytest.param(True, id="bool"),
    pytest.param(None, id="none"),
]

Op = Callable[[ForestStore, Any], object]

OPS: dict[str, Op] = {
    "get": lambda s, v: s.get(v),
    "is_ground": lambda s, v: s.is_ground(v),
    "is_sealed": lambda s, v: s.is_sealed(v),
    "is_contested": lambda s, v: s.is_contested(v),
    "open": lambda s, v: s.open(v),
    "seal": lambda s, v: s.seal(entry_id=v, quote="hide it"),
    "unseal": lambda s, v: s.unseal(entry_id=v, quote="show it"),
    "supersede": lambda s, v: s.supersede(old_id=v, new_body="new", adopting_words="fix it"),
    "walk_back": lambda s, v: s.walk_back(v, adopting_signature="auditor"),
    "authority_report": lambda s, v: s.authority_report(v, adopting_signature="auditor"),
    "recall_side": lambda s, v: s.recall_side([{"id": v}]),
    "add_edge": lambda s, v: s.add_edge(v, 1, "cites"),
    "write_pair": lambda s, v: s.write_pair(
        "u", "a", scroll_ptr={"path": "s", "offset": 0}, previous_pair_id=v
    ),
    "move": lambda s, v: s.move(s.open(1), neighbor_id=v),
    "feed_question": lambda s, v: feed_question(s, question_id=v, entry_id=2),
    "answer_question": lambda s, v: answer_question(s, question_id=4, entry_id=v),
    "is_open": lambda s, v: is_open(s, v),
    "check_file_drift": lambda s, v: check_file_drift(Path(__file__), s, v),
}


@pytest.fixture
def filled(store: ForestStore, scroll: Scroll) -> ForestStore:
    """Entry 1 a pair, 2 a ground note (3 its adoption record), 4 a question about it."""
    note = rooted_entry(store, scroll)
    assert note == 2
    assert plant_question(store, body="why nectar?", about_ids=[note]) == 4
    return store


# None is how these two say "no such argument" (Forest's defaults), so it is no bad id.
OPTIONAL = {"move", "write_pair"}
CASES = [
    pytest.param(op, *bad.values, id=f"{op}-{bad.id}")
    for op in sorted(OPS)
    for bad in BAD_IDS
    if not (op in OPTIONAL and bad.values == (None,))
]


@pytest.mark.parametrize(("op", "bad"), CASES)
def test_entry_id_not_an_int_id_refused(filled: ForestStore, op: str, bad: object) -> None:
    err = assert_refused(filled, lambda: OPS[op](filled, bad), exc=BoundsRefused)
    text = str(err)
    assert "entry id" in text
    assert "must be an int" in text or "beyond the largest entry id" in text
    assert "udcff" not in text and "{'id'" not in text  # the value is not echoed


def test_entry_id_str_of_real_entry_refused_not_unknown(store: ForestStore, scroll: Scroll) -> None:
    pair = make_pair(store, scroll)
    note = make_entry(store, pair, "bees dance")
    err = assert_refused(store, lambda: store.open(str(note)), exc=BoundsRefused)
    assert "unknown entry" not in str(err)
    assert "open: entry id: must be an int, not str" in str(err)


def test_entry_id_plain_int_accepted(filled: ForestStore) -> None:
    assert filled.get(2) is not None
    assert filled.get(99) is None
    assert filled.is_ground(2) and not filled.is_ground(99)
    assert filled.open(2).position == 2


@pytest.mark.parametrize(
    "deeper",
    [
        pytest.param((0.5, 3), id="float-start"),
        pytest.param((True, 3), id="bool-start"),
        pytest.param({0: 0, 1: 3}, id="dict"),
        pytest.param((0, 1, 2), id="three"),
        pytest.param("03", id="str"),
    ],
)
def test_move_deeper_not_int_pair_refused(filled: ForestStore, deeper: object) -> None:
    trail = filled.open(2)
    assert_refused(
        filled,
        lambda: filled.move(trail, deeper=deeper),  # type: ignore[arg-type]
        match=r"move: deeper must be a \(start, end\) pair of ints",
    )
