"""``rebinds.db`` that cannot be written (held by another writer past the busy
timeout, a disk with no room, a file not even root may write) under ``forest
proposal adopt`` and ``discard`` run as typed (a process of their own): one
``forest:`` line naming the trouble and its fix, no crash log, the proposal open and
nothing recorded; with the file writable again the same command is accepted.

Before the fix ``RebindStore`` let SQLite's ``OperationalError`` escape: the door said
"internal error" and wrote a crash log; and an adopt recorded its rebind act before
it closed the proposal, so a file held or read-only left the act recorded and the
proposal open (proposals/rebinds.py).
"""

from __future__ import annotations

import sqlite3
import sys
import threading
from contextlib import closing
from pathlib import Path

import pytest

from forest_files.doors.watch import judge
from forest_files.doors.watch.renames import propose_rebind
from forest_files.proposals.rebinds import REBINDS_DB_NAME, RebindStore
from tests.helpers.cli import console
from tests.helpers.custody import BY, age_files, init_and_adopt
from tests.helpers.fsize import limited
from tests.helpers.git import commit_all, make_repo, write
from tests.helpers.immutable import immutable
from tests.helpers.state import files_state, shared_state
from tests.helpers.template import copied_from

CANON = (
    "# Canon\n\n## Elias\n\nElias keeps the lantern at the north gate of the city.\n"
    "He was born in the winter of the long frost.\n\n"
    "## Mara\n\nMara sails the southern coast road with her brother.\n"
)
LIMIT = 64 * 1024  # room for every other file the door writes, not past rebinds.db's log


def _build(tmp: Path) -> Path:
    root = make_repo(tmp)
    write(root, "a.md", CANON)
    init_and_adopt(root, ["a.md#Elias"])
    commit_all(root, "adopt")
    age_files(root)
    (root / "a.md").write_text(CANON.replace("## Elias", "## Elias the Keeper"), "utf-8")
    (item,) = judge.check(root, ("a.md",), threading.Event())
    assert propose_rebind(root, item, (), frozenset()) is not None
    return root


root = copied_from(_build)


def _pid(root: Path) -> str:
    with RebindStore(root) as store:
        (p,) = store.open_rebinds()
    return p.id


def _one_line(stderr: str) -> str:
    (line,) = stderr.splitlines()
    assert line.startswith("forest: ") and "internal error" not in line, line
    return line


def _untouched(root: Path, before: dict[str, str], pid: str) -> None:
    assert files_state(root) == before  # nothing recorded, a.md as it was
    assert not (shared_state(root) / "crash").exists()
    with RebindStore(root) as store:
        assert store.get(pid).status == "open"


def _adopt(root: Path, pid: str) -> list[str]:
    return ["proposal", "adopt", pid, "--words", "Elias earned his title", "--as", BY]


@pytest.mark.slow
@pytest.mark.serial  # waits out the busy timeout
def test_rebind_proposal_adopt_rebinds_db_locked_refused(root: Path) -> None:
    pid, before = _pid(root), files_state(root)
    holder = sqlite3.connect(shared_state(root) / REBINDS_DB_NAME, isolation_level=None)
    with closing(holder):
        holder.execute("BEGIN IMMEDIATE")  # another writer, past the busy timeout
        done = console(root, *_adopt(root, pid))
        holder.execute("ROLLBACK")
    assert done.returncode == 75, done.stderr  # busy: retry
    line = _one_line(done.stderr)
    assert "locked" in line and "retry" in line, line
    _untouched(root, before, pid)
    assert console(root, *_adopt(root, pid)).returncode == 0  # typed again: done
    with RebindStore(root) as store:
        assert store.get(pid).status == "adopted"


@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE is POSIX")
def test_rebind_proposal_discard_no_room_refused(root: Path) -> None:
    pytest.importorskip("resource")
    pid, before = _pid(root), files_state(root)
    holder = sqlite3.connect(shared_state(root) / REBINDS_DB_NAME, isolation_level=None)
    with closing(holder):  # its log kept open past the limit: the next write lands beyond
        holder.execute("PRAGMA wal_autocheckpoint = 0")
        version = int(holder.execute("PRAGMA user_version").fetchone()[0])
        for i in range(40):
            holder.execute(f"PRAGMA user_version = {version + (i + 1) % 2}")
        assert (shared_state(root) / f"{REBINDS_DB_NAME}-wal").stat().st_size > LIMIT
        done = limited(root, LIMIT, "proposal", "discard", pid)
    assert done.returncode == 1, done.stderr
    line = _one_line(done.stderr)
    assert "free space" in line and REBINDS_DB_NAME in line, line
    _untouched(root, before, pid)
    assert console(root, "proposal", "discard", pid).returncode == 0
    with RebindStore(root) as store:
        assert store.get(pid).status == "discarded"


def test_rebind_proposal_adopt_rebinds_db_unwritable_refused(root: Path) -> None:
    pid, before = _pid(root), files_state(root)
    with immutable(shared_state(root) / REBINDS_DB_NAME):  # not even root writes it
        done = console(root, *_adopt(root, pid))
    assert done.returncode == 1, done.stderr
    line = _one_line(done.stderr)
    assert line.startswith(f"forest: {REBINDS_DB_NAME}: ") and "writable" in line, line
    _untouched(root, before, pid)  # before the fix: the rebind act was recorded
    assert console(root, *_adopt(root, pid)).returncode == 0
