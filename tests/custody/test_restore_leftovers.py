"""A restore killed between writing a file's temp copy and renaming it left
``.forest-XXXXXXXX.forest-restore`` beside the file for ever, and nothing said so.
The next ``forest restore`` removes, in the directories it writes to, the temp
files whose writer is gone (custody/restore_leftovers.py), and names with their
``rm`` those a restore may still be writing; nothing else is ever removed.

Real repositories and the installed ``forest``; the kill is a real SIGKILL, sent
by the restore to itself at its first rename (so it lands between the two)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.helpers.cli import FOREST
from tests.helpers.custody import adopted_repo
from tests.helpers.git import git_env, pasted, write

DOC = "# Doc\n\n## Part\n\nthe words\n"
HOUR_AGO = time.time() - 3600 - 60
# `forest restore docs/a.md`, killed (SIGKILL: no clean-up runs) at its first rename
KILLED_AT_RENAME = (
    "import os, signal, sys\n"
    "real = os.replace\n"
    "def replace(src, dst, **at):\n"
    "    if str(src).endswith('.forest-restore'):\n"
    "        os.kill(os.getpid(), signal.SIGKILL)\n"
    "    real(src, dst, **at)\n"
    "os.replace = replace\n"
    "from forest_files.doors.entry import main\n"
    "sys.argv = ['forest', 'restore', 'docs/a.md']\n"
    "main()\n"
)


def run(cwd: Path, *args: str, check: int = 0) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")} | git_env()
    proc = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    assert proc.returncode == check, (args, proc.stdout, proc.stderr)
    return proc


def _drifted(tmp_path: Path) -> Path:
    root = adopted_repo(tmp_path, "docs/a.md", DOC)
    write(root, "docs/a.md", DOC.replace("the words", "other words"))
    return root


def _killed_restore(root: Path) -> Path:
    proc = run(root, sys.executable, "-c", KILLED_AT_RENAME, check=-signal.SIGKILL)
    assert proc.returncode == -signal.SIGKILL
    (leftover,) = (root / "docs").glob(".forest-*.forest-restore")
    return leftover


def _dead_pid() -> int:
    return int(run(Path.cwd(), sys.executable, "-c", "import os; print(os.getpid())").stdout)


def test_restore_killed_at_rename_leftover_removed_by_next_restore_recovers(
    tmp_path: Path,
) -> None:
    root = _drifted(tmp_path)
    leftover = _killed_restore(root)
    assert "other words" in (root / "docs" / "a.md").read_text()  # the rename never ran
    older = root / "docs" / ".forest-abcd_123.forest-restore"  # an older version's name
    older.write_text("stale")
    os.utime(older, (HOUR_AGO, HOUR_AGO))
    done = run(root / "docs", FOREST, "restore", "docs/a.md")
    assert "removed docs/.forest-" in done.stdout and "and 1 more" in done.stdout, done.stdout
    assert not leftover.exists() and not older.exists()
    assert (root / "docs" / "a.md").read_text() == DOC


def test_restore_never_removes_lookalikes_or_live_writers_accepted(tmp_path: Path) -> None:
    """Only a regular file of exactly the generated name, in a directory the restore
    writes to, whose writer is gone; a young file of a live writer is named, with an
    `rm` that works pasted where the user stands."""
    root = _drifted(tmp_path)
    docs, dead = root / "docs", _dead_pid()
    mine = write(root, "notes.md", "the user's own file")
    lookalikes = [
        docs / f".forest-{dead}-abcdefg.forest-restore",  # seven characters
        docs / f".forest-{dead}-ABCDEFGH.forest-restore",
        docs / f"x.forest-{dead}-abcdefgh.forest-restore",
        docs / f".forest-{dead}-abcdefgh.forest-restore.bak",
        root / f".forest-{dead}-abcdefgh.forest-restore",  # not where the restore writes
        docs / "sub" / f".forest-{dead}-abcdefgh.forest-restore",  # nor below it
    ]
    for path in lookalikes:
        write(root, path.relative_to(root).as_posix(), "a user's text")
    link = docs / f".forest-{dead}-linktarg.forest-restore"
    link.symlink_to(mine)
    folder = docs / f".forest-{dead}-adirecto.forest-restore"
    folder.mkdir()
    for path in [*lookalikes, folder]:
        os.utime(path, (HOUR_AGO, HOUR_AGO))
    os.utime(link, (HOUR_AGO, HOUR_AGO), follow_symlinks=False)
    live = write(root, f"docs/.forest-{os.getpid()}-running1.forest-restore", "in flight")
    young = write(root, "docs/.forest-young_01.forest-restore", "older version, in flight")
    done = run(docs, FOREST, "restore", "docs/a.md")
    assert all(p.exists() for p in [*lookalikes, link, folder, live, young, mine])
    assert mine.read_text() == "the user's own file" and "removed" not in done.stdout
    (line,) = [ln for ln in done.stdout.splitlines() if ln.startswith("kept 2 temp file")]
    assert pasted(docs, line.split("once none runs: ", 1)[1]).returncode == 0
    assert not live.exists() and not young.exists()
    assert all(p.exists() for p in [*lookalikes, link, folder, mine])
