"""The full ``forest`` CLI in process (typer's CliRunner), pointed at one repository."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from typer.testing import CliRunner, Result

import forest_files.doors.cli  # noqa: F401  (registers every command)
from forest_files.doors.cli import app

runner = CliRunner()
# The installed console script beside this interpreter: a command as a user types it.
FOREST = str(Path(sys.executable).with_name("forest"))


def forest(repo: Path, *args: str) -> Result:
    return runner.invoke(app, [*args, "--repo", str(repo)])


def ok(repo: Path, *args: str) -> Result:
    result = forest(repo, *args)
    assert result.exit_code == 0, (args, result.stdout, result.stderr)
    return result


def findings(repo: Path) -> list[dict[str, Any]]:
    """Every finding of ``forest check --json`` in the working tree."""
    out: list[dict[str, Any]] = json.loads(forest(repo, "check", "--json").stdout)["findings"]
    return out


def finding_of(repo: Path, selector: str) -> dict[str, Any]:
    """The one finding of ``forest check --json`` for ``selector``."""
    (found,) = [f for f in findings(repo) if f["selector"] == selector]
    return found


def kinds(repo: Path) -> list[str]:
    return [f["kind"] for f in findings(repo)]


def console(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``forest ARGS`` typed in ``cwd``: the installed console script's code path
    (entry.main, ``-C`` and the light doors included), in a process of its own."""
    from tests.helpers.git import git_env

    code = "from forest_files.doors.entry import main; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=cwd,
        env={**os.environ, **git_env()},
        capture_output=True,
        text=True,
        timeout=120,
    )


@contextmanager
def typed_beside(root: Path) -> Iterator[Path]:
    """In this process, as ``forest -C ../NAME …`` typed in a directory ``beside`` the
    work tree at ``root`` (entry.py's ``typed_in``, then the door's ``stand_at``): the
    commands built inside reach ``root`` from there. Forgotten after."""
    from forest_files.kernel.standing import stand_at, typed_in

    beside = root.parent / "beside"
    beside.mkdir(exist_ok=True)
    typed_in(str(beside))
    stand_at(root)
    try:
        yield beside
    finally:
        typed_in(None)
        stand_at(None)
