"""An audit record edited outside forest-files (``audit.db`` is the clone's own file:
a raw INSERT passes its triggers) is shown as damaged, in one line saying what is
wrong, and the page goes on: ``forest audit`` and ``forest audit --json`` never end
in an internal error, and every whole record around it is shown as it was."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from tests.helpers.cli import console
from tests.helpers.state import shared_state
from tests.helpers.watch import bound_repo

_INSERT = (
    "INSERT INTO audit (at, actor, action, outcome, reason, targets, counts, head, act_id) "
    "VALUES ('2024-01-01T00:00:00Z', 'local', 'sync', 'ok', 'pulled', ?, ?, ?, NULL)"
)

DAMAGE = {
    "targets-not-json": ("not json at all", "{}", None, "targets"),
    "targets-not-a-list": ('{"a": 1}', "{}", None, "targets"),
    "target-not-text": ("[1, null]", "{}", None, "targets"),
    "counts-a-list": ("[]", "[1, 2]", None, "counts"),
    "count-not-an-integer": ("[]", '{"n": "x"}', None, "counts"),
    "counts-a-blob": ("[]", b"\xff\xfe", None, "counts"),
    "head-a-blob": ("[]", "{}", b"\x00\x01", "head"),
}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_audit_damaged_row_shown_as_damaged_recovers(tmp_path: Path, damage: str) -> None:
    root = bound_repo(tmp_path)
    targets, counts, head, column = DAMAGE[damage]
    db = shared_state(root) / "audit.db"
    with closing(sqlite3.connect(db)) as conn:
        conn.execute(_INSERT, (targets, counts, head))
        conn.commit()
        (seq,) = conn.execute("SELECT max(seq) FROM audit").fetchone()
    shown = console(root, "audit")
    assert shown.returncode == 0, shown.stderr
    assert "internal error" not in shown.stderr and not shown.stderr.strip(), shown.stderr
    lines = shown.stdout.splitlines()
    (bad,) = [line for line in lines if line.split()[0] == str(seq)]
    assert "damaged" in bad and column in bad, bad
    assert any(" adopt " in line for line in lines)  # the whole records are still shown
    as_json = console(root, "audit", "--json")
    assert as_json.returncode == 0, as_json.stderr
    records = json.loads(as_json.stdout)["records"]
    (row,) = [r for r in records if r["seq"] == seq]
    assert column in row["damaged"] and row["targets"] == [] and row["counts"] == {}
    assert all(r["damaged"] is None for r in records if r["seq"] != seq)
