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

from forest_files import ForestStore, Scroll, fruits_near, plant_question, root_to_ground
from forest_files.kernel.bounds import BoundsRefused
from forest_files.kernel.errors import CeremonyRefusal, ForestError
from tests.helpers.store import (
    ADOPTING_WORDS,
    AUTHOR,
    assert_refused,
    body_hash_of,
    make_entry,
    make_pair,
    rooted_entry,
)

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


def _write(store: ForestStore, origin: int, **change: Any) -> int:
    kwargs: dict[str, Any] = {
        "body": "bees eat nectar",
        "bucket": "note",
        "signature": "author",
        "origins": [(origin, "derived_from")],
    }
    return store.write(**{**kwargs, **change})


BAD_WRITES = [
    pytest.param({"bucket": ["note"]}, "bucket: must be a str, not list", id="bucket-list"),
    pytest.param({"bucket": None}, "bucket: must be a str, not NoneType", id="bucket-none"),
    pytest.param(
        {"jurisdiction": ["home"]}, "jurisdiction: must be a str, not list", id="jur-list"
    ),
    pytest.param({"jurisdiction": 1}, "jurisdiction: must be a str, not int", id="jur-int"),
    pytest.param(
        {"origins": "PAIR:list-kind"}, "origins: edge kind: must be a str, not list", id="kind"
    ),
    pytest.param(
        {"signature": ["ada"]}, "signature: must be a str, not list; e.g. ", id="sig-list"
    ),
    pytest.param({"signature": 7}, "signature: must be a str, not int", id="sig-int"),
    pytest.param({"meta": "ab"}, "meta: must be a mapping", id="meta-str"),
    pytest.param({"meta": [1]}, "meta: must be a mapping", id="meta-list"),
    pytest.param({"meta": [("k", "v")]}, "meta: must be a mapping", id="meta-pairs"),
    pytest.param({"meta": 0}, "meta: must be a mapping", id="meta-zero"),
    pytest.param({"origins": 5}, "origins: must be a list, not int", id="origins-int"),
    pytest.param({"origins": "ab"}, "origins: must be a list, not str", id="origins-str"),
    pytest.param(
        {"origins": "PAIR:generator"}, "origins: must be a list, not generator", id="origins-gen"
    ),
]


def _resolve(change: dict[str, Any], pair: int) -> dict[str, Any]:
    """Values that need the pair's id (a kind that is a list, a one-shot generator)."""
    if change.get("origins") == "PAIR:list-kind":
        return {"origins": [(pair, ["derived_from"])]}
    if change.get("origins") == "PAIR:generator":
        return {"origins": ((pair, k) for k in ["derived_from"])}
    return change


@pytest.mark.parametrize(("change", "match"), BAD_WRITES)
def test_write_bad_argument_shape_refused(
    store: ForestStore, scroll: Scroll, change: dict[str, Any], match: str
) -> None:
    pair = make_pair(store, scroll)
    assert_refused(
        store,
        lambda: _write(store, pair, **_resolve(change, pair)),
        match=f"^write: {match}",
        exc=BoundsRefused,
    )


def test_add_edge_kind_not_str_refused(store: ForestStore, scroll: Scroll) -> None:
    pair = make_pair(store, scroll)
    note = make_entry(store, pair, "bees eat nectar")
    assert_refused(
        store,
        lambda: store.add_edge(note, pair, ["cites"]),  # type: ignore[arg-type]
        match="^add_edge: kind: must be a str, not list; use one of: ",
        exc=BoundsRefused,
    )


def test_write_good_argument_shapes_accepted(store: ForestStore, scroll: Scroll) -> None:
    pair = make_pair(store, scroll)
    for origins in ([(pair, "derived_from")], ((pair, "derived_from"),), {(pair, "cites")}):
        for meta in (None, {}, {"k": "v"}):
            assert store.get(_write(store, pair, origins=origins, meta=meta)) is not None


