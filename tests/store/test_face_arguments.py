"""More of the library face given arguments of the wrong shape (the first ops are in
tests/store/test_store_arguments.py): one ``BoundsRefused`` naming the op and the
argument, never a raw ``AttributeError``, ``TypeError`` or ``ProgrammingError`` from
inside, never a value quietly turned into text with ``str()``; a value Forest 0.4
refused (``None`` for a required text) keeps 0.4's refusal. The store is byte-identical
after each refusal (``assert_refused`` dumps every table).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from forest_files import (
    CeremonyRefusal,
    ForestStore,
    Scroll,
    check_file_drift,
    commit_turn,
    fruits_near,
    plant_question,
)
from forest_files.kernel.bounds import BoundsRefused
from tests.helpers.store import (
    ADOPTING_WORDS,
    AUTHOR,
    assert_refused,
    make_entry,
    make_pair,
    root,
)

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


@pytest.mark.parametrize("value", [None, ["notes.md"], b"notes.md", 5])
def test_check_file_drift_path_not_str_refused(
    store: ForestStore, scroll: Scroll, value: Any
) -> None:
    """``Path(None)`` and ``Path([...])`` raised a bare ``TypeError``."""
    record = _adoption_record(store, scroll)
    assert_refused(
        store,
        lambda: check_file_drift(value, store, record),
        match=rf"^check_file_drift: file_path: must be a str or a Path, not "
        rf"{type(value).__name__}; e\.g\. file_path=Path\('notes\.md'\)",
        exc=BoundsRefused,
    )


def test_check_file_drift_str_or_path_accepted(
    store: ForestStore, scroll: Scroll, tmp_path: Path
) -> None:
    record = _adoption_record(store, scroll)
    (tmp_path / "notes.md").write_text("bees eat nectar", encoding="utf-8")
    for given in (tmp_path / "notes.md", str(tmp_path / "notes.md")):
        assert check_file_drift(given, store, record) == []


def _adoption_record(store: ForestStore, scroll: Scroll) -> int:
    note = make_entry(store, make_pair(store, scroll), "bees eat nectar")
    root(store, note)
    found = store.conn.execute(
        "SELECT from_id FROM edges WHERE to_id = ? AND kind = 'adopts'", (note,)
    ).fetchone()
    return int(found[0])


# import_and_root: an item that is not a (body, meta) pair raised a bare ValueError or
# TypeError from unpacking, words given as a list TypeError (unhashable), a signature or
# origin given as a list was "unsigned" or TypeError, a list as a body "empty body", and a
# list as meta was taken for {}.
BAD_IMPORTS = [
    pytest.param({"items": ["bees"]}, r"items\[0\]: must be a pair, not str", id="item-str"),
    pytest.param({"items": [5]}, r"items\[0\]: must be a pair, not int", id="item-int"),
    pytest.param(
        {"items": [("bees", {}, 1)]}, r"items\[0\]: must be a pair, not a tuple of 3", id="3"
    ),
    pytest.param({"items": 5}, "items: must be a list, not int", id="items-int"),
    pytest.param({"items": [(["b"], {})]}, r"items\[0\]\[0\]: must be a str, not list", id="b"),
    pytest.param({"items": [("bees", [])]}, r"items\[0\]\[1\]: must be a mapping", id="meta"),
    pytest.param(
        {"adopting_words": [ADOPTING_WORDS]}, "adopting_words: must be a str, not list", id="w"
    ),
    pytest.param({"signature": ["ada"]}, "signature: must be a str, not list", id="sig"),
    pytest.param(
        {"adopting_signature": ["ada"]}, "adopting_signature: must be a str, not list", id="sp"
    ),
    pytest.param({"origin": ["x"]}, "origin: entry id: must be an int, not list", id="origin"),
    pytest.param({"origin": "1"}, "origin: entry id: must be an int, not str", id="origin-str"),
]


def _import(store: ForestStore, pair: int, **change: Any) -> Any:
    kwargs: dict[str, Any] = {
        "items": [("bees eat nectar", {"n": 1})],
        "origin": pair,
        "signature": AUTHOR,
        "adopting_words": ADOPTING_WORDS,
        "adopting_signature": AUTHOR,
    }
    return store.import_and_root(**{**kwargs, **change})


@pytest.mark.parametrize(("change", "match"), BAD_IMPORTS)
def test_import_and_root_bad_argument_shape_refused(
    store: ForestStore, scroll: Scroll, change: dict[str, Any], match: str
) -> None:
    pair = make_pair(store, scroll)
    assert_refused(
        store,
        lambda: _import(store, pair, **change),
        match=f"^import_and_root: {match}",
        exc=BoundsRefused,
    )


def test_import_and_root_none_words_refused_as_missing(store: ForestStore, scroll: Scroll) -> None:
    pair = make_pair(store, scroll)
    err = assert_refused(
        store,
        lambda: _import(store, pair, adopting_words=None),
        match="missing adopting words",
        exc=CeremonyRefusal,
    )
    assert not isinstance(err, BoundsRefused)


def test_import_and_root_good_item_shapes_accepted(store: ForestStore, scroll: Scroll) -> None:
    pair = make_pair(store, scroll)
    items = [("bees eat nectar", {"n": 1}), ["bees eat pollen", None], ("bees hum", {})]
    made = _import(store, pair, items=items)
    assert [store.is_ground(a.entry_id) for a in made] == [True, True, True]


# commit_turn and write_pair: 0.4 joined the texts with ``+`` (a bare TypeError); an
# f-string recorded a list as the text "['a']" in the scroll and the pair, and ``str()``
# did the same to a scroll path or hash. Refused before the scroll is touched.
@pytest.mark.parametrize(
    ("change", "field", "kind"),
    [
        ({"user_text": ["a"]}, "user_text", "list"),
        ({"user_text": 5}, "user_text", "int"),
        ({"assistant_text": None}, "assistant_text", "NoneType"),
        ({"assistant_text": {"a": 1}}, "assistant_text", "dict"),
    ],
)
def test_commit_turn_text_not_str_refused(
    store: ForestStore, scroll: Scroll, change: dict[str, Any], field: str, kind: str
) -> None:
    make_pair(store, scroll)
    before = scroll.path.read_bytes()
    turn: dict[str, Any] = {"user_text": "what do bees eat", "assistant_text": "nectar"}
    assert_refused(
        store,
        lambda: commit_turn(store, scroll, **{**turn, **change}),
        match=rf"^commit_turn: {field}: must be a str, not {kind}; e\.g\. {field}=",
        exc=BoundsRefused,
    )
    assert scroll.path.read_bytes() == before


BAD_PAIRS = [
    pytest.param({"user_text": ["a"]}, "user_text: must be a str, not list", id="user"),
    pytest.param({"assistant_text": 0}, "assistant_text: must be a str, not int", id="asst"),
    pytest.param(
        {"scroll_ptr": {"path": ["s"], "offset": 0}},
        r"scroll_ptr\['path'\]: must be a str or a Path, not list",
        id="path-list",
    ),
    pytest.param(
        {"scroll_ptr": {"path": None, "offset": 0}},
        r"scroll_ptr\['path'\]: must be a str or a Path, not NoneType",
        id="path-none",
    ),
    pytest.param(
        {"scroll_ptr": {"path": "s", "offset": 0, "hash": ["h"]}},
        r"scroll_ptr\['hash'\]: must be a str or None, not list",
        id="hash-list",
    ),
]


@pytest.mark.parametrize(("change", "match"), BAD_PAIRS)
def test_write_pair_bad_argument_shape_refused(
    store: ForestStore, scroll: Scroll, change: dict[str, Any], match: str
) -> None:
    make_pair(store, scroll)
    turn: dict[str, Any] = {
        "user_text": "what do bees eat",
        "assistant_text": "nectar",
        "scroll_ptr": {"path": "s", "offset": 0},
    }
    assert_refused(
        store,
        lambda: store.write_pair(**{**turn, **change}),
        match=f"^write_pair: {match}",
        exc=BoundsRefused,
    )


def test_write_pair_scroll_path_accepted(store: ForestStore, tmp_path: Path) -> None:
    """A Path is a path (0.4 took it through ``str()``); a missing hash stays missing."""
    for path in (tmp_path / "s.scroll", str(tmp_path / "s.scroll")):
        pair = store.write_pair("q", "a", scroll_ptr={"path": path, "offset": 0, "hash": None})
        row = store.get(pair)
        assert row is not None
        assert json.loads(row["meta_json"])["scroll_ptr"] == {
            "path": str(tmp_path / "s.scroll"),
            "offset": 0,
        }


@pytest.mark.parametrize("value", [["bees"], 5, {"t": "bees"}])
def test_recall_side_excerpt_not_str_refused(
    store: ForestStore, scroll: Scroll, value: Any
) -> None:
    """``str()`` handed back a list as the preview "['bees']"."""
    note = make_entry(store, make_pair(store, scroll), "bees eat nectar")
    assert_refused(
        store,
        lambda: store.recall_side([{"id": note, "jurisdiction": "home", "excerpt": value}]),
        match=rf"^recall.side: excerpt: must be a str, not {type(value).__name__}",
        exc=BoundsRefused,
    )
    side = store.recall_side([{"id": note, "jurisdiction": "home", "excerpt": None}])
    assert side[0]["excerpt"] == "bees eat nectar"


# step and move: 0.4 accepted any signature (step ignores it) and took any truthy
# ``shallower`` ("no", a list) for True; fruits_near answered [] for a list as
# min_ripeness when no fruit was near, a bare TypeError when one was.
WALK_AND_FRUITS = [
    pytest.param("step-sig", ["x"], r"^step: signature: must be a str or None, not list", id="s"),
    pytest.param("move-sig", 7, r"^move: signature: must be a str or None, not int", id="m"),
    pytest.param("shallower", "no", r"^move: shallower: must be True or False, not str", id="no"),
    pytest.param("shallower", ["x"], r"^move: shallower: must be True or False, not list", id="l"),
    pytest.param("shallower", 1, r"^move: shallower: must be True or False, not int", id="1"),
    pytest.param("ripeness", [1], r"^fruits_near: min_ripeness: must be an int, not list", id="r"),
    pytest.param("ripeness", "1", r"^fruits_near: min_ripeness: must be an int, not str", id="rs"),
    pytest.param("ripeness", None, r"^fruits_near: min_ripeness: must be an int, not None", id="n"),
    pytest.param("ripeness", True, r"^fruits_near: min_ripeness: must be an int, not bool", id="b"),
]


@pytest.mark.parametrize(("op", "value", "match"), WALK_AND_FRUITS)
def test_walk_and_fruits_bad_argument_shape_refused(
    store: ForestStore, scroll: Scroll, op: str, value: Any, match: str
) -> None:
    pair = make_pair(store, scroll)
    note = make_entry(store, pair, "bees eat nectar")
    plant_question(store, body="what else do bees eat?", about_ids=[note])
    trail = store.open(note)
    store.around(trail)
    calls = {
        "step-sig": lambda: store.step(trail, "out", signature=value),
        "move-sig": lambda: store.move(trail, deeper=(0, 4), signature=value),
        "shallower": lambda: store.move(trail, shallower=value),
        "ripeness": lambda: fruits_near(store, [note], min_ripeness=value),
    }
    assert_refused(store, calls[op], match=match, exc=BoundsRefused)
    assert store.step(trail, "out").position == pair  # the refusal spent no ticket


def test_walk_and_fruits_good_arguments_accepted(store: ForestStore, scroll: Scroll) -> None:
    pair = make_pair(store, scroll)
    note = make_entry(store, pair, "bees eat nectar")
    plant_question(store, body="what else do bees eat?", about_ids=[note])
    trail = store.open(note)
    store.around(trail)
    trail = store.step(trail, "out", signature=None)
    assert store.move(store.open(note), shallower=True).position == pair
    assert store.move(store.open(note), deeper=(0, 4), shallower=None).position != note
    assert len(fruits_near(store, [note], min_ripeness=0)) == 1
    assert fruits_near(store, [note], min_ripeness=-(2**70)) == fruits_near(store, [note])
