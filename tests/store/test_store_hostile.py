"""Hostile acts against the custody store: each one is refused, detected or contained.

One test per refusal; tests/HOSTILE_CASES.md maps every act to its test. Most
refusals go through ``assert_refused``, which also proves the store is exactly
as it was (a full dump, FTS shadow tables included) and that no transaction
was left open.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import forest_memory
import pytest

from forest_files import (
    CeremonyRefusal,
    ForeignStore,
    ForestError,
    ForestStore,
    Scroll,
    ScrollError,
    StoreBusy,
    StoreCorruption,
    Trail,
    feed_question,
    fruits_near,
    hash_body,
    plant_question,
    root_to_ground,
)
from forest_files.scroll import MAX_SLICE
from tests.helpers.store import (
    AUTHOR,
    adoption_record_ids,
    assert_refused,
    body_hash_of,
    count,
    ground_chain,
    ground_ids,
    make_entry,
    make_pair,
    root,
    rooted_entry,
    supersede,
    unchanged,
)

SENTINEL = "SENTINEL-SEALED-7731"
SECRET_BODY = f"the hive key is {SENTINEL} and must stay hidden"
SECRET_QUERY = "SENTINEL SEALED 7731"
MAX_EXCERPT = 4096
# What an audit packet shows for a sealed entry or origin (ff-api.md: excerpt "").
SEALED_EXCERPT = "[sealed]"  # forest_files.store.packets.SEALED_MARK
LONG_BODY = "bees gather nectar " * 300  # 5,700 characters, longer than any excerpt


def _note(store: ForestStore, pair: Callable[..., int], body: str = "bees eat nectar") -> int:
    return make_entry(store, pair(), body)


def _seal(store: ForestStore, entry_id: int) -> int:
    return store.seal(entry_id=entry_id, quote="withdrawn by the author", signature=AUTHOR)


def _sealed_secret(store: ForestStore, pair: Callable[..., int]) -> tuple[int, int]:
    """A pair and a note holding SENTINEL, derived from it, sealed. Returns (pair, note)."""
    p = pair()
    secret = make_entry(store, p, SECRET_BODY)
    _seal(store, secret)
    return p, secret


# --- the write door: signatures, orphans, vocabularies -------------------------------


@pytest.mark.parametrize("signature", ["", "   ", "\t\n"])
def test_write_blank_signature_refused(store, pair, signature):
    p = pair()
    assert_refused(
        store,
        lambda: store.write(
            body="a note", bucket="note", signature=signature, origins=[(p, "derived_from")]
        ),
        match="unsigned insert refused",
    )


@pytest.mark.parametrize("origins", [None, []])
def test_write_non_pair_without_origins_refused(store, origins):
    assert_refused(
        store,
        lambda: store.write(body="a note", bucket="note", signature=AUTHOR, origins=origins),
        match="orphan insert refused",
    )


def test_write_unknown_edge_kind_refused(store, pair):
    p = pair()
    entries, edges = count(store.conn, "entries"), count(store.conn, "edges")
    assert_refused(
        store,
        lambda: store.write(
            body="a note", bucket="note", signature=AUTHOR, origins=[(p, "derived_form")]
        ),
        match="unknown edge kind",
    )
    assert (count(store.conn, "entries"), count(store.conn, "edges")) == (entries, edges)


def test_write_unknown_edge_kind_beside_known_refused(store, pair):
    p = pair()
    assert_refused(
        store,
        lambda: store.write(
            body="a note",
            bucket="note",
            signature=AUTHOR,
            origins=[(p, "derived_from"), (p, "quotes")],
        ),
        match="unknown edge kind",
    )


def test_add_edge_unknown_kind_refused(store, pair):
    p = pair()
    n = make_entry(store, p, "a note")
    edges = count(store.conn, "edges")
    assert_refused(store, lambda: store.add_edge(n, p, "typo"), match="unknown edge kind")
    assert count(store.conn, "edges") == edges


@pytest.mark.parametrize(
    "bucket", ["adoption_record", "sealing_record", "unsealing_record", "anchor"]
)
def test_write_ceremony_bucket_refused(store, pair, bucket):
    p = pair()
    assert_refused(
        store,
        lambda: store.write(
            body="I adopt it", bucket=bucket, signature=AUTHOR, origins=[(p, "derived_from")]
        ),
        match="ceremony",
    )


@pytest.mark.parametrize("kind", ["adopts", "supersedes", "seals", "unseals"])
def test_write_ceremony_edge_kind_refused(store, pair, kind):
    p = pair()
    assert_refused(
        store,
        lambda: store.write(body="a note", bucket="note", signature=AUTHOR, origins=[(p, kind)]),
        match="ceremony act",
    )


@pytest.mark.parametrize("kind", ["adopts", "supersedes", "seals", "unseals"])
def test_add_edge_ceremony_kind_refused(store, pair, kind):
    p = pair()
    n = make_entry(store, p, "a note")
    assert_refused(store, lambda: store.add_edge(n, p, kind), match="ceremony act")


@pytest.mark.parametrize("keyword", ["status", "ground", "is_ground", "authority"])
def test_write_status_parameter_refused(store, pair, keyword):
    p = pair()
    kwargs: dict[str, Any] = {keyword: "ground"}
    assert_refused(
        store,
        lambda: store.write(
            body="a note",
            bucket="note",
            signature=AUTHOR,
            origins=[(p, "derived_from")],
            **kwargs,
        ),
        exc=TypeError,
    )


def test_write_pair_status_parameter_refused(store, scroll):
    offset = scroll.append("USER: hi\nASSISTANT: hello")
    ptr = {"path": str(scroll.path), "offset": offset}
    assert_refused(
        store,
        lambda: store.write_pair("hi", "hello", scroll_ptr=ptr, status="ground"),
        exc=TypeError,
    )


@pytest.mark.parametrize("body", ["", "   ", "<think></think>"])
def test_write_blank_body_refused(store, pair, body):
    p = pair()
    assert_refused(
        store,
        lambda: store.write(body=body, bucket="note", signature=AUTHOR, origins=[(p, "cites")]),
        match="empty body refused",
    )


@pytest.mark.parametrize("jurisdiction", ["mars", "HOME", ""])
def test_write_invalid_jurisdiction_refused(store, pair, jurisdiction):
    p = pair()
    assert_refused(
        store,
        lambda: store.write(
            body="a note",
            bucket="note",
            signature=AUTHOR,
            jurisdiction=jurisdiction,
            origins=[(p, "derived_from")],
        ),
        match="invalid jurisdiction",
    )


# --- typed errors: never a bare sqlite3 error from the API ---------------------------

UNKNOWN_ID = 10_000


def _api_unknown_bucket(store, p):
    return lambda: store.write(
        body="x", bucket="scribbles", signature=AUTHOR, origins=[(p, "derived_from")]
    )


def _api_unknown_origin(store, p):
    return lambda: store.write(
        body="x", bucket="note", signature=AUTHOR, origins=[(UNKNOWN_ID, "derived_from")]
    )


def _api_seal_unknown(store, p):
    return lambda: store.seal(entry_id=UNKNOWN_ID, quote="hide it", signature=AUTHOR)


def _api_unseal_unknown(store, p):
    return lambda: store.unseal(entry_id=UNKNOWN_ID, quote="show it", signature=AUTHOR)


def _api_edge_unknown_target(store, p):
    return lambda: store.add_edge(p, UNKNOWN_ID, "cites")


def _api_edge_unknown_source(store, p):
    return lambda: store.add_edge(UNKNOWN_ID, p, "cites")


def _api_supersede_unknown(store, p):
    return lambda: supersede(store, UNKNOWN_ID, "new words")


def _api_report_unknown(store, p):
    return lambda: store.authority_report(UNKNOWN_ID, adopting_signature="auditor")


def _api_open_unknown(store, p):
    return lambda: store.open(UNKNOWN_ID)


def _api_previous_pair_unknown(store, p):
    return lambda: store.write_pair(
        "u", "a", scroll_ptr={"path": "s.scroll", "offset": 0}, previous_pair_id=UNKNOWN_ID
    )


@pytest.mark.parametrize(
    "make_call",
    [
        _api_unknown_bucket,
        _api_unknown_origin,
        _api_seal_unknown,
        _api_unseal_unknown,
        _api_edge_unknown_target,
        _api_edge_unknown_source,
        _api_supersede_unknown,
        _api_report_unknown,
        _api_open_unknown,
        _api_previous_pair_unknown,
    ],
    ids=lambda f: f.__name__.removeprefix("_api_"),
)
def test_api_unknown_input_typed_error_refused(store, pair, make_call):
    p = pair()
    err = assert_refused(store, make_call(store, p), exc=Exception)
    assert isinstance(err, ForestError), f"untyped error {type(err).__module__}.{err!r}"


def test_ceremony_refusal_is_forest_error_accepted(store, pair):
    assert issubclass(CeremonyRefusal, ForestError)
    n = _note(store, pair)
    with pytest.raises(ForestError, match="enthusiasm is not root") as info:
        root_to_ground(
            store,
            entry_id=n,
            adopting_words="lovely!",
            adopting_signature=AUTHOR,
            expected_body_hash=body_hash_of(store, n),
        )
    assert isinstance(info.value, CeremonyRefusal)


# --- raw SQL: the schema's own laws ---------------------------------------------------

ENTRY_COLUMN_FORGERIES = {
    "body": "rewritten body",
    "bucket": "adoption_record",
    "signature": "someone else",
    "jurisdiction": "wild",
    "source": "forged.example",
    "body_hash": "b" * 64,
    "meta_json": '{"status": "ground"}',
    "created_at": "1999-01-01T00:00:00.000Z",
    "content_id": "c" * 64,
    "scope": "elsewhere",
    "nonce": "forged",
    "chain_root": 1,
}


@pytest.mark.parametrize("column", sorted(ENTRY_COLUMN_FORGERIES))
def test_entries_raw_update_refused(store, pair, column):
    n = _note(store, pair)
    sql = f"UPDATE entries SET {column} = ? WHERE id = ?"
    assert_refused(
        store,
        lambda: store.conn.execute(sql, (ENTRY_COLUMN_FORGERIES[column], n)),
        exc=sqlite3.IntegrityError,
        match="append-only",
    )


def test_entries_raw_erasure_without_permit_refused(store, pair):
    n = _note(store, pair)
    assert_refused(
        store,
        lambda: store.conn.execute("UPDATE entries SET body = '[erased]' WHERE id = ?", (n,)),
        exc=sqlite3.IntegrityError,
        match="append-only",
    )


def test_entries_raw_delete_refused(store, pair):
    n = _note(store, pair)
    assert_refused(
        store,
        lambda: store.conn.execute("DELETE FROM entries WHERE id = ?", (n,)),
        exc=sqlite3.IntegrityError,
        match="append-only",
    )


@pytest.mark.parametrize(
    ("column", "value"), [("kind", "adopts"), ("from_id", 1), ("to_id", 1), ("created_at", "x")]
)
def test_edges_raw_update_refused(store, pair, column, value):
    n = _note(store, pair)
    sql = f"UPDATE edges SET {column} = ? WHERE from_id = ?"
    assert_refused(
        store,
        lambda: store.conn.execute(sql, (value, n)),
        exc=sqlite3.IntegrityError,
        match="append-only",
    )


def test_edges_raw_delete_refused(store, pair):
    n = _note(store, pair)
    assert_refused(
        store,
        lambda: store.conn.execute("DELETE FROM edges WHERE from_id = ?", (n,)),
        exc=sqlite3.IntegrityError,
        match="append-only",
    )


def _raw_insert_entry(store: ForestStore, *, body_hash: str, signature: str = AUTHOR) -> None:
    store.conn.execute(
        "INSERT INTO entries (jurisdiction, bucket, signature, body, body_hash) "
        "VALUES ('home', 'pair', ?, 'raw body', ?)",
        (signature, body_hash),
    )


@pytest.mark.parametrize(
    "body_hash",
    ["A" * 64, "a" * 63, "a" * 65, "g" * 64, "", " " + "a" * 63, "a" * 63 + "\n"],
    ids=["upper", "short", "long", "nonhex", "empty", "space", "newline"],
)
def test_entries_raw_insert_malformed_body_hash_refused(store, body_hash):
    assert_refused(
        store,
        lambda: _raw_insert_entry(store, body_hash=body_hash),
        exc=sqlite3.IntegrityError,
    )


def test_entries_raw_insert_blank_signature_refused(store):
    assert_refused(
        store,
        lambda: _raw_insert_entry(store, body_hash=hash_body("raw body"), signature="  "),
        exc=sqlite3.IntegrityError,
    )


def test_edges_raw_insert_unknown_kind_refused(store, pair):
    n = _note(store, pair)
    assert_refused(
        store,
        lambda: store.conn.execute(
            "INSERT INTO edges (from_id, to_id, kind) VALUES (?, ?, 'typo')", (n, n)
        ),
        exc=sqlite3.IntegrityError,
    )


def test_edges_raw_second_seal_refused(store, pair):
    p = pair()
    n = make_entry(store, p, "a note")
    insert = "INSERT INTO edges (from_id, to_id, kind) VALUES (?, ?, 'seals')"
    store.conn.execute(insert, (p, n))
    other = make_entry(store, p, "another note")
    assert_refused(
        store,
        lambda: store.conn.execute(insert, (other, n)),
        exc=sqlite3.IntegrityError,
        match="already sealed",
    )


def test_edges_raw_unseal_unsealed_refused(store, pair):
    p = pair()
    n = make_entry(store, p, "a note")
    assert_refused(
        store,
        lambda: store.conn.execute(
            "INSERT INTO edges (from_id, to_id, kind) VALUES (?, ?, 'unseals')", (p, n)
        ),
        exc=sqlite3.IntegrityError,
        match="not sealed",
    )


# --- the ceremony gate: root_to_ground ------------------------------------------------


def _root_call(store: ForestStore, entry_id: int, **overrides: Any) -> Callable[[], int]:
    kwargs: dict[str, Any] = {
        "entry_id": entry_id,
        "adopting_words": "I have read this and adopt it",
        "adopting_signature": AUTHOR,
        "expected_body_hash": body_hash_of(store, entry_id) if store.get(entry_id) else "0" * 64,
    }
    kwargs.update(overrides)
    return lambda: root_to_ground(store, **kwargs)


@pytest.mark.parametrize(
    "words", ["lovely!", "oh, that's lovely", "Sounds right", "Great.", "That's nice!", "love it"]
)
def test_root_praise_only_words_refused(store, pair, words):
    n = _note(store, pair)
    assert_refused(
        store,
        _root_call(store, n, adopting_words=words),
        exc=CeremonyRefusal,
        match="enthusiasm is not root",
    )


@pytest.mark.parametrize("signature", ["", "   "])
def test_root_unsigned_words_refused(store, pair, signature):
    n = _note(store, pair)
    assert_refused(
        store,
        _root_call(store, n, adopting_signature=signature),
        exc=CeremonyRefusal,
        match="speaker signature",
    )


@pytest.mark.parametrize("words", ["", "  \n"])
def test_root_blank_adopting_words_refused(store, pair, words):
    n = _note(store, pair)
    assert_refused(
        store,
        _root_call(store, n, adopting_words=words),
        exc=CeremonyRefusal,
        match="adopting words",
    )


def test_root_expected_hash_mismatch_refused(store, pair):
    n = _note(store, pair, "bees eat nectar")
    assert_refused(
        store,
        _root_call(store, n, expected_body_hash=hash_body("bees eat honey")),
        exc=CeremonyRefusal,
        match="hash",
    )


def test_root_source_verbatim_paraphrase_refused(store, pair):
    n = _note(store, pair, "bees eat nectar and pollen")
    assert_refused(
        store,
        _root_call(store, n, source_verbatim="bees mostly eat nectar"),
        exc=CeremonyRefusal,
        match="verbatim",
    )


def test_root_unknown_entry_refused(store):
    assert_refused(store, _root_call(store, UNKNOWN_ID), exc=CeremonyRefusal, match="unknown entry")


def test_root_private_blank_expected_hash_refused(store, pair):
    n = _note(store, pair)
    assert_refused(
        store,
        lambda: store._root(
            entry_id=n, quote="I adopt it", adopting_signature=AUTHOR, expected_body_hash="  "
        ),
        match="expected_body_hash required",
    )


def test_root_sealed_entry_refused(store, pair):
    n = _note(store, pair)
    _seal(store, n)
    assert_refused(store, _root_call(store, n), match="sealed")


def test_root_superseded_entry_refused(store, scroll):
    old, _new = ground_chain(store, scroll, 2)
    assert_refused(store, _root_call(store, old), match="superseded")


def test_root_current_ground_again_refused(store, scroll):
    g = rooted_entry(store, scroll)
    assert_refused(store, _root_call(store, g), match="already current ground")
    assert len(adoption_record_ids(store, g)) == 1


def test_root_ceremony_record_refused(store, scroll):
    g = rooted_entry(store, scroll)
    (record,) = adoption_record_ids(store, g)
    assert_refused(store, _root_call(store, record), match="ceremony record")


@pytest.mark.parametrize(
    ("bucket", "jurisdiction"),
    [("hearsay", "home"), ("synthesis", "home"), ("inference", "home"), ("internet", "wild")],
)
def test_untrusted_entry_without_root_not_ground_refused(store, scroll, bucket, jurisdiction):
    g = rooted_entry(store, scroll)
    child = make_entry(store, g, "a claim from outside", bucket=bucket, jurisdiction=jurisdiction)
    p = make_pair(store, scroll, "tell me", "a rumour")
    cited = make_entry(store, p, "another claim", bucket=bucket, jurisdiction=jurisdiction)
    for entry_id in (child, cited):
        assert not store.is_ground(entry_id)
    assert ground_ids(store.conn) == {g}


# --- supersession ---------------------------------------------------------------------


def test_supersede_non_ground_entry_refused(store, pair):
    n = _note(store, pair)
    assert_refused(store, lambda: supersede(store, n, "new words"), match="not current ground")


def test_supersede_superseded_entry_refused(store, scroll):
    old, _new = ground_chain(store, scroll, 2)
    assert_refused(store, lambda: supersede(store, old, "third words"), match="not current ground")


def test_supersede_sealed_ground_refused(store, scroll):
    g = rooted_entry(store, scroll)
    _seal(store, g)
    assert_refused(store, lambda: supersede(store, g, "new words"), match="not current ground")


@pytest.mark.parametrize(
    "bucket", ["adoption_record", "sealing_record", "unsealing_record", "anchor"]
)
def test_supersede_ceremony_bucket_refused(store, scroll, bucket):
    g = rooted_entry(store, scroll)
    assert_refused(
        store,
        lambda: store.supersede(
            old_id=g, new_body="new words", adopting_words="this replaces it", bucket=bucket
        ),
        match="ceremony|reserved",
    )


@pytest.mark.parametrize("words", ["", "   "])
def test_supersede_blank_adopting_words_refused(store, scroll, words):
    g = rooted_entry(store, scroll)
    assert_refused(
        store,
        lambda: store.supersede(old_id=g, new_body="new words", adopting_words=words),
        match="adopting words",
    )


def test_supersede_wrong_expected_body_hash_refused(store, scroll):
    g = rooted_entry(store, scroll)
    assert_refused(
        store,
        lambda: store.supersede(
            old_id=g,
            new_body="bees eat pollen",
            adopting_words="this replaces it",
            expected_body_hash=hash_body("bees eat honey"),
        ),
        match="body_hash mismatch",
    )
    assert store.is_ground(g)


def test_supersede_expected_hash_of_scrubbed_body_accepted(store, scroll):
    g = rooted_entry(store, scroll)
    new = store.supersede(
        old_id=g,
        new_body="  bees eat pollen \n",
        adopting_words="this replaces it",
        expected_body_hash=hash_body("bees eat pollen"),
    )
    assert store.get(new)["body"] == "bees eat pollen"
    assert store.is_ground(new)
    assert not store.is_ground(g)


def test_supersede_padded_signatures_stripped_accepted(store, scroll):
    g = rooted_entry(store, scroll)
    new = store.supersede(
        old_id=g,
        new_body="bees eat pollen",
        adopting_words="this replaces it",
        adopting_signature="  carol \t",
        signature="\n dave  ",
    )
    assert store.get(new)["signature"] == "dave"
    record = adoption_record_ids(store, new)[-1]
    assert store.get(record)["signature"] == "carol"


def test_supersede_ceremony_only_ancestry_refused(store, scroll):
    g = rooted_entry(store, scroll)
    new = supersede(store, g, "bees eat pollen")
    kinds = {
        r[0]
        for r in store.conn.execute(
            "SELECT kind FROM edges WHERE from_id = ? AND to_id = ?", (new, g)
        )
    }
    assert kinds == {"supersedes", "derived_from"}


def test_supersede_pair_without_scroll_ptr_refused(store, scroll):
    """Superseding a ground pair must never mint a pair with no evidence pointer."""
    p = make_pair(store, scroll)
    root(store, p)
    before_pairs = {r[0] for r in store.conn.execute("SELECT id FROM entries WHERE bucket='pair'")}
    with contextlib.suppress(ForestError):
        supersede(store, p, "USER:\ncorrected question\n\nASSISTANT:\ncorrected answer")
    for row in store.conn.execute("SELECT id, meta_json FROM entries WHERE bucket = 'pair'"):
        if row[0] in before_pairs:
            continue
        assert "scroll_ptr" in json.loads(row[1]), f"pair {row[0]} has no scroll_ptr"


# --- seal and unseal ------------------------------------------------------------------


def test_seal_twice_refused(store, pair):
    n = _note(store, pair)
    _seal(store, n)
    err = assert_refused(store, lambda: _seal(store, n), exc=Exception, match="already sealed")
    assert isinstance(err, ForestError), f"raw {type(err).__module__}.{type(err).__name__}"


def test_unseal_unsealed_refused(store, pair):
    n = _note(store, pair)
    err = assert_refused(
        store,
        lambda: store.unseal(entry_id=n, quote="show it", signature=AUTHOR),
        exc=Exception,
        match="not sealed",
    )
    assert isinstance(err, ForestError), f"raw {type(err).__module__}.{type(err).__name__}"


def test_unseal_twice_refused(store, pair):
    n = _note(store, pair)
    _seal(store, n)
    store.unseal(entry_id=n, quote="show it again", signature=AUTHOR)
    assert_refused(
        store,
        lambda: store.unseal(entry_id=n, quote="show it", signature=AUTHOR),
        match="not sealed",
    )


@pytest.mark.parametrize(("quote", "signature"), [("", AUTHOR), ("  ", AUTHOR), ("hide", " ")])
def test_seal_blank_quote_or_signature_refused(store, pair, quote, signature):
    n = _note(store, pair)
    assert_refused(store, lambda: store.seal(entry_id=n, quote=quote, signature=signature))


# --- sealed text never leaves the store -----------------------------------------------


def test_fts_sealed_body_refused(store, pair):
    p = pair()
    secret = make_entry(store, p, SECRET_BODY)
    match = "SELECT rowid FROM entries_fts WHERE entries_fts MATCH '\"7731\"'"
    assert [r[0] for r in store.conn.execute(match)] == [secret]
    _seal(store, secret)
    assert store.conn.execute(match).fetchall() == []


@pytest.mark.parametrize("scope", ["home", "both"])
def test_recall_similar_sealed_body_refused(store, pair, scope):
    _p, secret = _sealed_secret(store, pair)
    packet = store.recall_similar(SECRET_QUERY, scope=scope, excerpt_len=MAX_EXCERPT)
    assert secret not in [s["id"] for s in packet]
    assert SENTINEL not in str(packet)


def test_recall_side_sealed_id_refused(store, pair):
    _p, secret = _sealed_secret(store, pair)
    err = assert_refused(store, lambda: store.recall_side([{"id": secret}]), match="is sealed")
    assert SENTINEL not in str(err)


@pytest.mark.parametrize("excerpt", [None, "host preview"])
def test_recall_side_sealed_prelabelled_refused(store, pair, excerpt):
    _p, secret = _sealed_secret(store, pair)
    scrap: dict[str, Any] = {"jurisdiction": "home", "id": secret}
    if excerpt is not None:
        scrap["excerpt"] = excerpt
    err = assert_refused(store, lambda: store.recall_side([scrap]), match="is sealed")
    assert SENTINEL not in str(err)


def test_around_sealed_neighbour_refused(store, pair):
    p, secret = _sealed_secret(store, pair)
    visible = make_entry(store, p, "bees eat nectar")
    with unchanged(store):
        packet = store.around(store.open(p), excerpt_len=MAX_EXCERPT)
    ids = [s["id"] for s in packet]
    assert visible in ids
    assert secret not in ids
    assert SENTINEL not in str(packet)


def test_around_position_sealed_after_open_refused(store, pair):
    p = pair()
    secret = make_entry(store, p, SECRET_BODY)
    trail = store.open(secret)
    _seal(store, secret)
    err = assert_refused(store, lambda: store.around(trail), match="sealed")
    assert SENTINEL not in str(err)


def test_step_to_entry_sealed_after_around_refused(store, pair):
    p = pair()
    secret = make_entry(store, p, SECRET_BODY)
    trail = store.open(p)
    store.around(trail)
    _seal(store, secret)
    assert_refused(store, lambda: store.step(trail, "in", target=secret), match="sealed")


def test_read_sealed_position_refused(store, pair):
    p = pair()
    secret = make_entry(store, p, SECRET_BODY)
    trail = store.open(secret)
    _seal(store, secret)
    err = assert_refused(store, lambda: store.read(trail), match="sealed")
    assert SENTINEL not in str(err)


def test_open_sealed_entry_refused(store, pair):
    _p, secret = _sealed_secret(store, pair)
    assert_refused(store, lambda: store.open(secret), match="sealed")


def test_move_to_sealed_neighbour_refused(store, pair):
    p, secret = _sealed_secret(store, pair)
    trail = store.open(p)
    assert_refused(store, lambda: store.move(trail, neighbor_id=secret), match="sealed")


def test_walk_back_sealed_origin_refused(store, pair):
    p = pair()
    secret = make_entry(store, p, SECRET_BODY)
    child = make_entry(store, secret, "a summary of the hive")
    root(store, child)
    _seal(store, secret)
    packet = store.walk_back(child, adopting_signature="auditor")
    (origin,) = [o for o in packet["origins"] if o["id"] == secret]
    assert origin["excerpt"] == SEALED_EXCERPT
    assert SENTINEL not in str(packet)


def test_authority_report_sealed_entry_refused(store, pair):
    _p, secret = _sealed_secret(store, pair)
    packet = store.authority_report(secret, adopting_signature="auditor", excerpt_len=MAX_EXCERPT)
    assert packet["entry"]["excerpt"] == SEALED_EXCERPT
    assert packet["status"]["is_sealed"] is True
    assert SENTINEL not in str(packet)


def test_authority_report_sealed_origin_refused(store, pair):
    p = pair()
    secret = make_entry(store, p, SECRET_BODY)
    child = make_entry(store, secret, "a summary of the hive")
    _seal(store, secret)
    packet = store.authority_report(child, adopting_signature="auditor", excerpt_len=MAX_EXCERPT)
    (origin,) = [o for o in packet["origins"] if o["id"] == secret]
    assert origin["excerpt"] == SEALED_EXCERPT
    assert SENTINEL not in str(packet)


def test_fruits_near_sealed_question_refused(store, pair):
    p = pair()
    feeder = make_entry(store, p, "bees eat nectar")
    q = plant_question(store, body=f"where is {SENTINEL} kept?", about_ids=[p])
    feed_question(store, question_id=q, entry_id=feeder)
    assert fruits_near(store, [p]), "precondition: the open question is found"
    _seal(store, q)
    packet = fruits_near(store, [p, feeder])
    assert q not in [f["question"]["id"] for f in packet]
    assert SENTINEL not in str(packet)


def test_fruits_near_question_full_body_refused(store, pair):
    p = pair()
    body = "why do bees dance " * 20 + SENTINEL
    q = plant_question(store, body=body, about_ids=[p])
    (fruit,) = fruits_near(store, [p])
    question = fruit["question"]
    assert isinstance(question, dict)
    assert question["id"] == q
    assert "body" not in question
    assert next(iter(question)) == "jurisdiction"
    assert SENTINEL not in str(fruit)


def test_feed_sealed_question_refused(store, pair):
    p = pair()
    feeder = make_entry(store, p, "bees eat nectar")
    q = plant_question(store, body="what do bees eat?", about_ids=[p])
    _seal(store, q)
    assert_refused(
        store, lambda: feed_question(store, question_id=q, entry_id=feeder), match="sealed"
    )


def test_refusal_messages_sealed_body_refused(store, pair):
    """Errors about a sealed entry never echo its text."""
    _p, secret = _sealed_secret(store, pair)
    calls = [
        _root_call(store, secret),
        _root_call(store, secret, expected_body_hash="0" * 64),
        lambda: supersede(store, secret, "new words"),
        lambda: store.walk_back(secret, adopting_signature="auditor"),
        lambda: _seal(store, secret),
        lambda: store.open(secret),
        lambda: store.recall_side([{"id": secret}]),
    ]
    for call in calls:
        err = assert_refused(store, call)
        assert SENTINEL not in str(err)


# --- bounded previews -----------------------------------------------------------------


def _excerpt_ops() -> dict[str, Callable[[ForestStore, int, int, Any], Any]]:
    return {
        "recall_similar": lambda s, n, p, k: s.recall_similar("gather", excerpt_len=k),
        "recall_side": lambda s, n, p, k: s.recall_side([{"id": n}], excerpt_len=k),
        "around": lambda s, n, p, k: s.around(s.open(p), excerpt_len=k),
        "authority_report": lambda s, n, p, k: s.authority_report(
            n, adopting_signature="auditor", excerpt_len=k
        ),
    }


EXCERPT_OPS = sorted(_excerpt_ops())


def _excerpts(packet: Any) -> list[str]:
    if isinstance(packet, dict):
        found = [packet["excerpt"]] if "excerpt" in packet else []
        return found + [x for v in packet.values() for x in _excerpts(v)]
    if isinstance(packet, list):
        return [x for v in packet for x in _excerpts(v)]
    return []


@pytest.mark.parametrize("op", EXCERPT_OPS)
def test_excerpt_len_max_accepted(store, pair, op):
    p = pair()
    n = make_entry(store, p, LONG_BODY)
    packet = _excerpt_ops()[op](store, n, p, MAX_EXCERPT)
    excerpts = _excerpts(packet)
    assert LONG_BODY[:MAX_EXCERPT] + "…" in excerpts
    assert all(len(x) <= MAX_EXCERPT + 1 for x in excerpts)


@pytest.mark.parametrize("op", EXCERPT_OPS)
@pytest.mark.parametrize("excerpt_len", [MAX_EXCERPT + 1, 10**9])
def test_excerpt_len_over_max_refused(store, pair, op, excerpt_len):
    p = pair()
    n = make_entry(store, p, LONG_BODY)
    assert_refused(store, lambda: _excerpt_ops()[op](store, n, p, excerpt_len), match="excerpt_len")


@pytest.mark.parametrize("op", EXCERPT_OPS)
@pytest.mark.parametrize("excerpt_len", [0, -1, None, 1.5, 160.0, "160"])
def test_excerpt_len_not_positive_int_refused(store, pair, op, excerpt_len):
    p = pair()
    n = make_entry(store, p, LONG_BODY)
    assert_refused(store, lambda: _excerpt_ops()[op](store, n, p, excerpt_len), match="excerpt_len")


def test_recall_similar_long_body_truncated_accepted(store, pair):
    p = pair()
    make_entry(store, p, LONG_BODY)
    (scrap,) = store.recall_similar("gather")
    assert scrap["excerpt"] == LONG_BODY[:160] + "…"
    assert "body" not in scrap


def test_recall_similar_scrap_first_key_jurisdiction_accepted(store, pair):
    p = pair()
    make_entry(store, p, "bees eat nectar")
    packet = store.recall_similar("bees")
    assert packet
    for scrap in packet:
        # Forest's five keys in Forest's order, then forest-files' derived trust level.
        assert list(scrap) == ["jurisdiction", "id", "excerpt", "bucket", "signature", "trust"]


def test_recall_side_host_excerpt_truncated_accepted(store, pair):
    n = _note(store, pair)
    scrap = {"id": n, "excerpt": "x" * 1000, "jurisdiction": "home"}
    (out,) = store.recall_side([scrap], excerpt_len=50)
    assert out["excerpt"] == "x" * 50 + "…"


def test_recall_side_prelabelled_jurisdiction_not_first_refused(store, pair):
    """A scrap leaves the store with ``jurisdiction`` first, or is refused."""
    n = _note(store, pair)
    scrap = {"id": n, "excerpt": "bees", "body": "full text", "jurisdiction": "home"}
    try:
        (out,) = store.recall_side([scrap])
    except ForestError:
        return
    assert next(iter(out)) == "jurisdiction"
    assert "body" not in out


def test_recall_side_full_body_refused(store, pair):
    n = _note(store, pair)
    assert_refused(
        store,
        lambda: store.recall_side([{"id": n, "jurisdiction": "home", "body": "bees eat nectar"}]),
        match="full body refused",
    )


@pytest.mark.parametrize("jurisdiction", ["mars", "HOME", "home "])
def test_recall_side_unlabeled_scrap_refused(store, pair, jurisdiction):
    n = _note(store, pair)
    scrap = {"jurisdiction": jurisdiction, "id": n, "excerpt": "bees"}
    assert_refused(store, lambda: store.recall_side([scrap]), match="unlabeled")


def test_recall_side_unknown_id_refused(store):
    assert_refused(store, lambda: store.recall_side([{"id": UNKNOWN_ID}]), match="unknown entry")


def test_recall_similar_invalid_scope_refused(store, pair):
    _note(store, pair)
    assert_refused(store, lambda: store.recall_similar("bees", scope="everywhere"), match="scope")


# --- recall log and query text --------------------------------------------------------


def test_recall_similar_every_call_logged_accepted(store, pair):
    _note(store, pair, "bees eat nectar")
    before = count(store.conn, "retrieval_log")
    results = [store.recall_similar(q) for q in ("bees", "nectar bees", "wombats")]
    rows = store.conn.execute(
        "SELECT query, result_ids_json FROM retrieval_log WHERE id > ? ORDER BY id", (before,)
    ).fetchall()
    assert [r[0] for r in rows] == ["bees", "nectar bees", "wombats"]
    assert [json.loads(r[1]) for r in rows] == [[s["id"] for s in res] for res in results]
    assert results[2] == []


@pytest.mark.parametrize(
    "query",
    [
        '"',
        'bees"',
        "a OR b",
        "bees OR",
        "NOT bees",
        "NEAR(",
        "NEAR(bees nectar, 2)",
        "*",
        "bees*",
        "a:b",
        "body:bees",
        "^bees",
        "-bees",
        "(bees",
        "bees)",
        "'",
        "\\",
        "🐝",
        "🐝 bees",
        "蜜蜂",
        "中文测试",
        "café",
        "AND",
        "bees AND AND",
        "{bees}",
        "bees\x00nectar",
    ],
)
def test_recall_similar_fts_hostile_query_accepted(store, pair, query):
    _note(store, pair, "bees eat nectar")
    try:
        packet = store.recall_similar(query)
    except ForestError as err:
        assert "empty query" in str(err), f"{query!r}: {err}"
    else:
        assert isinstance(packet, list)


def test_recall_similar_lone_surrogate_query_accepted(store, pair):
    _note(store, pair, "bees eat nectar")
    try:
        packet = store.recall_similar("bees \ud800")
    except ForestError:
        return
    assert isinstance(packet, list)


# --- the walk: tickets and disclosure -------------------------------------------------


@pytest.mark.parametrize("op", ["around", "step", "read", "move"])
def test_walk_forged_ticket_refused(store, pair, op):
    p = pair()
    n = make_entry(store, p, "a note")
    forged = Trail(p, "forged-ticket-0000000000")
    calls = {
        "around": lambda: store.around(forged),
        "step": lambda: store.step(forged, "in", target=n),
        "read": lambda: store.read(forged),
        "move": lambda: store.move(forged, neighbor_id=n),
    }
    assert_refused(store, calls[op], match="forged|unknown")


@pytest.mark.parametrize("trail", ["a-ticket", None, 7])
def test_walk_non_trail_refused(store, pair, trail):
    pair()
    assert_refused(store, lambda: store.around(trail), match="forged|unknown")


def test_walk_ticket_from_other_store_refused(store, pair, db_path):
    p = pair()
    trail = store.open(p)
    with ForestStore(db_path) as other:
        assert_refused(other, lambda: other.around(trail), match="forged|unknown")


def test_walk_spent_ticket_refused(store, pair):
    p = pair()
    n = make_entry(store, p, "a note")
    trail = store.open(p)
    store.around(trail)
    store.step(trail, "in", target=n)
    assert_refused(store, lambda: store.around(trail), match="spent")
    assert_refused(store, lambda: store.read(trail), match="spent")
    assert_refused(store, lambda: store.step(trail, "in", target=n), match="spent")


def test_walk_ticket_position_mismatch_refused(store, pair):
    p = pair()
    n = make_entry(store, p, "a note")
    trail = store.open(p)
    assert_refused(store, lambda: store.read(Trail(n, trail.ticket)), match="mismatch")


def test_step_without_around_refused(store, pair):
    p = pair()
    n = make_entry(store, p, "a note")
    trail = store.open(p)
    assert_refused(store, lambda: store.step(trail, "in", target=n), match="disclosed|around")


def test_step_undisclosed_route_refused(store, pair):
    p = pair()
    n = make_entry(store, p, "a note")
    stranger = _note(store, pair, "an unrelated note")
    trail = store.open(p)
    store.around(trail)
    assert_refused(store, lambda: store.step(trail, "in", target=stranger), match="not reachable")
    assert_refused(store, lambda: store.step(trail, "out", target=n), match="not reachable")


def test_step_inward_without_target_refused(store, pair):
    p = pair()
    make_entry(store, p, "a note")
    trail = store.open(p)
    store.around(trail)
    assert_refused(store, lambda: store.step(trail, "in"), match="requires target")


@pytest.mark.parametrize("direction", ["up", "", "IN"])
def test_step_bad_direction_refused(store, pair, direction):
    p = pair()
    trail = store.open(p)
    store.around(trail)
    assert_refused(store, lambda: store.step(trail, direction), match="direction")


def test_move_without_edge_refused(store, pair):
    p = pair()
    stranger = _note(store, pair, "an unrelated note")
    trail = store.open(p)
    assert_refused(store, lambda: store.move(trail, neighbor_id=stranger), match="no edge")


def test_walk_open_around_step_read_write_nothing_accepted(store, pair):
    first = pair()
    second = pair("and wasps?", "they eat other insects", previous=first)
    n = make_entry(store, second, "wasps hunt", jurisdiction="wild", bucket="internet")
    entries = count(store.conn, "entries")
    with unchanged(store):
        trail = store.open(first)
        store.around(trail)
        trail = store.step(trail, "next")
        store.read(trail)
        store.around(trail)
        trail = store.step(trail, "in", target=n)
        packet = store.read(trail)
    assert packet["id"] == n
    assert count(store.conn, "entries") == entries


# --- pairs and the scroll -------------------------------------------------------------


def test_write_pair_bucket_without_scroll_ptr_refused(store):
    assert_refused(
        store,
        lambda: store.write(body="USER:\nhi", bucket="pair", signature="conversation"),
        match="scroll_ptr",
    )


def test_write_pair_bucket_with_scroll_ptr_accepted(store, scroll):
    head = "USER: hi\nASSISTANT: hello"
    ptr = {"path": str(scroll.path), "offset": scroll.append(head), "hash": hash_body(head)}
    n = store.write(body="USER:\nhi", bucket="pair", signature="conversation", scroll_ptr=ptr)
    assert json.loads(store.get(n)["meta_json"])["scroll_ptr"]["offset"] == ptr["offset"]


@pytest.mark.parametrize(
    "ptr", [None, "s.scroll:0", {}, {"path": "s.scroll"}, {"offset": 0}], ids=repr
)
def test_write_pair_bad_scroll_ptr_refused(store, ptr):
    assert_refused(
        store, lambda: store.write_pair("hi", "hello", scroll_ptr=ptr), match="scroll_ptr"
    )


def test_write_pair_missing_scroll_ptr_refused(store):
    assert_refused(store, lambda: store.write_pair("hi", "hello"), exc=TypeError)


def _big_scroll(tmp_path: Path) -> Scroll:
    scroll = Scroll(tmp_path / "big.scroll")
    while scroll.size() <= MAX_SLICE + 64:
        scroll.append("USER: " + "b" * 500 + "\nASSISTANT: ok")
    return scroll


def test_scroll_dump_all_refused(tmp_path):
    scroll = _big_scroll(tmp_path)
    before = scroll.path.read_bytes()
    with pytest.raises(ScrollError, match="dumping the whole scroll"):
        scroll.dump_all()
    assert scroll.path.read_bytes() == before


def test_scroll_whole_file_slice_refused(tmp_path):
    scroll = Scroll(tmp_path / "small.scroll")
    scroll.append("USER: hi\nASSISTANT: hello")
    with pytest.raises(ScrollError, match="complete scroll"):
        scroll.read_slice(0, scroll.size())


def test_scroll_slice_over_max_refused(tmp_path):
    scroll = _big_scroll(tmp_path)
    assert len(scroll.read_slice(0, MAX_SLICE)) == MAX_SLICE
    with pytest.raises(ScrollError, match=r"too large|MAX_SLICE"):
        scroll.read_slice(0, MAX_SLICE + 1)


# --- a busy database ------------------------------------------------------------------


def _busy_ops() -> dict[str, Callable[[ForestStore, dict[str, int]], Any]]:
    return {
        "write": lambda s, ids: s.write(
            body="more", bucket="note", signature=AUTHOR, origins=[(ids["pair"], "cites")]
        ),
        "recall_similar": lambda s, ids: s.recall_similar("bees"),
        "seal": lambda s, ids: _seal(s, ids["note"]),
        "root": lambda s, ids: root(s, ids["note"]),
        "supersede": lambda s, ids: supersede(s, ids["ground"], "bees eat pollen"),
    }


@pytest.mark.parametrize("op", sorted(_busy_ops()))
def test_store_locked_by_other_writer_busy_refused(store, scroll, db_path, op):
    pair_id = make_pair(store, scroll)
    ids = {
        "pair": pair_id,
        "note": make_entry(store, pair_id, "bees eat nectar"),
        "ground": rooted_entry(store, scroll, "bees eat honey"),
    }
    call = _busy_ops()[op]
    store.conn.execute("PRAGMA busy_timeout=100")
    lock = sqlite3.connect(db_path, isolation_level=None, timeout=0)
    try:
        lock.execute("BEGIN IMMEDIATE")
        err = assert_refused(store, lambda: call(store, ids), exc=StoreBusy)
        assert isinstance(err, sqlite3.OperationalError)
        lock.execute("ROLLBACK")
    finally:
        lock.close()
    call(store, ids)  # the store recovers once the other writer lets go


# --- the version gate -----------------------------------------------------------------


def _sidecars(path: Path) -> set[str]:
    return {p.name for p in path.parent.iterdir() if p.name.startswith(path.name + "-")}


def _assert_open_refused(path: Path, exc: type[Exception], match: str | None) -> Exception:
    before = path.read_bytes()
    with pytest.raises(exc, match=match) as info:
        ForestStore(path)
    assert path.read_bytes() == before, "a refused open modified the file"
    assert not _sidecars(path), "a refused open left journal files behind"
    return info.value


def test_open_foreign_sqlite_file_refused(tmp_path):
    path = tmp_path / "music.db"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE songs (title TEXT)")
    con.execute("INSERT INTO songs VALUES ('la mer')")
    con.commit()
    con.close()
    _assert_open_refused(path, ForeignStore, "not a Forest store")
    con = sqlite3.connect(path)
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    con.close()
    assert tables == {"songs"}


def test_open_forest_04_store_refused(tmp_path):
    path = tmp_path / "forest.db"
    old = forest_memory.ForestStore(path)
    old.init_schema()
    old.write(body="USER:\nhi\n\nASSISTANT:\nhello", bucket="pair", signature="conversation")
    old.close()
    err = _assert_open_refused(path, ForeignStore, "migrate_to_latest")
    assert isinstance(err, ForestError)


def _fresh_store_file(path: Path) -> None:
    with ForestStore(path) as s:
        s.init_schema()


def test_open_newer_forest_files_schema_refused(db_path):
    _fresh_store_file(db_path)
    con = sqlite3.connect(db_path)
    con.execute("UPDATE forest_meta SET value = '999' WHERE key = 'forest_files_schema'")
    con.commit()
    con.close()
    _assert_open_refused(db_path, ForestError, "999")


def test_open_pre_04_store_refused(tmp_path):
    path = tmp_path / "old.db"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE entries (id INTEGER PRIMARY KEY, bucket TEXT, body TEXT)")
    con.execute("CREATE TABLE forest_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    con.execute("INSERT INTO forest_meta VALUES ('schema_version', '0.3.0')")
    con.commit()
    con.close()
    _assert_open_refused(path, ForestError, "pre-0.4|hard cut|jurisdiction")


def test_open_wrong_schema_version_refused(db_path):
    _fresh_store_file(db_path)
    con = sqlite3.connect(db_path)
    con.execute("UPDATE forest_meta SET value = '0.3.0' WHERE key = 'schema_version'")
    con.commit()
    con.close()
    _assert_open_refused(db_path, ForestError, "schema_version")


def test_open_entries_without_forest_meta_refused(tmp_path):
    path = tmp_path / "partial.db"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE entries (id INTEGER PRIMARY KEY, jurisdiction TEXT, body TEXT)")
    con.commit()
    con.close()
    _assert_open_refused(path, ForestError, "forest_meta")


def test_open_non_sqlite_file_refused(tmp_path):
    path = tmp_path / "notes.db"
    path.write_bytes(b"these are my notes, not a database\n" * 100)
    _assert_open_refused(path, StoreCorruption, None)


def test_open_empty_file_accepted(tmp_path):
    path = tmp_path / "empty.db"
    path.touch()
    with ForestStore(path) as s:
        s.init_schema()
        assert count(s.conn, "entries") == 0
