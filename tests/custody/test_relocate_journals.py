"""The old layout's ``local.db`` moved with a live ``-wal`` (a proposal committed, not yet
checkpointed into the database), its command killed (SIGKILL) between the moves of
the database and its journal files: the next command lists every proposal, and the
database and its journal files end in one folder (custody/relocate_copy.py ``Noted``
``begin``, ``bound``).

Before the fix, a kill after ``.forest/local.db`` was renamed into the git directory
and before its ``-wal`` was left the ``-wal`` behind; the next command took the
database at the new place for another file and filed the ``-wal`` (and ``-shm``)
under ``legacy/1/``, so SQLite opened the database without them and the proposal the
WAL held was gone, silently. Across file systems a kill between the removals of the
old files (each copied whole first) filed the ones left under ``legacy/1/`` too: a
database there without its ``-wal``, or a ``-wal`` without its database.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from tests.custody.test_relocate_killed import _legacy_files, _taken
from tests.helpers.crash_runs import copy, crashed, events
from tests.helpers.crash_runs import forest as crash_forest
from tests.helpers.custody import two_bound_files
from tests.helpers.git import git_env
from tests.helpers.state import shared_state

# The child: one proposal checkpointed into local.db, one held in its WAL only (a
# connection kept open with autocheckpoint off, the process gone without closing it).
_CHILD = r"""
import os, sqlite3, sys
from pathlib import Path
from forest_files.custody.proposals import ProposalStore
from forest_files.kernel.state import shared_dir
from forest_files.proposals.settle import judged

root = Path(sys.argv[1])
found = sorted(judged(root).values(), key=lambda f: f.path)


def propose(f, text):
    with ProposalStore(root) as local:
        return local.propose(
            binding=f.binding, path=f.path, selector=f.selector, derived_from=f.ground,
            ground_hash=f.expected_hash, text=text, source="mcp",
        ).proposal.id


first = propose(found[0], "checkpointed into local.db\n")
held = sqlite3.connect(shared_dir(root) / "local.db")
held.execute("PRAGMA wal_autocheckpoint = 0")
held.execute("SELECT count(*) FROM sqlite_master").fetchall()
second = propose(found[1], "held in the WAL only\n")
print(first, second, flush=True)
os._exit(0)
"""


def _wal_layout(tmp_path: Path) -> tuple[Path, list[str]]:
    """An old layout whose ``.forest/local.db`` has a ``-wal`` holding a committed
    proposal not checkpointed; the two proposals' ids."""
    root = two_bound_files(tmp_path)
    made = subprocess.run(
        [sys.executable, "-c", _CHILD, str(root)],
        cwd=root,
        env={**os.environ, **git_env()},
        capture_output=True,
        text=True,
        check=True,
    )
    ids = made.stdout.split()
    state = shared_state(root)
    for name in ("local.db", "audit.db", "woods.db"):
        for suffix in ("", "-wal", "-shm"):
            if (state / (name + suffix)).exists():
                shutil.move(state / (name + suffix), root / ".forest" / (name + suffix))
    shutil.rmtree(state)
    assert (root / ".forest" / "local.db-wal").stat().st_size > 0
    return root, ids


def _elsewhere(root: Path, there: Path) -> None:
    shutil.move(root / ".git", there / "git")
    (root / ".git").write_text(f"gitdir: {there / 'git'}\n")


def _listed(root: Path, ids: list[str]) -> None:
    said = crash_forest(root, "proposals")
    assert said.returncode == 0, said.stderr
    assert [i for i in ids if i in said.stdout] == ids, (said.stdout, said.stderr)
    assert "legacy" not in said.stderr, said.stderr
    assert not (shared_state(root) / "legacy").exists()
    assert sorted(p.name for p in (root / ".forest").glob("*.db*")) == []
    assert sorted(p.name for p in shared_state(root).glob("relocated.json*")) == []


@pytest.mark.parametrize("elsewhere", [False, True], ids=["renamed", "copied"])
def test_old_layout_move_killed_between_database_and_wal_recovers(
    tmp_path: Path, elsewhere: bool, request: pytest.FixtureRequest
) -> None:
    """Killed before each rename and removal of the move of ``local.db`` and its journal
    files (one file system: each rename; across file systems: each file's rename to
    its temporary copy's, the copy's rename in, each old file's removal), and just
    after the note of their folder was opened: every proposal listed, the WAL's too,
    nothing under ``legacy/``, no note or temporary file of it left."""
    built, ids = _wal_layout(tmp_path / "built")
    there = request.getfixturevalue("git_dir_elsewhere") if elsewhere else None

    def trial(name: str) -> Path:
        root = copy(built, tmp_path / name)
        if there is not None:
            (there / name).mkdir()
            _elsewhere(root, there / name)
        return root

    changes = events(trial("baseline"), ("proposals",))
    stop = next(n for n, event, _what in changes if event == "sqlite3.connect")
    moving = [
        n
        for n, event, what in changes[:stop]
        if (event in ("os.rename", "os.remove") and "/local.db" in str(what[0]))
        or (event == "open:opened" and "/relocated.json." in str(what[0]))  # the note's
    ]
    assert len(moving) == (10 if elsewhere else 4), changes
    for at in moving:
        root = trial(f"killed-{at}")
        crashed(root, ("proposals",), at)
        try:
            _listed(root, ids)
        except AssertionError as exc:
            raise AssertionError(f"killed at {changes[at]}") from exc


def test_old_layout_move_into_legacy_killed_between_database_and_wal_recovers(
    tmp_path: Path,
) -> None:
    """The new place of ``local.db`` taken, its group going under ``legacy/1``, killed
    after the database went there and before its ``-wal``: the next command puts the
    ``-wal`` and ``-shm`` beside it in ``legacy/1`` (they went under ``legacy/2``), and
    that database holds both proposals."""
    root, ids = _wal_layout(tmp_path)
    _taken(root)
    crashed(root, ("status",), "os.rename@/.forest/local.db-wal")
    assert _legacy_files(root) == ["1", "1/local.db"]
    again = crash_forest(root, "status")
    assert again.returncode == 0, again.stderr
    assert "legacy/1" in again.stderr and "legacy/2" not in again.stderr
    kept = ["1", "1/local.db", "1/local.db-shm", "1/local.db-wal"]
    assert _legacy_files(root) == kept
    seen = shutil.copytree(shared_state(root) / "legacy" / "1", tmp_path / "seen")
    with closing(sqlite3.connect(Path(seen) / "local.db")) as conn:
        held = {row[0] for row in conn.execute("SELECT id FROM proposals")}
    assert held == set(ids)
