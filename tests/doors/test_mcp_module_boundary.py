"""``python -m forest_files.doors.mcp`` (docs/mcp.md: the same server without the
``forest`` command line around it) goes through the one error boundary as ``forest
mcp`` does: a failure is one ``forest: …`` line and the boundary's code, never a
traceback."""

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

INIT = (
    b'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":'
    b'"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}\n'
)
ENTRIES = {
    "module": [sys.executable, "-m", "forest_files.doors.mcp"],
    "command": [FOREST, "mcp"],
}


def _serve(root: Path, entry: str, stdout: str) -> subprocess.CompletedProcess[str]:
    """The server at ``entry`` answering ``initialize`` into /dev/full, or into a
    standard output closed (``>&-``)."""
    with open(os.devnull if stdout == "closed" else "/dev/full", "wb") as out:
        done = subprocess.run(
            ENTRIES[entry],
            cwd=root,
            env={**os.environ, **git_env()},
            input=INIT,
            stdout=out,
            stderr=subprocess.PIPE,
            timeout=120,
            preexec_fn=(lambda: os.close(1)) if stdout == "closed" else None,
        )
    return subprocess.CompletedProcess(done.args, done.returncode, "", done.stderr.decode())


@pytest.mark.parametrize("stdout", ["full", "closed"])
def test_mcp_module_output_unwritable_one_line_detected(tmp_path: Path, stdout: str) -> None:
    """Its answer cannot be written: ``-m`` says the boundary's one ``cannot write
    standard output`` line, exit 1, as ``forest mcp`` does (it printed a traceback)."""
    root = bound_repo(tmp_path)
    module = _serve(root, "module", stdout)
    command = _serve(root, "command", stdout)
    assert "Traceback" not in module.stderr, module.stderr
    assert module.stderr.splitlines() == command.stderr.splitlines(), module.stderr
    assert module.stderr.startswith("forest: cannot write standard output ("), module.stderr
    assert module.returncode == command.returncode == 1, module.stderr
