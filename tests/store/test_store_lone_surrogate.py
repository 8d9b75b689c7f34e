"""A lone surrogate ("\\ud800", or a non-UTF-8 byte decoded with surrogateescape) in any
string an entry or an act carries: one ``BoundsRefused`` saying the value is not valid
Unicode text and how to fix it — never a raw ``UnicodeEncodeError`` — and the store
byte-identical (``assert_refused`` dumps every table).

The doors (CLI, forest.toml, a hand-written ledger line) are in
tests/custody/test_lone_surrogate_doors.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from forest_files import ForestStore, Scroll, root_to_ground
from forest_files.kernel.bounds import BoundsRefused, check_meta, check_unicode, unicode_fault
from forest_files.kernel.hashing import entry_content_id
from forest_files.kernel.repopath import check_repo_path, special_path_reason
from forest_files.ledger.acts import make_act
from forest_files.store.entryrow import entry_row
from tests.helpers.store import AUTHOR, assert_refused, body_hash_of, make_entry, rooted_entry

LONE = "\ud800"
NOT_UNICODE = r"is not valid Unicode text \(unpaired surrogate at index \d+\); give it as UTF-8"


@pytest.mark.parametrize(
    ("value", "where"),
    [
        ("ok" + LONE, ("f", 2)),
        ({"a": "fine", "b": ["x", {"c": "y\udcff"}]}, ("f.b[1].c", 1)),
        ({"k" + LONE: "v"}, ("f (a key)", 1)),
        ({"a": "é", "b": [1, 2.5, None, True]}, None),
    ],
)
def test_unicode_fault_names_the_field_detected(value: object, where: object) -> None:
    assert unicode_fault(value, "f") == where


def test_check_unicode_lone_surrogate_refused() -> None:
    with pytest.raises(BoundsRefused, match=rf"^source: {NOT_UNICODE}"):
        check_unicode("source", "a" + LONE)
    check_unicode("source", None)  # nothing to refuse


@pytest.mark.parametrize(
    "meta",
    [{"path": "a" + LONE}, {"n": {"deep": ["x", "y" + LONE]}}, {LONE: "v"}, {"k": "é" + LONE}],
)
def test_check_meta_lone_surrogate_refused(meta: dict[str, Any]) -> None:
    """Flat, nested and key: named as not Unicode, not as 'not a JSON object'."""
    with pytest.raises(BoundsRefused, match=rf"^meta[^:]*: {NOT_UNICODE}"):
        check_meta(meta)


def test_entry_row_unchecked_lone_surrogate_meta_refused() -> None:
    """The planner builds rows without the row bounds check (``max_body_bytes`` None):
    the content id refuses the surrogate by name instead of UnicodeEncodeError."""
    with pytest.raises(BoundsRefused, match=rf"^entry\.meta\.path: {NOT_UNICODE}"):
        entry_row(
            scope="s",
            stamp=("2024-01-01T00:00:00.000Z", "00"),
            jurisdiction="home",
            bucket="import",
            source=None,
            signature="Ada",
            body="text",
            links=(),
            meta={"path": "b\udcff.md", "selector": "b\udcff.md"},
        )


@pytest.mark.parametrize("field", ["scope", "signature", "source", "nonce", "created_at"])
def test_entry_content_id_lone_surrogate_refused(field: str) -> None:
    fields: dict[str, Any] = {
        "scope": "s", "created_at": "t", "jurisdiction": "home", "bucket": "note",
        "source": None, "signature": "Ada", "body_hash": "0" * 64, "meta": {},
        "nonce": "n", "origins": [],
    }  # fmt: skip
    fields[field] = "x" + LONE
    with pytest.raises(BoundsRefused, match=rf"^entry\.{field}: {NOT_UNICODE}"):
        entry_content_id(**fields)


def test_make_act_lone_surrogate_field_refused() -> None:
    """A new act whose fields hold a lone surrogate: the field is named (the line and
    its id are never encoded)."""
    fields = {"binding": "0" * 64, "words": "gone" + LONE, "signer": "Ada"}
    with pytest.raises(BoundsRefused, match=rf"^retire\.words: {NOT_UNICODE}"):
        make_act("retire", [], fields, scope="p")


def test_repo_path_not_utf8_name_refused() -> None:
    """A file name git holds as bytes that are not UTF-8 (decoded with surrogateescape)."""
    reason = special_path_reason("docs/b\udcff.md")
    assert reason is not None and "not valid UTF-8" in reason and "git mv" in reason
    with pytest.raises(ValueError, match="not valid UTF-8"):
        check_repo_path("docs/b\udcff.md")
    assert special_path_reason("docs/é.md") is None


# --- the library face (Forest 0.4): every string argument of every write ---------------


def _write(**change: Any) -> Callable[[ForestStore, int], object]:
    def call(store: ForestStore, origin: int) -> object:
        args: dict[str, Any] = {"body": "text", "bucket": "note", "signature": AUTHOR}
        return store.write(**{**args, **change}, origins=[(origin, "derived_from")])

    return call


def _supersede(**change: str) -> Callable[[ForestStore, int], object]:
    def call(store: ForestStore, ground: int) -> object:
        args = {"new_body": "new text", "adopting_words": "replaces it"}
        args |= {"adopting_signature": AUTHOR, "signature": AUTHOR}
        return store.supersede(old_id=ground, **{**args, **change})

    return call


WRITES: dict[str, Callable[[ForestStore, int], object]] = {
    "write source": _write(source="src" + LONE),
    "write meta value": _write(meta={"path": "a" + LONE}),
    "write meta key": _write(meta={"k" + LONE: "v"}),
    "write meta nested": _write(meta={"k": ["v", {"w": LONE}]}),
    "write signature": _write(signature="Ada" + LONE),
    "write body": _write(body="text" + LONE),
    "supersede words": _supersede(adopting_words="w" + LONE),
    "supersede speaker": _supersede(adopting_signature="Ada" + LONE),
    "supersede body": _supersede(new_body="new" + LONE),
    "seal words": lambda s, g: s.seal(entry_id=g, quote="q" + LONE, signature=AUTHOR),
}


@pytest.mark.parametrize("name", sorted(WRITES))
def test_store_write_lone_surrogate_refused(store: ForestStore, scroll: Scroll, name: str) -> None:
    ground = rooted_entry(store, scroll)
    exc = assert_refused(store, lambda: WRITES[name](store, ground), match="valid Unicode text")
    assert "UTF-8" in str(exc)


def test_store_root_lone_surrogate_words_refused(store: ForestStore, scroll: Scroll) -> None:
    note = make_entry(store, rooted_entry(store, scroll), "another note")
    assert_refused(
        store,
        lambda: root_to_ground(
            store,
            entry_id=note,
            adopting_words="I adopt" + LONE,
            adopting_signature=AUTHOR,
            expected_body_hash=body_hash_of(store, note),
        ),
        match=NOT_UNICODE,
    )


def test_store_scope_lone_surrogate_refused(store: ForestStore) -> None:
    """A scope is in every content id: refused when the store is opened."""
    with pytest.raises(BoundsRefused, match=r"^scope: is not valid Unicode text"):
        ForestStore(store.path, scope="team" + LONE)
