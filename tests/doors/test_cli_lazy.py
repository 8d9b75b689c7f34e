"""The console script's lazily built group prints and refuses exactly what typer's
eagerly built group does (forest_files/doors/cli/lazy.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import typer.testing
from typer.testing import CliRunner

import forest_files.doors.cli  # noqa: F401  (registers every command)
from forest_files.doors.cli import app
from forest_files.doors.cli.lazy import LazyGroup, command
from tests.helpers.git import git_env, make_repo

runner = CliRunner()


def _eager(args: list[str]) -> tuple[int, str]:
    result = runner.invoke(app, args, prog_name="forest")
    return result.exit_code, result.output


def _run(group: object, args: list[str]) -> tuple[int, str]:
    """``group`` run by typer's runner (which otherwise builds the eager group)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(typer.testing, "_get_command", lambda _app: group)
        result = runner.invoke(app, args, prog_name="forest")
    return result.exit_code, result.output


def _lazy(args: list[str]) -> tuple[int, str]:
    return _run(command(app), args)


def _names() -> list[str]:
    group = command(app)
    assert isinstance(group, LazyGroup)
    return sorted(group.real)


def test_lazy_top_level_help_same_as_eager_accepted() -> None:
    assert _lazy(["--help"]) == _eager(["--help"])
    assert _lazy([]) == _eager([])


@pytest.mark.parametrize("name", _names())
def test_lazy_command_help_same_as_eager_accepted(name: str) -> None:
    code, text = _lazy([name, "--help"])
    assert code == 0 and f"Usage: forest {name}" in text
    assert (code, text) == _eager([name, "--help"])


@pytest.mark.parametrize(
    "args",
    [["adpot"], ["nosuch", "x"], ["adopt"], ["adopt", "--nosuch"], ["hooks", "nosuch"]],
)
def test_lazy_usage_error_same_as_eager_refused(args: list[str]) -> None:
    code, text = _lazy(args)
    assert code == 2
    assert (code, text) == _eager(args)


def test_lazy_group_builds_only_the_command_run_accepted() -> None:
    group = command(app)
    assert isinstance(group, LazyGroup)
    before = set(group.real)
    assert _run(group, ["adopt", "--help"])[0] == 0
    assert before - set(group.real) == {"adopt"}  # the others are still stand-ins
    assert any(p.name == "targets" for p in group.commands["adopt"].params)
    stand_in = group.commands["init"].params  # only the flags every command gets
    assert {p.name for p in stand_in} <= {"forest_quiet", "forest_verbose"}


def test_console_script_runs_a_command_accepted(tmp_path: Path) -> None:
    """The console script's lazy group runs a real command, not only its help."""
    root = make_repo(tmp_path)
    code = "from forest_files.doors.cli import main; main()"
    done = subprocess.run(
        [sys.executable, "-c", code, "init", "--project-id", "lazy", "--repo", str(root)],
        capture_output=True,
        text=True,
        env={**os.environ, **git_env()},
    )
    assert done.returncode == 0, done.stderr
    assert 'id = "lazy"' in (root / "forest.toml").read_text()


@pytest.mark.parametrize(
    "args", [["init", "--project-id", "p"], ["show", "--help"], ["adopt", "--help"]]
)
def test_typer_command_imports_no_pydantic_accepted(tmp_path: Path, args: list[str]) -> None:
    """A command answered by the typer CLI never imports pydantic: typer 0.29 began to
    coerce every option through pydantic adapters, ~80 ms more on each command (so
    pyproject.toml keeps typer below 0.29). pydantic is the schema generator's and
    the MCP server's alone (tests/project/test_packaging.py)."""
    root = make_repo(tmp_path)
    code = (
        "import sys\n"
        "from forest_files.doors.cli import main\n"
        "try:\n"
        "    main()\n"
        "finally:\n"
        "    sys.stderr.write('pydantic loaded: %s' % ('pydantic' in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        cwd=root,
        env={**os.environ, **git_env()},
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.endswith("pydantic loaded: False"), done.stderr
