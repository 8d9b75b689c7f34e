"""A command run with a folder mounted read-only, as on a read-only disk.

The folder is bound over itself and remounted read-only inside a private mount
namespace (``unshare -m``: its mounts are private, gone with the command), so the
command meets what a read-only filesystem gives (EROFS, SQLite's "unable to open"
and "readonly database", ``statvfs``'s ``ST_RDONLY``) and nothing else on the machine
sees the mount. It needs util-linux's ``unshare`` and the right to mount (root in a
container); where either is missing, the test is skipped with the reason, never
passed.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.helpers.git import git_env

# $1 the folder, $2 the command: bound over itself, remounted read-only, then run in it
_SCRIPT = 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" "$1" && cd "$1" && sh -c "$2"'


@functools.cache
def _cannot_mount() -> str | None:
    """Why no folder can be mounted read-only here; None when one can."""
    tool = shutil.which("unshare")
    if tool is None:
        return "util-linux's unshare is missing"
    with tempfile.TemporaryDirectory() as folder:
        probe = "touch x 2>/dev/null && exit 1 || exit 0"  # refused: the mount holds
        done = subprocess.run(
            [tool, "-m", "sh", "-c", _SCRIPT, "sh", folder, probe],
            capture_output=True,
            text=True,
            check=False,
        )
    return None if done.returncode == 0 else f"no read-only mount here: {done.stderr.strip()}"


def run_read_only(folder: Path, command: str) -> subprocess.CompletedProcess[str]:
    """``command`` typed into ``sh`` in ``folder`` while ``folder`` is mounted
    read-only, with this interpreter's bin folder first on PATH and the fixed test
    git; skips the test when no folder can be mounted read-only here."""
    why = _cannot_mount()
    if why is not None:
        pytest.skip(why)
    env = {
        **os.environ,
        **git_env(),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
    }
    for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
        env.pop(name, None)
    return subprocess.run(
        [str(shutil.which("unshare")), "-m", "sh", "-c", _SCRIPT, "sh", str(folder), command],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
