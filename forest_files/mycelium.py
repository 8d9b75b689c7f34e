"""The optional question network: questions that grow next to entries.

Stores: ``question`` entries with ``asks_about`` origins; ``feeds``,
``answers`` and ``reopens`` edges. Nothing here ever promotes.
Refuses: a question about nothing ("about_ids is empty"), acts on an entry
that is not a question ("not a question") or on a sealed question ("sealed");
ids of another scope (``ScopeMismatch``), unknown ids (``NotFound``); ``about_ids``
or ``entry_ids`` that is not a list, an item of ``entry_ids`` that is not an int
(``BoundsRefused``: 0.4 raised ``TypeError`` or took ``"5"`` for 5), a
``min_ripeness`` that is not an int (a list answered ``[]`` with no fruit near, a
bare ``TypeError`` with one). Fruits
come from the store's scope only.
Returns: ids, booleans, and fruits whose ``question`` is a preview scrap
(never a row with a body).
Test: tests/face/test_mycelium.py
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from forest_files.kernel.errors import ForestError, NotFound, Refusal
from forest_files.store import args, queries
from forest_files.store.lookup import check_id
from forest_files.store.packets import DEFAULT_EXCERPT, scrap

if TYPE_CHECKING:
    from forest_files.store.forest import ForestStore

ASKS_ABOUT = "asks_about"
FEEDS = "feeds"
ANSWERS = "answers"
REOPENS = "reopens"


def plant_question(
    store: ForestStore, *, body: str, about_ids: Sequence[int], signature: str = "model"
) -> int:
    about_ids = args.collection("plant_question", "about_ids", about_ids, "[entry_id]")
    if not about_ids:
        raise ForestError("a question grows next to something; about_ids is empty")
    return store.write(
        body=body,
        bucket="question",
        signature=signature,
        origins=[(i, ASKS_ABOUT) for i in about_ids],
        scrub=None,
    )


def _refuse_sealed(store: ForestStore, question_id: int, act: str) -> None:
    row = store.get(check_id("question_id", question_id))  # ScopeMismatch if of another
    if row is None:
        raise NotFound(f"entry {question_id} is not a question (unknown entry {question_id})")
    if row["bucket"] != "question":
        raise Refusal(f"entry {question_id} is not a question")
    if store.is_sealed(question_id):
        raise Refusal(f"question {question_id} is sealed; {act} refused")


def feed_question(store: ForestStore, *, question_id: int, entry_id: int) -> None:
    _refuse_sealed(store, question_id, "feeding")
    store.add_edge(entry_id, question_id, FEEDS)


def answer_question(store: ForestStore, *, question_id: int, entry_id: int) -> None:
    _refuse_sealed(store, question_id, "answering")
    store.add_edge(entry_id, question_id, ANSWERS)


def reopen_question(store: ForestStore, *, question_id: int, entry_id: int) -> None:
    _refuse_sealed(store, question_id, "reopening")
    store.add_edge(entry_id, question_id, REOPENS)


def is_open(store: ForestStore, question_id: int) -> bool:
    store.in_scope(question_id, "is_open")
    row = store.conn.execute(queries.LATEST_ANSWER_KIND, (question_id,)).fetchone()
    return row is None or row[0] == REOPENS


def fruits_near(
    store: ForestStore, entry_ids: Sequence[int], *, min_ripeness: int = 0
) -> list[dict[str, Any]]:
    """Open, unsealed questions planted on or fed by ``entry_ids``, ripest first."""
    given = args.collection("fruits_near", "entry_ids", entry_ids, "[entry_id]")
    args.integer("fruits_near", "min_ripeness", min_ripeness, "2")
    ids = sorted({check_id(f"fruits_near: entry_ids[{n}]", i) for n, i in enumerate(given)})
    if not ids:
        return []
    found: set[int] = set()
    # Chunks keep the bound parameters under SQLite's variable limit.
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        marks = ",".join("?" * len(chunk))
        for question_side, near_side, kind in (
            ("from_id", "to_id", ASKS_ABOUT),
            ("to_id", "from_id", FEEDS),
        ):
            sql = queries.QUESTIONS_NEAR.format(
                question_side=question_side, near_side=near_side, marks=marks
            )
            found.update(int(r[0]) for r in store.conn.execute(sql, [kind, *chunk, store.scope]))
    fruits: list[dict[str, Any]] = []
    for qid in sorted(found):
        if store.is_sealed(qid) or not is_open(store, qid):
            continue
        ripeness = int(store.conn.execute(queries.RIPENESS, (qid,)).fetchone()[0])
        if ripeness < min_ripeness:
            continue
        near = sorted(
            int(r[0])
            for r in store.conn.execute(queries.NEXT_TO, {"question": qid, "scope": store.scope})
        )
        row = store.get(qid)
        assert row is not None
        fruits.append(
            {"question": scrap(row, DEFAULT_EXCERPT), "ripeness": ripeness, "next_to": near}
        )
    fruits.sort(key=lambda f: (-f["ripeness"], f["question"]["id"]))
    return fruits
