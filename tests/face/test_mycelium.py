"""Mycelium: questions fruit beside entries, never promote, never leak sealed text."""

from __future__ import annotations

import pytest

from forest_files import (
    ForestError,
    ForestStore,
    answer_question,
    feed_question,
    fruits_near,
    is_open,
    plant_question,
    reopen_question,
)

SECRET = "SENTINEL-QUESTION-5521"


def _node(store: ForestStore) -> int:
    pair = store.write_pair("seed", scroll_ptr={"path": "s", "offset": 0})
    return store.write(
        body="Elias left", bucket="note", signature="m", origins=[(pair, "derived_from")]
    )


def test_fruits_near_returns_preview_not_row_accepted(store: ForestStore) -> None:
    node = _node(store)
    q = plant_question(store, body="Why did Elias leave? " + "x" * 400, about_ids=[node])
    (fruit,) = fruits_near(store, [node])
    assert next(iter(fruit["question"])) == "jurisdiction"
    assert "body" not in fruit["question"]
    assert fruit["question"]["id"] == q
    assert len(fruit["question"]["excerpt"]) <= 161


def test_fruits_near_sealed_question_never_shown_refused(store: ForestStore) -> None:
    node = _node(store)
    q = plant_question(store, body=SECRET, about_ids=[node])
    store.seal(entry_id=q, quote="withdrawn")
    assert SECRET not in str(fruits_near(store, [node]))
    with pytest.raises(ForestError, match="sealed"):
        feed_question(store, question_id=q, entry_id=node)


def test_question_lifecycle_open_answer_reopen_accepted(store: ForestStore) -> None:
    node = _node(store)
    q = plant_question(store, body="Why?", about_ids=[node])
    assert is_open(store, q)
    answer_question(store, question_id=q, entry_id=node)
    assert not is_open(store, q)
    reopen_question(store, question_id=q, entry_id=node)
    assert is_open(store, q)
    assert not store.is_ground(q)


def test_plant_question_about_nothing_refused(store: ForestStore) -> None:
    with pytest.raises(ForestError, match="about_ids is empty"):
        plant_question(store, body="Why?", about_ids=[])


def test_feed_non_question_refused(store: ForestStore) -> None:
    node = _node(store)
    with pytest.raises(ForestError, match="not a question"):
        feed_question(store, question_id=node, entry_id=node)


def test_fruits_near_many_ids_under_variable_limit_accepted(store: ForestStore) -> None:
    node = _node(store)
    plant_question(store, body="Why?", about_ids=[node])
    assert len(fruits_near(store, list(range(1, 40000)))) == 1
