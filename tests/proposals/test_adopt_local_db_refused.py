"""``forest proposal adopt`` of a text proposal whose ``local.db`` cannot be written
(another writer holds it past the door's budget; a file not even root may write),
typed in a process of its own: one ``forest:`` line naming the trouble, nothing
recorded (the ledger, the file, the captures byte-identical), the proposal open;
with the file free again the same command adopts it.

Before the fix the adopt recorded the new ground first and closed the proposal
after (proposals/adopt.py): the refusal left the ground recorded and the proposal
open, and the same command typed again was refused as "ground … moved on".
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from subprocess import CompletedProcess

import pytest

from forest_files.custody.proposals import ProposalStore
from forest_files.kernel.paths import LOCAL_DB_NAME
from tests.helpers.cli import console
from tests.helpers.custody import BY
from tests.helpers.immutable import immutable
from tests.helpers.state import files_state, shared_state
from tests.helpers.watch import EDITED, bound_repo, captured_proposal


def _adopt(pid: str) -> list[str]:
    return ["proposal", "adopt", pid, "--words", "The edit is right", "--as", BY]


def _status(root: Path, pid: str) -> str:
    with ProposalStore(root) as store:
        return store.get(pid).status


def _refused_then_adopted(
    root: Path, pid: str, before: dict[str, str], done: CompletedProcess[str]
) -> str:
    """The refusal's one line; nothing recorded; typed again, adopted."""
    (line,) = done.stderr.splitlines()
    assert line.startswith("forest: ") and "internal error" not in line, line
    assert files_state(root) == before  # before the fix: a new segment in the ledger
    assert not (shared_state(root) / "crash").exists()
    assert _status(root, pid) == "open"
    again = console(root, *_adopt(pid))
    assert again.returncode == 0, again.stderr  # before: "ground … moved on"
    assert _status(root, pid) == "adopted"
    return line


@pytest.mark.slow
@pytest.mark.serial  # waits out the busy budget
def test_proposal_adopt_local_db_locked_refused(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    pid = captured_proposal(root, EDITED)
    before = files_state(root)
    holder = sqlite3.connect(shared_state(root) / LOCAL_DB_NAME, isolation_level=None)
    with closing(holder):
        holder.execute("BEGIN IMMEDIATE")  # another writer, past the busy budget
        done = console(root, *_adopt(pid))
        holder.execute("ROLLBACK")
    assert done.returncode == 75, done.stderr  # busy: retry
    line = _refused_then_adopted(root, pid, before, done)
    assert LOCAL_DB_NAME in line and "locked" in line and "retry" in line, line


def test_proposal_adopt_local_db_unwritable_refused(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    pid = captured_proposal(root, EDITED)
    before = files_state(root)
    with immutable(shared_state(root) / LOCAL_DB_NAME):  # not even root writes it
        done = console(root, *_adopt(pid))
    assert done.returncode == 1, done.stderr
    line = _refused_then_adopted(root, pid, before, done)
    assert LOCAL_DB_NAME in line and "writable" in line, line
