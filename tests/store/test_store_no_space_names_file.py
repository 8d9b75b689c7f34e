"""A store write the disk has no room for names the database file, with its folder,
whatever step SQLite was at (store/connection.py ``translate``).

Before the fix a supersede whose index write, or whose commit, ran out of room said
"forest: supersede: the disk refused a write …" or "forest: commit: …": SQLite's
step, not the file to make room for (the opening already named it). The limit is
``RLIMIT_FSIZE`` in the ``forest`` child alone (tests/helpers/fsize.py); the two
sizes reach the index's row write and its commit.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.helpers.cli import forest
from tests.helpers.fsize import limited
from tests.helpers.watch import EDITED, bound_repo

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE is POSIX")

FREE = "; free space (a full disk, a quota or a file-size limit)"


@pytest.mark.parametrize(("limit", "step"), [(55_296, "supersede"), (86_016, "commit")])
def test_store_write_no_space_names_the_file_refused(tmp_path: Path, limit: int, step: str) -> None:
    root = bound_repo(tmp_path)
    (root / "a.md").write_text(EDITED, encoding="utf-8")
    index = root / ".git" / "forest" / "woods.db"
    done = limited(root, limit, "supersede", "a.md#Keep", "--words", "bold now")
    assert done.returncode == 1, done.stderr
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"forest: {step}: the disk refused a write to {index} ("), line
    assert line.endswith(FREE), line
    again = forest(root, "supersede", "a.md#Keep", "--words", "bold now")
    assert again.exit_code == 0, again.output
