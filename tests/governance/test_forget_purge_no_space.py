"""A forget whose purge the disk has no room for says to free space, then `forest
sync` (custody/purge.py ``purge_failed``), never to make files writable.

The purge rewrites the index (``VACUUM``) after the erase act is recorded. Under a
file-size limit (in a child process alone: tests/helpers/fsize.py) the rewrite
fails with SQLite's I/O error; before the fix the one line said "(OperationalError);
make .git/forest/local.db and .git/forest writable regular files", which they were
(local.db did not even exist). The purge is owed either way: with room again
``forest sync`` finishes it.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from tests.helpers.cli import forest, ok
from tests.helpers.fsize import limited
from tests.helpers.git import commit_all, make_repo, write

pytest.importorskip("resource")

FREE = "free space (a full disk, a quota or a file-size limit), then run `forest sync`"


def _superseded(tmp_path: Path) -> tuple[Path, str, Path]:
    """A repository whose first ground was superseded: its content id and body file."""
    repo = make_repo(tmp_path, "built")
    write(repo, "canon.md", "# Canon\n\n## Hero\n\nThe hero is brave, said the old page.\n")
    commit_all(repo, "base")
    ok(repo, "init")
    ok(repo, "adopt", "canon.md", "--words", "canon")
    commit_all(repo, "adopt")
    write(repo, "canon.md", "# Canon\n\n## Hero\n\nThe hero is bold.\n")
    ok(repo, "supersede", "canon.md", "--words", "s")
    commit_all(repo, "supersede")
    ok(repo, "check")
    old = json.loads(forest(repo, "log", "canon.md", "--json").stdout)["chain"][0]
    body = Path(".forest/ledger/bodies") / old["body_hash"][:2] / f"{old['body_hash']}.txt"
    return repo, old["content_id"], body


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE is POSIX")
def test_forget_purge_without_room_said_to_free_space_then_sync_finishes_recovers(
    tmp_path: Path,
) -> None:
    built, content_id, body = _superseded(tmp_path)
    owed = 0
    for limit in (65_536, 98_304, 131_072, 196_608):
        repo = tmp_path / f"r{limit}"
        shutil.copytree(built, repo, symlinks=True)
        done = limited(repo, limit, "forget", content_id, "--words", "pasted a secret")
        assert done.returncode in (0, 1), (limit, done.stderr)
        if done.returncode == 0:
            continue
        (line,) = done.stderr.splitlines()
        assert line.startswith("forest: ") and "free space" in line, (limit, line)
        assert "writable" not in line, (limit, line)
        if "is recorded" in line:  # the act stands; its purge is owed
            owed += 1
            assert line.endswith(f"{FREE}: it finishes the purge"), (limit, line)
            assert forest(repo, "sync").exit_code == 0, limit
            assert not (repo / body).exists(), limit
        assert forest(repo, "verify").exit_code == 0, limit
        assert forest(repo, "fsck").exit_code == 0, limit
    assert owed >= 1  # a size reached the purge