def test_recall_similar_duplicate_open_buckets_accepted(store: ForestStore, scroll: Scroll) -> None:
    """A bucket named twice asks for what naming it once does: the same answer, and the
    retrieval log records each bucket once (0.4 logged ``["note", "note"]``)."""
    pair = make_pair(store, scroll, "bees", "bees hum")
    note = make_entry(store, pair, "bees eat nectar")
    once = store.recall_similar("bees", open_buckets=["note"])
    for buckets in (["note", "note"], ("note", "note", "note")):
        assert store.recall_similar("bees", open_buckets=buckets) == once
    both = store.recall_similar("bees", open_buckets=["pair", "note", "pair"])
    assert sorted(s["id"] for s in both) == [pair, note]
    logged = store.conn.execute("SELECT open_buckets_json FROM retrieval_log ORDER BY id")
    assert [r[0] for r in logged] == ['["note"]'] * 3 + ['["pair", "note"]']


# Each ceremony's texts, given a list: 0.4 called a list as a signature "unsigned",
# as words "missing", and as a hash a mismatch echoing it.
CEREMONY_TEXTS = [
    ("root", "quote"),
    ("root", "adopting_signature"),
    ("root", "expected_body_hash"),
    ("root_to_ground", "adopting_words"),
    ("root_to_ground", "adopting_signature"),
    ("root_to_ground", "expected_body_hash"),
    ("root_to_ground", "source_verbatim"),
    ("supersede", "adopting_words"),
    ("supersede", "adopting_signature"),
    ("supersede", "signature"),
    ("supersede", "expected_body_hash"),
    ("seal", "quote"),
    ("seal", "signature"),
    ("unseal", "quote"),
    ("unseal", "signature"),
    ("resolve", "adopting_words"),
    ("resolve", "adopting_signature"),
]


def _ceremony(store: ForestStore, scroll: Scroll, op: str) -> tuple[Any, dict[str, Any]]:
    """The call of ``op`` on a fitting entry, and its good keyword arguments."""
    if op in ("root", "root_to_ground"):
        note = make_entry(store, make_pair(store, scroll), "bees eat nectar")
        good = {"entry_id": note, "expected_body_hash": body_hash_of(store, note)}
        if op == "root":
            return store.root, {**good, "quote": ADOPTING_WORDS, "adopting_signature": AUTHOR}
        words = {"adopting_words": ADOPTING_WORDS, "adopting_signature": AUTHOR}
        return lambda **kw: root_to_ground(store, **kw), {**good, **words}
    ground = rooted_entry(store, scroll)
    if op == "unseal":
        store.seal(entry_id=ground, quote="withdrawn", signature=AUTHOR)
    if op in ("seal", "unseal"):
        return getattr(store, op), {"entry_id": ground, "quote": "why", "signature": AUTHOR}
    words = {"adopting_words": ADOPTING_WORDS, "adopting_signature": AUTHOR}
    if op == "resolve":
        return store.resolve, {"contested_id": ground, "pick_id": ground, **words}
    return store.supersede, {"old_id": ground, "new_body": "bees eat pollen", **words}


@pytest.mark.parametrize(("op", "field"), CEREMONY_TEXTS)
def test_ceremony_text_not_str_refused(
    store: ForestStore, scroll: Scroll, op: str, field: str
) -> None:
    call, kwargs = _ceremony(store, scroll, op)
    err = assert_refused(
        store,
        lambda: call(**{**kwargs, field: ["author"]}),
        match=rf"^{op}: {field}: must be a str( or None)?, not list; e\.g\. {field}=",
        exc=BoundsRefused,
    )
    assert "author" not in str(err).split("e.g.")[0]


@pytest.mark.parametrize("bucket", [["note"], {"note": 1}, 3, 1.5, True])
def test_supersede_bucket_not_str_refused(store: ForestStore, scroll: Scroll, bucket: Any) -> None:
    """A list or dict raised ``TypeError`` (unhashable) from a set lookup; an int was
    "unknown bucket 3". The buckets offered are the ones a supersession may write."""
    ground = rooted_entry(store, scroll)
    err = assert_refused(
        store,
        lambda: store.supersede(
            old_id=ground, new_body="bees eat pollen", adopting_words=ADOPTING_WORDS, bucket=bucket
        ),
        match=rf"^supersede: bucket: must be a str, not {type(bucket).__name__}; use one of: ",
        exc=BoundsRefused,
    )
    choices = str(err).split("use one of: ")[1].split(", ")
    assert "note" in choices and "pair" not in choices and "adoption_record" not in choices
    assert store.is_ground(ground)


