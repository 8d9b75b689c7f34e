"""The old layout's move into the git directory, on another file system, with no room
to finish it: nothing a user wrote is lost, and the next run with room finishes it
(custody/relocate.py ``_move``).

The git directory on a tmpfs (``/dev/shm``) and the work tree on the test's file
system: a rename fails with ``EXDEV``, so each file is copied. A file-size limit in
the command's child process alone (tests/helpers/fsize.py) stops the copy part-way,
as a full disk or a quota does. Before the fix the torn copy stayed at the new place:
the next run kept the user's ``local.db`` and ``audit.db`` under ``legacy/`` and
every proposals command called the torn copy damaged and said to move it aside; a
``-wal`` that could not follow its database was parted from it. Now the command
stops with one ``forest:`` line naming what stayed, before it makes a file in its
place, and the next run with room moves it whole.
"""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from forest_files.custody.proposals import ProposalStore
from tests.custody.test_relocate import _old_layout
from tests.helpers.cli import forest
from tests.helpers.fsize import limited
from tests.helpers.state import shared_state

pytest.importorskip("resource")


def _digests(base: Path) -> dict[str, str]:
    return {
        p.relative_to(base).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(base.rglob("*"))
        if p.is_file() and "ledger" not in p.parts
    }


def _records(path: Path) -> list[tuple[object, ...]]:
    with closing(sqlite3.connect(path)) as conn:
        return conn.execute("SELECT * FROM audit ORDER BY seq").fetchall()


@pytest.mark.parametrize("wal", [0, 40_000], ids=["database", "database-and-wal"])
def test_old_layout_move_without_room_no_torn_copy_recovers(
    tmp_path: Path, git_dir_elsewhere: Path, wal: int
) -> None:
    root, kept = _old_layout(tmp_path)
    if wal:  # a -wal a killed writer left, larger than the limit its database fits
        (root / ".forest" / "local.db-wal").write_bytes(b"w" * wal)
        kept[".forest/local.db-wal"] = b"w" * wal
    shutil.move(root / ".git", git_dir_elsewhere / "git")
    (root / ".git").write_text(f"gitdir: {git_dir_elsewhere / 'git'}\n")
    state = shared_state(root)
    limit = 30_000 if wal else 4096
    size = len(kept[".forest/local.db"])
    assert (size <= limit < wal) if wal else (limit < size), (size, limit)
    done = limited(root, limit, "status")
    assert done.returncode == 1, done.stderr
    (line,) = done.stderr.splitlines()
    assert line.startswith("forest: local state could not all be moved into "), line
    assert line.endswith(
        "free space (a full disk, a quota or a file-size limit), then run the command again"
    ), line
    stayed = [".forest/local.db", *([".forest/local.db-wal"] if wal else [".forest/audit.db"])]
    for rel in stayed:  # not moved: where it was, whole, and named
        assert (root / rel).read_bytes() == kept[rel], rel
        assert rel in line, line
    placed = _digests(state) if state.exists() else {}
    assert not {"local.db", "local.db-wal"} & set(placed), placed  # no torn or lone copy
    assert wal or "audit.db" not in placed, placed  # none made in its place either
    assert not (state / "legacy").exists()
    again = limited(root, 1 << 30, "status")
    assert again.returncode == 0, again.stderr
    assert "legacy" not in again.stderr, again.stderr
    for rel, data in kept.items():  # every file the user wrote, at its new place, whole
        moved = state / ("captures" if "captures" in rel else "") / Path(rel).name
        if rel == ".forest/audit.db":  # the log moved, then this run's records added
            old = tmp_path / "old-audit.db"
            old.write_bytes(data)
            assert _records(moved)[: len(_records(old))] == _records(old)
        else:
            assert moved.read_bytes() == data, rel
        assert not (root / rel).exists(), rel
    assert not (state / "legacy").exists()
    with ProposalStore(root) as local:
        assert len(local.open_proposals()) == 1  # the proposal survived the move
    assert forest(root, "fsck").exit_code == 0
