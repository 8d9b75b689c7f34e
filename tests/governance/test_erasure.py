"""Erasure: a recorded erase act removes a body, leaves a tombstone, and rebuilds."""

from __future__ import annotations

from pathlib import Path

import pytest

from forest_files import ForestError, ForestStore
from forest_files.custody.repository import Repository
from forest_files.kernel.hashing import hash_body
from forest_files.ledger import make_act, read_ledger, write_segment
from forest_files.ledger.segments import body_path
from tests.helpers.git import commit_all, make_repo
from tests.helpers.state import local_state

ADA = "Ada <ada@example.org>"
SECRET = "SENTINEL-PASTED-SECRET-4411"


def test_store_erase_leaves_tombstone_and_hash_accepted(store: ForestStore) -> None:
    p = store.write_pair("seed", scroll_ptr={"path": "s", "offset": 0})
    e = store.write(body=SECRET, bucket="note", signature="m", origins=[(p, "derived_from")])
    cid = store.content_id(e)
    store.erase_body(e, signature="Ada", reason="pasted secret")
    row = store.get(e)
    assert row["body"] == "[erased]" and row["body_hash"] == hash_body(SECRET)
    assert store.content_id(e) == cid
    assert store.recall_similar("SENTINEL") == []
    (tomb,) = store.conn.execute("SELECT * FROM erased_entries").fetchall()
    assert SECRET not in str(tuple(tomb))
    with pytest.raises(Exception, match="append-only"):
        store.conn.execute("UPDATE entries SET body = 'x' WHERE id = ?", (e,))


def test_store_erase_blank_reason_refused(store: ForestStore) -> None:
    p = store.write_pair("seed", scroll_ptr={"path": "s", "offset": 0})
    with pytest.raises(ForestError, match="reason"):
        store.erase_body(p, signature="Ada", reason=" ")


def test_ledger_erase_act_rebuilds_without_body_recovers(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    Repository.init(repo).close()
    with Repository(repo) as r:
        cid = r.adopt_text(SECRET, words="adopted by mistake", by=ADA)
        clean = r.supersede(
            cid,
            "Clean text.",
            words="replace the paste",
            by=ADA,
            expected_body_hash=hash_body("Clean text."),
        )
        scope = r.config.project_id
    ledger = repo / ".forest" / "ledger"
    last = next(a.id for a in read_ledger(ledger).acts.values() if a.kind == "supersede")
    fields = {"body_hash": hash_body(SECRET), "by": ADA, "reason": "a pasted secret", "at": "x"}
    write_segment(ledger, [make_act("erase", [last], fields, scope=scope)], {})
    body_path(ledger, hash_body(SECRET)).unlink()
    commit_all(repo, "erase")
    with Repository(repo) as r:
        r.sync()
        r.rebuild()
        (ground,) = r.ground()
        assert ground.content_id == clean
        old = r.store().id_for_content(cid)
        assert old is not None and r.store().get(old)["body_hash"] == hash_body(SECRET)
    assert SECRET not in (local_state(repo) / "woods.db").read_bytes().decode("latin-1")
