"""The last two argument refusals of the library face (tests/store/test_store_arguments.py
and test_face_arguments.py have the rest): ``write``'s refusal of a bucket offers only the
buckets ``write`` takes, each of Forest 0.4's still taken; ``insert_adoptions`` called
directly names a plan's field of the wrong type (``BoundsRefused``, store/args.py) where
it called a list body "empty", a list of words unhashable, a list speaker unsigned. The
store is byte-identical after each refusal (``assert_refused``).
"""

from __future__ import annotations

from typing import Any

import pytest

from forest_files import ForestStore, Scroll
from forest_files.kernel.bounds import BoundsRefused
from forest_files.kernel.errors import CeremonyRefusal
from forest_files.kernel.vocab import BUCKETS, CEREMONY_BUCKETS, ROOT_BUCKET
from forest_files.store.bulk import Adoption
from tests.helpers.store import ADOPTING_WORDS, AUTHOR, assert_refused, make_entry, make_pair

# Forest 0.4's fourteen buckets less its three ceremony records: what its write took.
WRITTEN_BY_04 = {
    "pair",
    "draft",
    "visitor_words",
    "note",
    "journal",
    "hearsay",
    "synthesis",
    "inference",
    "question",
    "internet",
    "import",
}
STAMP = ("2024-05-01T10:00:00.000Z", "00000000000000aa")
RECORD_STAMP = ("2024-05-01T10:00:00.000Z", "00000000000000ab")


def _write(store: ForestStore, origin: int, bucket: Any) -> int:
    return store.write(
        body="bees eat nectar",
        bucket=bucket,
        signature=AUTHOR,
        origins=[(origin, "derived_from")],
        scroll_ptr={"path": "scroll.jsonl", "offset": 0} if bucket == ROOT_BUCKET else None,
    )


@pytest.mark.parametrize(
    ("bucket", "match"),
    [
        pytest.param(["note"], "^write: bucket: must be a str, not list; use one of: ", id="list"),
        pytest.param(None, "^write: bucket: must be a str, not NoneType; use one of: ", id="none"),
        pytest.param("secret_stash", "^unknown bucket 'secret_stash'; use one of: ", id="unknown"),
        pytest.param("canon", "^unknown bucket 'canon'; use one of: ", id="0.3-canon"),
    ],
)
def test_write_bad_bucket_offers_only_writable_buckets_refused(
    store: ForestStore, scroll: Scroll, bucket: Any, match: str
) -> None:
    """Before: the buckets offered were all fifteen, the ceremony records (which ``write``
    refuses as "written only by a ceremony") and the repository anchor among them."""
    pair = make_pair(store, scroll)
    err = assert_refused(store, lambda: _write(store, pair, bucket), match=match)
    offered = set(str(err).split("use one of: ")[1].split(", "))
    assert offered == WRITTEN_BY_04
    assert not offered & CEREMONY_BUCKETS and "anchor" not in offered


def test_write_every_04_bucket_accepted(store: ForestStore, scroll: Scroll) -> None:
    assert WRITTEN_BY_04 <= BUCKETS and not WRITTEN_BY_04 & CEREMONY_BUCKETS
    pair = make_pair(store, scroll)
    for bucket in sorted(WRITTEN_BY_04):
        assert store.get(_write(store, pair, bucket))["bucket"] == bucket


def test_write_ceremony_bucket_refused_as_ceremony(store: ForestStore, scroll: Scroll) -> None:
    pair = make_pair(store, scroll)
    for bucket in sorted(CEREMONY_BUCKETS | {"anchor"}):
        assert_refused(store, lambda b=bucket: _write(store, pair, b), match="ceremony")


def _plan(anchor: int, **change: Any) -> Adoption:
    fields: dict[str, Any] = {
        "body": "bees eat nectar",
        "meta": {"n": 1},
        "origin": anchor,
        "signature": AUTHOR,
        "words": ADOPTING_WORDS,
        "speaker": AUTHOR,
        "entry_stamp": STAMP,
        "record_stamp": RECORD_STAMP,
    }
    return Adoption(**{**fields, **change})


BAD_PLANS = [
    pytest.param({"body": ["bees"]}, r"plans\[1\]\.body: must be a str, not list", id="body"),
    pytest.param({"body": None}, r"plans\[1\]\.body: must be a str, not NoneType", id="body-none"),
    pytest.param({"body": 7}, r"plans\[1\]\.body: must be a str, not int", id="body-int"),
    pytest.param({"words": [ADOPTING_WORDS]}, r"plans\[1\]\.words: must be a str", id="words"),
    pytest.param({"speaker": ["ada"]}, r"plans\[1\]\.speaker: must be a str", id="speaker"),
    pytest.param({"signature": ["ada"]}, r"plans\[1\]\.signature: must be a str", id="sig"),
    pytest.param({"meta": ["k"]}, r"plans\[1\]\.meta: must be a mapping", id="meta"),
    pytest.param({"origin": "1"}, r"plans\[1\]\.origin: entry id: must be an int", id="origin"),
]


@pytest.mark.parametrize(("change", "match"), BAD_PLANS)
def test_insert_adoptions_bad_plan_field_named_refused(
    store: ForestStore, scroll: Scroll, change: dict[str, Any], match: str
) -> None:
    origin = make_entry(store, make_pair(store, scroll), "the anchor of a batch")
    good = _plan(origin)
    assert_refused(
        store,
        lambda: store.insert_adoptions([good, _plan(origin, **change)]),
        match=f"^insert_adoptions: {match}",
        exc=BoundsRefused,
    )


def test_insert_adoptions_plans_not_a_list_refused(store: ForestStore, scroll: Scroll) -> None:
    origin = make_entry(store, make_pair(store, scroll), "the anchor of a batch")
    for plans, match in (
        (_plan(origin), r"plans\[0\]: must be an Adoption, not str"),
        ([tuple(_plan(origin))], r"plans\[0\]: must be an Adoption, not tuple"),
        (5, "plans: must be a list, not int"),
    ):
        assert_refused(
            store,
            lambda p=plans: store.insert_adoptions(p),
            match=f"^insert_adoptions: {match}",
            exc=BoundsRefused,
        )


def test_insert_adoptions_blank_or_none_texts_refused_as_before(
    store: ForestStore, scroll: Scroll
) -> None:
    """A text that is a str, or None, keeps its old refusal (blank, missing)."""
    origin = make_entry(store, make_pair(store, scroll), "the anchor of a batch")
    for change, match in (
        ({"words": None}, "missing adopting words"),
        ({"words": "  "}, "missing adopting words"),
        ({"speaker": None}, "without a speaker signature"),
        ({"signature": None}, "unsigned insert refused"),
        ({"body": " \n"}, "empty body refused"),
    ):
        err = assert_refused(
            store, lambda c=change: store.insert_adoptions([_plan(origin, **c)]), match=match
        )
        assert not isinstance(err, BoundsRefused)
        assert isinstance(err, CeremonyRefusal) == ("words" in change or "speaker" in change)


def test_insert_adoptions_good_plans_accepted(store: ForestStore, scroll: Scroll) -> None:
    origin = make_entry(store, make_pair(store, scroll), "the anchor of a batch")
    made = store.insert_adoptions((_plan(origin), _plan(origin, body="bees hum", meta=None)))
    assert [store.is_ground(m.entry_id) for m in made] == [True, True]
