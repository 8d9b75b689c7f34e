"""``forest fsck`` recomputes the content id of every entry row of the index, of each
kind a ledger makes (the anchor, an adopted or superseding entry, an adoption,
sealing or unsealing record), from the row's fields and the edges written with it,
and holds it to an act of the ledger (the anchor to the project's): a row whose
content id was changed behind the triggers (``forest log`` looks an act's words up by
it, and lost them) is a ``content-id`` fault, body-free, with ``forest rebuild`` to
repair it."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from contextlib import closing
from dataclasses import replace
from pathlib import Path

import pytest

from forest_files.custody.repository import Repository
from forest_files.governance.fsck import fsck
from forest_files.ledger.record import describe, recompute_id
from forest_files.store.forest import ForestStore
from tests.helpers.cli import console
from tests.helpers.forgetting import BY, SENTINEL, adopted_then_cleaned
from tests.helpers.state import behind_the_triggers, local_state

BUCKETS = ("anchor", "import", "adoption_record", "sealing_record", "unsealing_record")


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A ground adopted, superseded, then sealed and unsealed: one row of each kind."""
    root, _old = adopted_then_cleaned(tmp_path)
    with Repository(root) as repo:
        (ground,) = [g.content_id for g in repo.ground()]
        repo.seal(ground, words="held back a while", by=BY)
        repo.unseal(ground, words="back again", by=BY)
    return root


def _row(root: Path, bucket: str) -> tuple[int, str]:
    with closing(sqlite3.connect(local_state(root) / "woods.db")) as conn:
        found = conn.execute(
            "SELECT id, content_id FROM entries WHERE bucket = ? ORDER BY id", (bucket,)
        ).fetchone()
    return int(found[0]), str(found[1])


def _adopt_words(root: Path) -> str:
    acts = json.loads(console(root, "log", "--json").stdout)["acts"]
    (words,) = [a["words"] for a in acts if a["kind"] == "adopt"]
    return str(words)


def _faults(root: Path) -> list[tuple[str, str, str | None]]:
    return [(f.code, f.where, f.fix) for f in fsck(root, "p").faults]


def test_fsck_every_row_kind_recomputed_accepted(root: Path) -> None:
    with closing(sqlite3.connect(local_state(root) / "woods.db")) as conn:
        kinds = {str(r[0]) for r in conn.execute("SELECT bucket FROM entries")}
    assert kinds == set(BUCKETS)
    assert _faults(root) == []


@pytest.mark.parametrize("bucket", BUCKETS)
def test_fsck_content_id_changed_detected(root: Path, bucket: str) -> None:
    entry_id, _cid = _row(root, bucket)
    forged = hashlib.sha256(b"another id").hexdigest()
    behind_the_triggers(root, "UPDATE entries SET content_id = ? WHERE id = ?", forged, entry_id)
    assert ("content-id", f"entry row {entry_id}", "forest rebuild") in _faults(root)
    done = console(root, "fsck")
    assert done.returncode == 3 and f"content-id: entry row {entry_id}: " in done.stdout
    assert SENTINEL not in done.stdout + done.stderr
    with Repository(root) as repo:
        repo.rebuild()
    assert _faults(root) == []


def test_fsck_adoption_record_content_id_changed_log_words_detected(root: Path) -> None:
    """The reported case: ``forest log`` lost the adopt's words (it reads them from the
    ledger now, and says the index is damaged), and fsck said ok."""
    assert _adopt_words(root) == "ok"
    entry_id, cid = _row(root, "adoption_record")
    forged = hashlib.sha256(b"another id").hexdigest()
    behind_the_triggers(root, "UPDATE entries SET content_id = ? WHERE id = ?", forged, entry_id)
    assert _adopt_words(root) == "ok"  # from the ledger now (test_log_words.py)
    found = fsck(root, "p").faults
    assert [(f.code, f.where) for f in found] == [
        ("content-id", f"entry row {entry_id}"),
        ("content-id", cid),  # the record its act writes, which the index lacks
    ]
    assert "no act of the ledger writes" in found[0].detail


def test_fsck_row_fields_and_content_id_recomputed_detected(root: Path) -> None:
    """A row's nonce changed and its content id recomputed to match: the row hashes
    right, but no act of the ledger declares it."""
    entry_id, _cid = _row(root, "adoption_record")
    with closing(sqlite3.connect(local_state(root) / "woods.db")) as conn:
        conn.row_factory = sqlite3.Row
        record = describe(ForestStore.over(conn), entry_id)
    moved = replace(record, nonce="0" * 32)
    behind_the_triggers(
        root,
        "UPDATE entries SET nonce = ?, content_id = ? WHERE id = ?",
        moved.nonce,
        recompute_id(moved),
        entry_id,
    )
    found = _faults(root)
    assert ("content-id", f"entry row {entry_id}", "forest rebuild") in found, found


def test_fsck_record_row_and_its_edges_deleted_detected(root: Path) -> None:
    """An adoption record's row deleted with the edges written with it: nothing points
    at nothing, yet the ledger declares an entry the index lacks."""
    entry_id, cid = _row(root, "adoption_record")
    behind_the_triggers(root, "DELETE FROM edges WHERE from_id = ?", entry_id)
    behind_the_triggers(root, "DELETE FROM entries WHERE id = ?", entry_id)
    found = _faults(root)
    assert ("content-id", cid, "forest rebuild") in found, found


@pytest.mark.parametrize("bucket", BUCKETS)
def test_fsck_row_field_changed_content_id_kept_detected(root: Path, bucket: str) -> None:
    """A row's signature rewritten, its content id kept: it no longer hashes to it."""
    entry_id, _cid = _row(root, bucket)
    behind_the_triggers(root, "UPDATE entries SET signature = 'mallory' WHERE id = ?", entry_id)
    found = [f for f in fsck(root, "p").faults if f.code == "content-id"]
    assert [f.where for f in found] == [f"entry row {entry_id}"], found
    assert found[0].detail.startswith("its fields do not hash to its content id"), found
