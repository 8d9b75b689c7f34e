"""A replay whose index the disk refuses is a full disk, said so, never a damaged
ledger (store/forest.py ``rebuilding``, custody/apply.py, custody/apply_adopt.py).

``forest rebuild`` (the whole ledger) and ``forest sync`` (a pulled act) under a
file-size limit at sizes that fail as the index is emptied, as its acts replay and
at the commit. Before the fix the emptying's raw SQLite error was an internal error
with a crash log, and an act whose rows the disk refused was named a refused act of
the ledger (exit 3, "`forest verify` lists every fault of the ledger"), though the
ledger was whole. The limit is in a child process alone (tests/helpers/fsize.py).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from tests.helpers.cli import forest, ok
from tests.helpers.fsize import limited
from tests.helpers.git import commit_all, git
from tests.helpers.watch import EDITED, bound_repo

pytest.importorskip("resource")

SIZES = (24_576, 40_960, 65_536, 98_304, 131_072, 163_840, 1 << 22)


def _pulled(root: Path) -> None:
    """The index one act behind its ledger, as after a pull: the act recorded and
    committed, the index brought back to the commit before it, then that commit
    checked out again (its act still to replay)."""
    (root / "a.md").write_text(EDITED, encoding="utf-8")
    ok(root, "supersede", "a.md#Keep", "--words", "bold now")
    commit_all(root, "supersede")
    git(root, "checkout", "-q", "HEAD~1")
    ok(root, "sync")
    git(root, "checkout", "-q", "main")


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE is POSIX")
@pytest.mark.parametrize("command", ["rebuild", "sync"])
def test_replay_index_without_room_said_to_free_space_recovers(
    tmp_path: Path, command: str
) -> None:
    built = bound_repo(tmp_path)
    if command == "sync":
        _pulled(built)
    refused = 0
    for limit in SIZES:
        root = tmp_path / f"r{limit}"
        shutil.copytree(built, root, symlinks=True)
        done = limited(root, limit, command)
        assert done.returncode in (0, 1), (limit, done.stderr)
        if done.returncode == 1:
            refused += 1
            (line,) = done.stderr.splitlines()
            assert line.startswith("forest: "), (limit, line)
            assert "free space (a full disk, a quota or a file-size limit)" in line, line
            assert "ledger" not in line and "internal error" not in line, (limit, line)
            assert not (root / ".git" / "forest" / "crash").exists(), limit
        assert forest(root, "verify").exit_code == 0, limit
        assert forest(root, "check").exit_code == 0, limit
        assert forest(root, command).exit_code == 0, limit  # room again: it completes
        assert forest(root, "fsck").exit_code == 0, limit
    assert refused >= 3  # the sizes reach the emptying, the replay and the commit
