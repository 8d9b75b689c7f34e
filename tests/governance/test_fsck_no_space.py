"""``forest fsck`` on a disk with no room for a store's ``-shm`` says so, and never
calls the store damaged nor tells the user to move it aside (governance/fsck.py
``_no_room``).

fsck opens each store read-only; SQLite must still write the ``-shm`` (32 KiB) of a
WAL database to read it. Under a 4 KiB file-size limit (a child process alone:
tests/helpers/fsize.py) it cannot. Before the fix the index was an ``integrity``
fault "SQLite: OperationalError" (`forest rebuild` repairs the index) and the audit
log was "OperationalError; move it aside (`mv -- …/audit.db …/audit.db.damaged`);
the next command starts a new one": pasted, the whole log was set aside.

A full disk is the environment, not corruption: fsck finding only ``no-space`` faults
exits 1 and its summary says to free space (doors/cli/governance_cmd.py
``_summary``); it exited 3 with "first: `forest fsck`", which alone changes nothing.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import pytest

from forest_files.kernel.paths import AUDIT_DB_NAME
from forest_files.kernel.state import shared_dir
from tests.helpers.cli import forest
from tests.helpers.fsize import limited
from tests.helpers.watch import bound_repo

pytest.importorskip("resource")


def _stores(root: Path) -> dict[str, str]:
    """Every file of the shared state folder but the cache, with its SHA-256."""
    base = shared_dir(root, create=False)
    return {
        p.relative_to(base).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(base.rglob("*"))
        if p.is_file() and "cache" not in p.relative_to(base).parts
    }


@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE is POSIX")
def test_fsck_without_room_for_a_journal_not_called_damaged_detected(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    assert limited(root, 1 << 30, "check").returncode == 0  # its close leaves no -shm
    audit = shared_dir(root, create=False) / AUDIT_DB_NAME
    assert audit.is_file() and not Path(f"{audit}-shm").exists()
    before = _stores(root)
    done = limited(root, 4096, "fsck")
    assert done.returncode == 1, done.stderr
    (summary,) = done.stderr.splitlines()
    assert summary.startswith("forest: fsck could not check 2 store(s)"), summary
    assert summary.endswith(
        "free space (a full disk, a quota or a file-size limit), then run `forest fsck` again"
    ), summary
    assert "first:" not in summary, summary
    lines = done.stdout.splitlines()
    assert lines and all(line.startswith("no-space: ") for line in lines), lines
    assert any(line.startswith(f"no-space: {AUDIT_DB_NAME}: ") for line in lines), lines
    for line in lines:
        assert "free space (a full disk, a quota or a file-size limit)" in line, line
        assert line.endswith("then run `forest fsck` again"), line
    for bad in ("damaged", "move it aside", "mv --", "OperationalError", "rebuild"):
        assert bad not in done.stdout + done.stderr, (bad, done.stdout, done.stderr)
    after = _stores(root)  # SQLite may leave the -wal and -shm it began: no store changed
    assert {name: after[name] for name in before} == before
    assert forest(root, "fsck").exit_code == 0  # room again: clean
    assert forest(root, "check").exit_code == 0


@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE is POSIX")
def test_fsck_no_space_beside_a_damaged_store_says_free_space_first_detected(
    tmp_path: Path,
) -> None:
    root = bound_repo(tmp_path)
    assert limited(root, 1 << 30, "check").returncode == 0
    audit = shared_dir(root, create=False) / AUDIT_DB_NAME
    audit.write_bytes(b"not a database " * 64)  # damaged: refused before any -shm
    done = limited(root, 4096, "fsck")
    assert done.returncode == 3, done.stderr  # a damaged store is corruption still
    codes = [line.split(":", 1)[0] for line in done.stdout.splitlines()]
    assert codes == ["no-space", "integrity"], done.stdout
    (summary,) = done.stderr.splitlines()
    assert "first: `mv -- " in summary, summary  # the damaged log's own fix
    assert "first: `forest fsck`" not in summary, summary  # alone it changes nothing
    assert summary.endswith(
        "1 store(s) not checked: free space (a full disk, a quota or a file-size limit), "
        "then run `forest fsck` again"
    ), summary
