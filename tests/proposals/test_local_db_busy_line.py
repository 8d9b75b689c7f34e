"""A ``local.db`` another writer holds, met where the file is opened (an older schema
upgraded under ``BEGIN IMMEDIATE``, store/localdb.py ``migrate``): the door's one
``forest:`` line names the file once, says it is locked and to retry (exit 75).

Before the fix ``local_error`` gave ``connection.translate`` the file's name as the
line's context and its path as the file held: ``forest: local.db: /…/local.db is
locked by another writer (…)``, the file named twice.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from forest_files.kernel.paths import LOCAL_DB_NAME
from forest_files.store import connection
from tests.helpers.cli import forest
from tests.helpers.state import shared_state
from tests.helpers.watch import EDITED, bound_repo, captured_proposal


def test_local_db_busy_line_held_upgrade_names_file_once_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = bound_repo(tmp_path)
    pid = captured_proposal(root, EDITED)
    db = shared_state(root) / LOCAL_DB_NAME
    with closing(sqlite3.connect(db, isolation_level=None)) as older:  # schema 2's file
        older.execute("ALTER TABLE proposals DROP COLUMN worktree")
        older.execute("PRAGMA user_version = 2")
    before = db.read_bytes()
    monkeypatch.setattr(connection, "_budget_ms", 100)  # a short wait, the same refusal
    with closing(sqlite3.connect(db, isolation_level=None)) as holder:
        holder.execute("BEGIN IMMEDIATE")  # another writer, past the busy budget
        done = forest(root, "proposal", "discard", pid)
        holder.execute("ROLLBACK")
    assert done.exit_code == 75, done.stderr  # busy: retry
    assert done.stderr.splitlines() == [
        f"forest: {db}: database is locked by another writer (database is locked); retry shortly"
    ]
    assert db.read_bytes() == before  # nothing upgraded, nothing discarded
