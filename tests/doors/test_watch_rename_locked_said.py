"""A watcher that cannot keep a renamed heading's rebind proposal because another
writer holds ``rebinds.db``: its log says the store is locked and will be tried again
(the busy line, ``StoreBusy``), never a bug's "OperationalError" with a crash log.

Before the fix ``RebindStore.propose`` let SQLite's ``OperationalError`` escape: the
watcher logged its type name and wrote a crash log for a lock (proposals/rebinds.py).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

from forest_files.proposals.rebinds import REBINDS_DB_NAME, RebindStore
from forest_files.store.connection import BUSY_TIMEOUT_MS, set_busy_budget
from tests.helpers.custody import DOC
from tests.helpers.state import shared_state
from tests.helpers.watch import TIMEOUT, bound_repo, count, watching

pytestmark = pytest.mark.slow  # a real watcher

RENAMED = "# Title\n\n## Kept\n\nkept words\n\n## Other\n\nnothing alike here at all\n"


@pytest.fixture
def short_wait() -> Iterator[None]:
    """This process's stores wait 0.3 s for a writer (the watcher runs in it)."""
    set_busy_budget(300)
    try:
        yield
    finally:
        set_busy_budget(BUSY_TIMEOUT_MS)


@pytest.mark.usefixtures("short_wait")
def test_watch_rename_rebinds_locked_said_as_busy_detected(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    (root / "a.md").write_text(DOC.replace("other words", "nothing alike here at all"))
    with RebindStore(root):  # the file there, to be held
        pass
    holder = sqlite3.connect(shared_state(root) / REBINDS_DB_NAME, isolation_level=None)
    with closing(holder), watching(root) as w:
        holder.execute("BEGIN IMMEDIATE")  # another writer, past the busy timeout
        (root / "a.md").write_text(RENAMED, encoding="utf-8")
        assert w.journal.wait_for(lambda rs: count("error")(rs) >= 1, TIMEOUT), w.journal.items()
        holder.execute("ROLLBACK")
        (said, *_) = [r.detail for r in w.journal.items("error")]
        assert "locked" in said and "retry" in said, said
        assert "OperationalError" not in said, said
        assert w.journal.wait_for(lambda rs: count("rebind")(rs) >= 1, TIMEOUT)
    assert not (shared_state(root) / "crash").exists()  # a lock is no bug
