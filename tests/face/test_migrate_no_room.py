"""A migration whose copy the disk refuses part-way (``RLIMIT_FSIZE`` in a child process
alone, as a full disk or a quota): the one error names the target it was writing and
says to free space; nothing is left at the target or beside it (forest_files.migrate).

Before the fix the line named only the source ("migrating old.db: the disk refused a
write"), as if the source were the file that could not be written.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.face.test_migrate import build_forest03, insert_03, leftovers

pytest.importorskip("resource")

LIMIT = 1_000_000  # bytes: the copy of ~3 MB of entries spills past it mid-transaction
CHILD = """
import resource, signal, sys
from forest_files.migrate import migrate_to_latest
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, ({limit}, {limit}))
try:
    migrate_to_latest(sys.argv[1], sys.argv[2])
except Exception as exc:
    print(type(exc).__name__, exc)
"""


def test_migrate_copy_without_room_names_target_refused(tmp_path: Path) -> None:
    old, new = tmp_path / "old03.db", tmp_path / "new.db"
    build_forest03(old)
    with sqlite3.connect(old) as conn:
        for eid in range(20, 1500):
            insert_03(conn, eid, "home", "draft", "model", f"note {eid} " + "x" * 2000)
    conn.close()
    before = old.read_bytes()
    done = subprocess.run(
        [sys.executable, "-c", CHILD.format(limit=LIMIT), str(old), str(new)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    (line,) = done.stdout.splitlines()
    assert line.startswith(f"NoSpace migrating {old}: the disk refused a write to {new} "), line
    assert line.endswith("free space (a full disk, a quota or a file-size limit)"), line
    assert leftovers(tmp_path, "new.db") == []  # no target, no temporary file beside it
    assert old.read_bytes() == before
