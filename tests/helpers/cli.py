"""The full ``forest`` CLI in process (typer's CliRunner), pointed at one repository."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner, Result

import forest_files.doors.cli  # noqa: F401  (registers every command)
from forest_files.doors.cli import app

runner = CliRunner()


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


def kinds(repo: Path) -> list[str]:
    return [f["kind"] for f in findings(repo)]
