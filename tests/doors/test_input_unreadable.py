"""``forest mcp`` (and ``python -m forest_files.doors.mcp``) whose standard input cannot
be read: closed at start (``<&-``: ``sys.stdin`` is None) or open for writing only
(``0>FILE``). The environment, not a bug: one ``cannot read standard input`` line
saying what to give it, exit 1, never an internal error or a crash log. Standard input
at its end from the start (``< /dev/null``) is a client that closed: exit 0, silent.

(``< /`` never reaches forest: the interpreter refuses a directory as its standard
input before any code runs, ``Fatal Python error: init_sys_streams``, exit 1.)"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.cli import FOREST
from tests.helpers.git import git_env
from tests.helpers.watch import bound_repo

pytest.importorskip("mcp")
pytestmark = pytest.mark.slow

ENTRIES = {
    "command": [FOREST, "mcp"],
    "module": [sys.executable, "-m", "forest_files.doors.mcp"],
}
FIX = "give it a pipe, a file or the terminal, open for reading, then run the command again"


def _serve(root: Path, entry: str, stdin: str) -> subprocess.CompletedProcess[str]:
    """The server at ``entry`` with its standard input ``closed``, ``write-only``
    (a file opened for writing) or ``empty`` (/dev/null)."""
    path = root.parent / "stdin-file" if stdin == "write-only" else Path(os.devnull)
    with open(path, "wb" if stdin == "write-only" else "rb") as source:
        return subprocess.run(
            ENTRIES[entry],
            cwd=root,
            env={**os.environ, **git_env()},
            stdin=source,
            capture_output=True,
            text=True,
            timeout=120,
            preexec_fn=(lambda: os.close(0)) if stdin == "closed" else None,
        )


@pytest.mark.parametrize("entry", sorted(ENTRIES))
@pytest.mark.parametrize(
    ("stdin", "why"), [("closed", "closed"), ("write-only", "not open for reading")]
)
def test_mcp_stdin_unreadable_one_line_refused(
    tmp_path: Path, entry: str, stdin: str, why: str
) -> None:
    """One line naming standard input and what to give it, exit 1, no crash log (it
    was ``internal error (AttributeError)`` or ``(ExceptionGroup)``, exit 3)."""
    root = bound_repo(tmp_path)
    done = _serve(root, entry, stdin)
    assert done.stderr.splitlines() == [f"forest: cannot read standard input ({why}): {FIX}"]
    assert done.returncode == 1, done.stderr
    assert done.stdout == ""
    assert not list((root / ".git" / "forest" / "crash").glob("*.log")), done.stderr


@pytest.mark.parametrize("entry", sorted(ENTRIES))
def test_mcp_stdin_empty_clean_end_accepted(tmp_path: Path, entry: str) -> None:
    """At its end from the start (``< /dev/null``): a client that closed, exit 0, silent."""
    root = bound_repo(tmp_path)
    done = _serve(root, entry, "empty")
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
