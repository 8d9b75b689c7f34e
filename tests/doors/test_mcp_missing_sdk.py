"""``forest mcp`` (and ``python -m forest_files.doors.mcp``) where forest-files' Python
has no MCP SDK: one ``forest:`` line naming the install that works pasted, exit 1.

forest-files is installed from a checkout or a URL (README, Quick start), never by
name, and a ``pip`` on PATH may serve another Python: the line names the pip of the
very interpreter the server runs on, with the ``mcp`` extra's requirements.
"""

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

ENTRIES = {
    "module": [sys.executable, "-m", "forest_files.doors.mcp"],
    "command": [FOREST, "mcp"],
}
LEAD = "forest: `forest mcp` needs the MCP SDK (the mcp extra)"


@pytest.mark.parametrize("entry", sorted(ENTRIES))
def test_mcp_without_sdk_install_route_pasted_recovers(tmp_path: Path, entry: str) -> None:
    """The SDK hidden from the server's interpreter: the refusal's command, pasted in a
    shell whose PATH holds no venv, installs the extra into that interpreter (here it is
    there already: pip says so and exits 0). It said ``pip install
    'forest-files[mcp]'``, a name no index serves, for whatever ``pip`` PATH found; and
    ``-m`` called the missing SDK an internal error."""
    root = bound_repo(tmp_path)
    blocker = tmp_path / "no-mcp"
    blocker.mkdir()
    (blocker / "sitecustomize.py").write_text("import sys\nsys.modules['mcp'] = None\n")
    env = {**os.environ, **git_env(), "PYTHONPATH": str(blocker)}
    done = subprocess.run(
        ENTRIES[entry], cwd=root, env=env, input="", capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1, done.stderr
    assert done.stdout == ""
    assert len(done.stderr.splitlines()) == 1 and done.stderr.startswith(LEAD), done.stderr
    assert not (root / ".git" / "forest" / "crash").exists()
    command = done.stderr.rstrip("\n").rpartition("beside forest-files: ")[2]
    pasted = subprocess.run(
        ["sh", "-c", command],
        env={
            "PATH": "/usr/bin:/bin",
            "HOME": str(tmp_path),
            "PIP_NO_INDEX": "1",
            "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        },
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert pasted.returncode == 0, command + "\n" + pasted.stderr
    assert "Requirement already satisfied: mcp" in pasted.stdout, pasted.stdout
