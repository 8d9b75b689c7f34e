"""A write the disk refuses (full, a quota, a file-size limit) is named as the disk's,
never as a lost savepoint or a damaged file (store/connection.py, store/gate.py).

SQLite answers an I/O error by rolling the whole transaction back itself; before
the fix a nested block then failed on ``ROLLBACK TO`` and the user read "no such
savepoint: forest_sp". Opening an index whose ``-shm`` cannot be written was
called "not a SQLite database", and the repository dropped a whole index over it.
The limit is ``RLIMIT_FSIZE`` in a child process (Python ignores ``SIGXFSZ``, so a
write past it fails with ``EFBIG``, as on a full disk), never in the test's own.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

resource = pytest.importorskip("resource")

NESTED = """
import resource, sys
from forest_files.store.connection import atomic, connect, enable_wal, translate
conn = connect(sys.argv[1])
enable_wal(conn)
conn.execute("CREATE TABLE t (x)")
conn.execute("PRAGMA cache_size = 5")  # pages spill to the WAL inside the inner block
resource.setrlimit(resource.RLIMIT_FSIZE, (200_000, 200_000))
try:
    with atomic(conn):
        conn.execute("INSERT INTO t VALUES (1)")
        with atomic(conn):
            conn.execute("INSERT INTO t SELECT randomblob(1000000)")
except Exception as exc:
    print(type(translate(exc, "write")).__name__, translate(exc, "write"))
print("in transaction:", conn.in_transaction)
"""

OPEN = """
import resource, sys
from forest_files.store.forest import ForestStore
resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))  # no room for a 32 KiB -shm
try:
    ForestStore(sys.argv[1])
except Exception as exc:
    print(type(exc).__name__, exc)
"""


def _child(code: str, path: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_atomic_nested_disk_refused_names_the_disk_refused(tmp_path: Path) -> None:
    out = _child(NESTED, tmp_path / "s.db")
    assert "savepoint" not in out, out
    first, second = out.splitlines()
    assert first.startswith("NoSpace write: the disk refused a write ("), first
    assert first.endswith("; free space (a full disk, a quota or a file-size limit)"), first
    assert second == "in transaction: False"


def test_store_open_without_room_for_its_journal_not_called_damaged_refused(
    tmp_path: Path,
) -> None:
    from forest_files import ForestStore

    path = tmp_path / "woods.db"
    store = ForestStore(path)
    store.init_schema()
    store.close()
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    before = path.read_bytes()
    out = _child(OPEN, path)
    assert not out.startswith("StoreCorruption"), out
    assert "not a SQLite database" not in out
    assert out.startswith(f"NoSpace cannot open {path}: the disk refused a write"), out
    assert path.read_bytes() == before
