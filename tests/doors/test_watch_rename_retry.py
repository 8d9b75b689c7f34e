"""A watcher that cannot keep a renamed heading's rebind proposal (``rebinds.db`` held
by another writer past the busy timeout): its log says the store is locked and will be
tried again (the busy line, ``StoreBusy``), never a bug's "OperationalError" with a
crash log; the rename is said once, the proposal is tried again on the drift
proposals' backoff (doors/watch/respond.py ``_later``), and kept once the writer lets
go, with no new event (mirrors test_watch_no_room.py).

Before the fixes ``RebindStore.propose`` let SQLite's ``OperationalError`` escape (the
watcher logged its type name and wrote a crash log for a lock: proposals/rebinds.py),
and the rename was never proposed again until its verdict changed: the next event on
the file, or the reconcile (an hour here).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import pytest

from forest_files.doors.watch.watcher import Watcher
from forest_files.proposals.rebinds import REBINDS_DB_NAME, RebindStore
from forest_files.store.connection import BUSY_TIMEOUT_MS, set_busy_budget
from tests.helpers.custody import DOC
from tests.helpers.state import shared_state
from tests.helpers.watch import TIMEOUT, bound_repo, count, watching

pytestmark = pytest.mark.slow  # a real watcher

RENAMED = "# Title\n\n## Kept\n\nkept words\n\n## Other\n\nnothing alike here at all\n"


@pytest.fixture(autouse=True)
def short_wait() -> Iterator[None]:
    """This process's stores wait 0.3 s for a writer (the watcher runs in it)."""
    set_busy_budget(300)
    try:
        yield
    finally:
        set_busy_budget(BUSY_TIMEOUT_MS)


@contextmanager
def renamed_while_held(tmp_path: Path) -> Iterator[tuple[Path, Watcher]]:
    """A watched repository whose bound heading ``Keep`` was renamed ``Kept`` while
    another writer held ``rebinds.db``: the block runs once the watcher said an error,
    the lock let go (no event on the file from here on)."""
    root = bound_repo(tmp_path)
    # Other's body unlike Keep's (tiny bodies look alike), unbound, before the watcher
    (root / "a.md").write_text(DOC.replace("other words", "nothing alike here at all"))
    with RebindStore(root):  # the file there, to be held
        pass
    holder = sqlite3.connect(shared_state(root) / REBINDS_DB_NAME, isolation_level=None)
    with closing(holder), watching(root) as w:
        holder.execute("BEGIN IMMEDIATE")  # another writer, past the busy timeout
        (root / "a.md").write_text(RENAMED, encoding="utf-8")
        assert w.journal.wait_for(lambda rs: count("error")(rs) >= 1, TIMEOUT), w.journal.items()
        holder.execute("ROLLBACK")
        yield root, w


def test_watch_rename_rebinds_locked_said_once_retried_recovers(tmp_path: Path) -> None:
    with renamed_while_held(tmp_path) as (root, w):
        kept = w.journal.wait_for(lambda rs: count("rebind")(rs) >= 1, TIMEOUT)
        assert kept, w.journal.items()
        said = [r for r in w.journal.items("verdict") if r.path == "a.md"]
        assert [r.detail for r in said].count("unresolved") == 1, said  # said once
    with RebindStore(root) as store:
        (p,) = store.open_rebinds()
    assert (p.old_selector, p.new_selector) == ("a.md#Title/Keep", "a.md#Title/Kept")


def test_watch_rename_rebinds_locked_said_as_busy_detected(tmp_path: Path) -> None:
    with renamed_while_held(tmp_path) as (root, w):
        (said, *_) = [r.detail for r in w.journal.items("error")]
        assert "locked" in said and "retry" in said, said
        assert "OperationalError" not in said, said
        assert w.journal.wait_for(lambda rs: count("rebind")(rs) >= 1, TIMEOUT)
    assert not (shared_state(root) / "crash").exists()  # a lock is no bug
