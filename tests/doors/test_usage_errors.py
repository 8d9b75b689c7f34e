"""A command-line usage error is one ``forest:`` line naming the help to read, exit 2,
through the console entry (click's three-line block is not printed); what a command
itself returns is kept."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.git import git_env, make_repo


def _forest(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-P", "-m", "forest_files", *args],
        cwd=root,
        env={**os.environ, **git_env()},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize(
    ("argv", "what", "help_of"),
    [
        (("check", "--bogus"), "No such option: --bogus", "forest check"),
        (("restore",), "Missing argument 'targets'", "forest restore"),
        (("ci", "--report", "bad"), "Invalid value for --report", "forest ci"),
        (("no-such-command",), "No such command 'no-such-command'", "forest"),
    ],
)
def test_usage_error_one_forest_line_refused(
    tmp_path: Path, argv: tuple[str, ...], what: str, help_of: str
) -> None:
    root = make_repo(tmp_path)
    done = _forest(root, *argv)
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("forest: ") and what in done.stderr
    assert done.stderr.rstrip().endswith(f"see `{help_of} --help`")
    assert "Traceback" not in done.stderr and "Usage:" not in done.stderr


def test_command_exit_codes_kept_accepted(tmp_path: Path) -> None:
    """Outside custody a command still refuses as before (exit 1, its own line), and
    --version still answers from the light entry."""
    root = make_repo(tmp_path)
    refused = _forest(root, "log")
    assert refused.returncode == 1 and "forest init" in refused.stderr
    version = _forest(root, "--version")
    assert version.returncode == 0 and version.stdout.startswith("forest-files ")
