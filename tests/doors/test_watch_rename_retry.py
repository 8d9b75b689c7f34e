"""A watcher that cannot keep a renamed heading's rebind proposal (``rebinds.db`` held
by another writer past the busy timeout): the rename is said once, the proposal is
tried again on the drift proposals' backoff (doors/watch/respond.py ``_later``), and
kept once the writer lets go, with no new event (mirrors test_watch_no_room.py).

Before the fix the rename was never proposed again until its verdict changed: the
next event on the file, or the reconcile (an hour here).
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from forest_files.proposals.rebinds import REBINDS_DB_NAME, RebindStore
from tests.helpers.custody import DOC
from tests.helpers.state import shared_state
from tests.helpers.watch import TIMEOUT, bound_repo, count, watching

pytestmark = pytest.mark.slow  # a real watcher waits out SQLite's 5 s busy timeout

RENAMED = "# Title\n\n## Kept\n\nkept words\n\n## Other\n\nnothing alike here at all\n"


def test_watch_rename_rebinds_locked_said_once_retried_recovers(tmp_path: Path) -> None:
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
        holder.execute("ROLLBACK")  # room again: no event on the file from here on
        kept = w.journal.wait_for(lambda rs: count("rebind")(rs) >= 1, TIMEOUT)
        assert kept, w.journal.items()
        said = [r for r in w.journal.items("verdict") if r.path == "a.md"]
        assert [r.detail for r in said].count("unresolved") == 1, said  # said once
    with RebindStore(root) as store:
        (p,) = store.open_rebinds()
    assert (p.old_selector, p.new_selector) == ("a.md#Title/Keep", "a.md#Title/Kept")
