"""The old layout's move into a git directory on another file system, its command
killed (SIGKILL) while it copies ``.forest/local.db``: the next command finds every
proposal and every audit record the user had, once, and nothing under ``legacy/``
(custody/relocate_copy.py ``place``, ``covered``).

The git directory on a tmpfs (``/dev/shm``) and the work tree on the test's file
system: a rename fails with ``EXDEV``, so each file is copied. ``local.db`` is made
large (a table of padding) so its copy takes long enough to be seen part-way: the
test polls the git directory's state folder for a file that is there but short, and
kills the command then. Before the fix the copy was written at ``local.db`` itself:
the torn copy took the new place, and the next run kept the user's whole
``local.db`` under ``legacy/1/`` and opened the torn one. Now the copy is written
under a temporary name and renamed in once whole; the next run removes the killed
run's temporary file and copies again.
"""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import time
from contextlib import closing
from pathlib import Path

from forest_files.custody.proposals import ProposalStore
from forest_files.custody.relocate import relocate_once
from tests.custody.test_relocate import _old_layout
from tests.helpers.cli import FOREST, forest
from tests.helpers.crash_runs import crashed
from tests.helpers.crash_runs import forest as crash_forest
from tests.helpers.git import git_env
from tests.helpers.state import shared_state

PAD = 96 * 1024 * 1024  # bytes of padding in local.db: its copy is seen part-way


def _records(path: Path) -> list[tuple[object, ...]]:
    with closing(sqlite3.connect(path)) as conn:
        return conn.execute("SELECT * FROM audit ORDER BY seq").fetchall()


def _pad(db: Path) -> int:
    with closing(sqlite3.connect(db)) as conn, conn:
        conn.execute("CREATE TABLE padding (b BLOB)")
        conn.execute("INSERT INTO padding VALUES (randomblob(?))", (PAD,))
    return db.stat().st_size


def _short_file(state: Path, full: int) -> Path | None:
    """A file under ``state`` that has begun, not finished, being copied."""
    for dirpath, _dirs, files in os.walk(state):
        for name in files:
            try:
                size = os.lstat(os.path.join(dirpath, name)).st_size
            except OSError:
                continue
            if 0 < size < full and size > PAD // 8:
                return Path(dirpath) / name
    return None


