"""A write lock another writer holds past the busy budget, met by a command typed
in a process of its own (``forest proposal discard`` on ``local.db``): refused once
its one budget is spent (exit 75), measured from its first attempt.

Before the fix ``_begin_immediate`` (store/connection.py) let SQLite wait the whole
busy timeout on its first ``BEGIN IMMEDIATE``, then retried for the whole budget
again: a 5 s budget became ~10 s, the hook's 2 s ~4 s. And the busy line read
"begin: database is locked…", naming no file.
"""

from __future__ import annotations

import sqlite3
import time
from contextlib import closing
from pathlib import Path

import pytest

from forest_files.kernel.paths import LOCAL_DB_NAME
from forest_files.store.connection import BUSY_TIMEOUT_MS
from tests.helpers.cli import console
from tests.helpers.state import shared_state
from tests.helpers.watch import EDITED, bound_repo, captured_proposal


def _held_discard(root: Path, pid: str) -> tuple[float, str, int]:
    """``forest proposal discard`` typed while the test holds local.db's write lock:
    how long it ran, its stderr, its exit status."""
    holder = sqlite3.connect(shared_state(root) / LOCAL_DB_NAME, isolation_level=None)
    with closing(holder):
        holder.execute("BEGIN IMMEDIATE")  # another writer, past the busy budget
        start = time.monotonic()
        done = console(root, "proposal", "discard", pid)
        waited = time.monotonic() - start
        holder.execute("ROLLBACK")
    return waited, done.stderr, done.returncode


@pytest.mark.slow
@pytest.mark.serial  # times a lock wait
def test_busy_budget_lock_held_past_it_one_budget_refused(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    pid = captured_proposal(root, EDITED)
    waited, stderr, code = _held_discard(root, pid)
    assert code == 75, stderr  # busy: retry
    budget = BUSY_TIMEOUT_MS / 1000
    # one budget (and a process's start), not two; the margin is a loaded machine's
    assert budget <= waited < 1.6 * budget, waited


def test_busy_line_lock_held_names_the_file_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The busy line names the database another writer holds, and keeps the retry."""
    from forest_files.store import connection
    from tests.helpers.cli import forest

    root = bound_repo(tmp_path)
    pid = captured_proposal(root, EDITED)
    held = shared_state(root) / LOCAL_DB_NAME
    holder = sqlite3.connect(held, isolation_level=None)
    monkeypatch.setattr(connection, "_budget_ms", 150)  # a door's short budget
    with closing(holder):
        holder.execute("BEGIN IMMEDIATE")
        done = forest(root, "proposal", "discard", pid)
        holder.execute("ROLLBACK")
    assert done.exit_code == 75, done.output
    (line,) = done.stderr.splitlines()
    assert line.startswith("forest: ") and str(held) in line, line
    assert "locked" in line and "retry" in line, line
