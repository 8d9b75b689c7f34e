"""``-q``/``-v`` on every registered command, one mechanism (doors/cli/command.py):
quiet keeps the verdict line (and errors), verbose adds detail on stderr; machine
output is never cut."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer.main

from forest_files.doors.cli import app
from forest_files.kernel import verbosity
from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, make_repo, write
from tests.helpers.template import built_once, copy_repo


def _leaves(group: Any, prefix: tuple[str, ...] = ()) -> Iterator[tuple[str, Any]]:
    for name, cmd in sorted(group.commands.items()):
        if hasattr(cmd, "commands"):
            yield from _leaves(cmd, (*prefix, name))
        yield " ".join((*prefix, name)), cmd


@pytest.fixture(autouse=True)
def _normal() -> Iterator[None]:
    yield
    verbosity.set_level(verbosity.NORMAL)


@pytest.mark.parametrize(("name", "cmd"), list(_leaves(typer.main.get_command(app))))
def test_voice_flags_on_every_command_accepted(name: str, cmd: Any) -> None:
    opts = {o for p in cmd.params for o in getattr(p, "opts", ())}
    assert "-q" in opts and "-v" in opts, f"forest {name} lacks -q or -v"


def _build(tmp: Path) -> Path:
    root = make_repo(tmp)
    write(root, "a.md", "# A\n\ntext\n")
    commit_all(root, "a")
    ok(root, "init")
    ok(root, "adopt", "a.md", "--words", "the first words", "--as", "Ada <ada@example.org>")
    commit_all(root, "custody")
    return root


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_once(tmp_path_factory, _build)


def test_voice_quiet_keeps_the_verdict_accepted(template: Path, tmp_path: Path) -> None:
    root = copy_repo(template, tmp_path / "r")
    write(root, "a.md", "# A\n\nchanged\n")
    loud = forest(root, "check", "--show-diff")
    quiet = forest(root, "check", "-q", "--show-diff")
    assert loud.exit_code == quiet.exit_code == 1
    assert quiet.stdout.splitlines() == loud.stdout.splitlines()[-1:]
    assert len(loud.stdout.splitlines()) > 1


def test_voice_quiet_machine_output_untouched_accepted(template: Path, tmp_path: Path) -> None:
    """Hostile: -q must not cut a JSON document or a SARIF report to its last line."""
    root = copy_repo(template, tmp_path / "r")
    doc = json.loads(ok(root, "status", "-q", "--json").stdout)
    assert doc["schema_version"]
    sarif = json.loads(ok(root, "ci", "-q", "--format", "sarif").stdout)
    assert sarif["runs"]


def test_voice_quiet_error_still_said_accepted(tmp_path: Path) -> None:
    root = make_repo(tmp_path)
    result = forest(root, "verify", "-q")
    assert result.exit_code != 0 and "forest init" in result.stderr


def test_voice_verbose_says_more_accepted(template: Path, tmp_path: Path) -> None:
    root = copy_repo(template, tmp_path / "r")
    plain = ok(root, "verify")
    loud = ok(root, "verify", "-v")
    assert loud.stdout == plain.stdout
    assert "forest verify took" in loud.stderr and plain.stderr == ""
