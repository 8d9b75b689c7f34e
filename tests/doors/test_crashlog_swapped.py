"""A crash log made and pruned in ``.git/forest/crash`` swapped for a link meanwhile.

The owner of ``.git/forest`` (another user, when root runs forest there under
``sudo``) may swap ``crash/`` for a link to a folder of root's full of ``*.log``
files (``/var/log``) just as the crash log is made or the old logs pruned. The log
must never be made there, nor any file there removed (doors/crashlog.py).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from forest_files.doors.crashlog import KEEP
from forest_files.kernel.state import ensure_dir, shared_dir
from tests.helpers.git import git_env, make_repo
from tests.helpers.swap import owner_script

# The child: ``write_crash_log`` in REPO; at the first EVENT (``open`` of a new
# ``….log``, or the ``os.scandir`` that lists the logs to prune), the owner swaps CRASH
# for a link to OUTSIDE (an audit hook, PEP 578, plays the owner: no product code
# changed). Prints the log's path, or the reason there is none.
_SWAP = owner_script(
    ("repo", "crash", "outside", "event_name"),
    "event == event_name and args"
    ' and (event != "open" or (isinstance(args[0], str) and args[0].endswith(".log")))',
    "swap(crash, outside)",
    program="""
from forest_files.doors.crashlog import write_crash_log

sys.addaudithook(hook)
try:
    print(write_crash_log(RuntimeError("boom"), repo, "check", ["forest", "check"]))
except OSError as exc:
    print("no log:", exc)
""",
)


@pytest.mark.parametrize("event", ["open", "os.scandir"], ids=["made", "pruned"])
def test_crash_log_folder_swapped_for_link_refused(tmp_path: Path, event: str) -> None:
    """Swapped as the log is made (``open``) or the old ones listed (``os.scandir``):
    the log was made in the folder the link led to, or that folder's oldest ``*.log``
    files beyond ``KEEP`` removed, by path through the link. Now both happen in the
    crash folder opened from the git directory with no link followed: the other folder
    is left as it was, and the log is in the crash folder it was opened as."""
    repo = make_repo(tmp_path)
    crash = Path(ensure_dir(shared_dir(repo) / "crash"))
    outside = tmp_path / "log"
    outside.mkdir()
    theirs = [f"app{n}.log" for n in range(KEEP + 5)]
    for n, name in enumerate(theirs):
        (outside / name).write_text("root's own log\n", encoding="utf-8")
        os.utime(outside / name, (n, n))  # older than any crash log
    done = subprocess.run(
        [sys.executable, "-c", _SWAP, str(repo), str(crash), str(outside), event],
        env={**os.environ, **git_env()},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    moved = crash.with_name("crash-moved")
    assert crash.is_symlink() and moved.is_dir(), done.stdout  # the owner did swap it
    assert sorted(p.name for p in outside.iterdir()) == sorted(theirs), done.stdout
    (log,) = moved.iterdir()
    assert done.stdout.strip() == str(crash / log.name)
    assert "RuntimeError: boom" in log.read_text(encoding="utf-8")