def test_old_layout_move_killed_mid_copy_recovers(tmp_path: Path, git_dir_elsewhere: Path) -> None:
    root, _kept = _old_layout(tmp_path)
    full = _pad(root / ".forest" / "local.db")
    old_log = tmp_path / "old-audit.db"
    shutil.copyfile(root / ".forest" / "audit.db", old_log)
    shutil.move(root / ".git", git_dir_elsewhere / "git")
    (root / ".git").write_text(f"gitdir: {git_dir_elsewhere / 'git'}\n")
    state = shared_state(root)
    child = subprocess.Popen(
        [FOREST, "status"],
        cwd=root,
        env={**os.environ, **git_env()},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while (short := _short_file(state, full)) is None and child.poll() is None:
        assert time.monotonic() < deadline, "the copy was never seen"
    os.kill(child.pid, signal.SIGKILL)
    child.wait(30)
    assert short is not None, "the command finished before its copy was seen part-way"
    assert (root / ".forest" / "local.db").stat().st_size == full  # the source, whole

    again = subprocess.run(
        [FOREST, "status"], cwd=root, env={**os.environ, **git_env()}, capture_output=True
    )
    assert again.returncode == 0, again.stderr
    assert not (state / "legacy").exists(), sorted(p.name for p in state.rglob("*"))
    assert not (root / ".forest" / "local.db").exists()
    assert not [p.name for p in state.iterdir() if p.name.endswith(".tmp")]
    assert (state / "local.db").stat().st_size == full
    with ProposalStore(root) as local:
        assert len(local.open_proposals()) == 1  # the proposal, once
    old = _records(old_log)
    assert _records(state / "audit.db")[: len(old)] == old  # every record, once, in order
    assert forest(root, "fsck").exit_code == 0


def test_old_layout_torn_copy_from_older_version_replaced_recovers(tmp_path: Path) -> None:
    """A torn copy an older forest-files left at the new place (the first bytes of the
    old file, no more): the old file takes its place whole, nothing under ``legacy/``."""
    root, kept = _old_layout(tmp_path)
    state = shared_state(root)
    state.mkdir()
    whole = kept[".forest/local.db"]
    (state / "local.db").write_bytes(whole[: len(whole) // 2])
    done = relocate_once(root)
    assert done is not None and ".forest/local.db" in done.moved
    assert (state / "local.db").read_bytes() == whole
    assert not (state / "legacy").exists()
    with ProposalStore(root) as local:
        assert len(local.open_proposals()) == 1


def _taken(root: Path) -> bytes:
    """The new place of ``.forest/local.db`` taken by another file: the old one goes
    under ``legacy/<n>/``. Its bytes, whole."""
    state = shared_state(root)
    state.mkdir()
    (state / "local.db").write_bytes(b"another file, not a copy of the old one")
    return (root / ".forest" / "local.db").read_bytes()


def _legacy_files(root: Path) -> list[str]:
    legacy = shared_state(root) / "legacy"
    return sorted(p.relative_to(legacy).as_posix() for p in legacy.rglob("*"))


def test_old_layout_move_into_legacy_killed_before_its_rename_recovers(tmp_path: Path) -> None:
    """Killed after it made ``legacy/1`` and before the old ``local.db`` was renamed in
    (one file system): the next command put it under ``legacy/2`` and left ``legacy/1``
    empty beside it. Now it sweeps the unused folder first and keeps the file under
    ``legacy/1``, whole, said once."""
    root, _kept = _old_layout(tmp_path)
    whole = _taken(root)
    crashed(root, ("status",), "os.rename@/.forest/local.db")
    assert _legacy_files(root) == ["1"]
    again = crash_forest(root, "status")
    assert again.returncode == 0, again.stderr
    assert "legacy/1" in again.stderr and "legacy/2" not in again.stderr
    assert _legacy_files(root) == ["1", "1/local.db"]
    assert (shared_state(root) / "legacy" / "1" / "local.db").read_bytes() == whole
    assert not (root / ".forest" / "local.db").exists()


def test_old_layout_copy_into_legacy_killed_before_its_rename_recovers(
    tmp_path: Path, git_dir_elsewhere: Path
) -> None:
    """Across file systems, killed with the copy whole in its temporary file under
    ``legacy/1`` and not renamed in: the next command copied again under ``legacy/2``,
    leaving ``legacy/1`` holding the dead run's temporary file (a second copy of the
    user's proposals) for good. Now that file and folder are swept and the copy lands
    under ``legacy/1``, once; the old file is removed only after it."""
    root, _kept = _old_layout(tmp_path)
    shutil.move(root / ".git", git_dir_elsewhere / "git")
    (root / ".git").write_text(f"gitdir: {git_dir_elsewhere / 'git'}\n")
    whole = _taken(root)
    crashed(root, ("status",), "os.rename@/legacy/1/local.db.")
    (left,) = [p for p in _legacy_files(root) if p.endswith(".tmp")]
    assert left.startswith("1/local.db.")
    assert (root / ".forest" / "local.db").read_bytes() == whole  # the source, whole
    again = crash_forest(root, "status")
    assert again.returncode == 0, again.stderr
    assert _legacy_files(root) == ["1", "1/local.db"]
    assert (shared_state(root) / "legacy" / "1" / "local.db").read_bytes() == whole
    assert not (root / ".forest" / "local.db").exists()


def test_old_layout_copy_into_legacy_killed_at_its_open_recovers(
    tmp_path: Path, git_dir_elsewhere: Path
) -> None:
    """Across file systems, killed just after the copy's temporary file under
    ``legacy/1`` was made, before a byte of it was written: the next command sweeps
    the empty file and lands the copy under ``legacy/1``, whole. (The crash runner
    never stopped there: it took every open under ``/dev`` for a device's, and the
    git directory of this test is on ``/dev/shm``.)"""
    root, _kept = _old_layout(tmp_path)
    shutil.move(root / ".git", git_dir_elsewhere / "git")
    (root / ".git").write_text(f"gitdir: {git_dir_elsewhere / 'git'}\n")
    whole = _taken(root)
    crashed(root, ("status",), "open:opened@/legacy/1/local.db.")
    (left,) = [p for p in _legacy_files(root) if p.endswith(".tmp")]
    assert (shared_state(root) / "legacy" / left).stat().st_size == 0
    again = crash_forest(root, "status")
    assert again.returncode == 0, again.stderr
    assert _legacy_files(root) == ["1", "1/local.db"]
    assert (shared_state(root) / "legacy" / "1" / "local.db").read_bytes() == whole
    assert not (root / ".forest" / "local.db").exists()