# Each raised a bare TypeError or ValueError from inside in 0.4 (``fruits_near`` also
# took the str "5" for entry 5), or (a tuple of strs as ``about_ids``) a refusal of the
# first character as an origin id.
OTHER_OPS = [
    pytest.param("recall_side", 5, "^recall.side: scraps: must be a list, not int", id="side-int"),
    pytest.param(
        "recall_side-jurisdiction",
        ["home"],
        "^recall.side: jurisdiction: must be a str, not list",
        id="side-jurisdiction",
    ),
    pytest.param("step", ["out"], "^step: direction: must be a str, not list", id="step-list"),
    pytest.param("plant", 1.5, "^plant_question: about_ids: must be a list, not float", id="plant"),
    pytest.param(
        "plant", "12", "^plant_question: about_ids: must be a list, not str", id="plant-str"
    ),
    pytest.param(
        "fruits", None, "^fruits_near: entry_ids: must be a list, not NoneType", id="fruits"
    ),
    pytest.param(
        "fruits",
        ["1"],
        r"^fruits_near: entry_ids\[0\]: entry id: must be an int, not str",
        id="fruits-str-id",
    ),
    pytest.param(
        "fruits",
        [[1]],
        r"^fruits_near: entry_ids\[0\]: entry id: must be an int, not list",
        id="fruits-list-id",
    ),
]


@pytest.mark.parametrize(("op", "value", "match"), OTHER_OPS)
def test_face_op_bad_argument_shape_refused(
    store: ForestStore, scroll: Scroll, op: str, value: Any, match: str
) -> None:
    pair = make_pair(store, scroll)
    note = make_entry(store, pair, "bees eat nectar")
    trail = store.open(note)
    store.around(trail)
    calls = {
        "recall_side": lambda: store.recall_side(value),
        "recall_side-jurisdiction": lambda: store.recall_side(
            [{"id": 99, "jurisdiction": value, "excerpt": "x"}]
        ),
        "step": lambda: store.step(trail, value),
        "plant": lambda: plant_question(store, body="what do bees eat?", about_ids=value),
        "fruits": lambda: fruits_near(store, value),
    }
    assert_refused(store, calls[op], match=match, exc=BoundsRefused)


# None given for a text: refused as 0.4 refused a missing one, with its class and words
# (a 0.4 caller catching CeremonyRefusal for an unset signature still catches it).
NONE_TEXTS = [
    ("root", "quote", ForestError, "root without adopting words refused"),
    ("root", "adopting_signature", ForestError, "root without a speaker signature refused"),
    ("root", "expected_body_hash", ForestError, "expected_body_hash required"),
    ("root_to_ground", "adopting_words", CeremonyRefusal, "missing adopting words"),
    ("root_to_ground", "adopting_signature", CeremonyRefusal, "without a speaker signature"),
    ("supersede", "adopting_words", ForestError, "without adopting words"),
    ("resolve", "adopting_signature", ForestError, "signature"),
]


@pytest.mark.parametrize(("op", "field", "exc", "match"), NONE_TEXTS)
def test_ceremony_text_none_refused_as_missing(
    store: ForestStore, scroll: Scroll, op: str, field: str, exc: type[Exception], match: str
) -> None:
    call, kwargs = _ceremony(store, scroll, op)
    err = assert_refused(store, lambda: call(**{**kwargs, field: None}), match=match, exc=exc)
    assert not isinstance(err, BoundsRefused)


def test_write_signature_none_refused_as_unsigned(store: ForestStore, scroll: Scroll) -> None:
    pair = make_pair(store, scroll)
    err = assert_refused(
        store, lambda: _write(store, pair, signature=None), match="unsigned insert refused"
    )
    assert not isinstance(err, BoundsRefused)
