"""``forest completion SHELL`` prints a script that completes commands and options
when a real bash sources it; an unknown shell is a usage error."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from forest_files.doors.cli import app

SHELLS = ["bash", "zsh", "fish", "powershell", "pwsh"]


@pytest.mark.parametrize("shell", SHELLS)
def test_completion_script_printed_accepted(shell: str) -> None:
    result = CliRunner().invoke(app, ["completion", shell], prog_name="forest")
    assert result.exit_code == 0, result.stderr
    assert "_FOREST_COMPLETE" in result.stdout and "forest" in result.stdout


def test_completion_unknown_shell_refused() -> None:
    result = CliRunner().invoke(app, ["completion", "tcsh"], prog_name="forest")
    assert result.exit_code == 2
    assert "tcsh" in result.stderr and "Traceback" not in result.stderr


def _complete(words: str) -> list[str]:
    """What bash completes for ``words`` after sourcing ``forest completion bash``."""
    bindir = Path(sys.executable).parent
    if not (bindir / "forest").exists() or shutil.which("bash") is None:
        pytest.skip("needs the installed forest console script and bash")
    script = (
        "source <(forest completion bash); COMP_WORDS=($WORDS); "
        "COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); _forest_completion forest; "
        'printf "%s\\n" "${COMPREPLY[@]}"'
    )
    env = {**os.environ, "PATH": f"{bindir}{os.pathsep}{os.environ['PATH']}", "WORDS": words}
    done = subprocess.run(
        ["bash", "-c", script], env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_completion_bash_commands_and_options_accepted() -> None:
    assert "adopt" in _complete("forest ad")
    assert "--words" in _complete("forest adopt --wo")
    assert "status" in _complete("forest hooks st")
