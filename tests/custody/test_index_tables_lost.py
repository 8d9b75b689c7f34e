"""The working tree's index with one of its tables dropped outside forest-files:
``init_schema`` made it again, empty, and the doors believed it: without ``edges``
a drifted section read as "its ground is sealed", without ``ledger_applied``
``forest log`` said "no custody acts yet". A table gone is a damaged index: it is
dropped and rebuilt from the ledger, said in one line, and every door answers as
before the damage."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.helpers.cli import console
from tests.helpers.lanes import lanes
from tests.helpers.state import local_state
from tests.helpers.watch import EDITED, bound_repo

TABLES = ["edges", "ledger_applied", "ledger_segments", "entries", "forest_meta", "erasures"]


def _drop(db: Path, table: str) -> None:
    conn = sqlite3.connect(db)
    try:
        conn.execute("PRAGMA foreign_keys = OFF")
        conn.execute(f"DROP TABLE {table}")
        conn.commit()
    finally:
        conn.close()


@pytest.mark.parametrize("table", lanes(TABLES, fast={"entries"}))
def test_index_table_dropped_rebuilt_recovers(tmp_path: Path, table: str) -> None:
    root = bound_repo(tmp_path)
    (root / "a.md").write_text(EDITED, encoding="utf-8")
    assert console(root, "sync").returncode == 0
    _drop(local_state(root) / "woods.db", table)
    for name in list(local_state(root).glob("woods.db.bindmap-*")):
        name.unlink()  # the index is read, not the map it saved
    log = console(root, "log")
    assert log.returncode == 0, log.stderr
    assert "adopt a.md#Title/Keep" in log.stdout, log.stdout + log.stderr
    (said,) = [line for line in log.stderr.splitlines() if line.startswith("forest:")]
    assert said.endswith("dropped it, rebuilding from the ledger") and table in said, said
    done = console(root, "check")
    assert done.returncode == 1 and done.stdout.startswith("drifted a.md#Title/Keep"), done
    assert "sealed" not in done.stdout and "internal error" not in done.stderr
    assert console(root, "fsck").returncode == 0
