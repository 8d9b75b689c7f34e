"""A write to ``local.db`` the disk refuses (a file-size limit in the child alone:
tests/helpers/fsize.py ``RLIMIT_FSIZE``, as a full disk or a quota): the door's one
``forest:`` line names the file once, by its path, and says to free space; the
proposal is left as it was.

Before the fix ``local_error`` gave ``connection.translate`` the file's name as the
line's context and its path as the file written: ``forest: local.db: the disk refused
a write to /…/local.db (disk I/O error); …``, the file named twice.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from forest_files.kernel.paths import LOCAL_DB_NAME
from tests.helpers.cli import forest
from tests.helpers.fsize import limited
from tests.helpers.state import shared_state
from tests.helpers.watch import EDITED, bound_repo, captured_proposal

pytest.importorskip("resource")


@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE is POSIX")
def test_local_db_no_space_line_discard_names_file_once_refused(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    pid = captured_proposal(root, EDITED)
    db = shared_state(root) / LOCAL_DB_NAME
    before = db.read_bytes()

    done = limited(root, 4096, "proposal", "discard", pid)  # the WAL may not grow past 4 KiB

    assert done.returncode == 1, done.stderr
    assert done.stderr.splitlines() == [
        f"forest: {db}: the disk refused a write (disk I/O error); free space (a full disk, "
        "a quota or a file-size limit)"
    ]
    assert db.read_bytes() == before  # nothing discarded
    assert pid in forest(root, "proposals").stdout  # still open
