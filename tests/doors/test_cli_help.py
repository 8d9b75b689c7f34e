"""Every registered command (sub-groups and their commands included) has a summary
that is a whole sentence, shown uncut in its group's listing, and an example in its
``--help``. The commands are read from the typer tree: a new one is checked too."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import typer.main
from typer.testing import CliRunner

from forest_files.doors.cli import app
from forest_files.doors.cli.command import summary

runner = CliRunner()
SENTENCE = re.compile(r"[A-Z`(].*[.!?]", re.DOTALL)
EXAMPLE = re.compile(r"Example: (\S+ ){0,4}?forest\b")


def _whole(text: str) -> bool:
    return SENTENCE.fullmatch(text) is not None and not text.endswith("...")


def _walk(group: Any, prefix: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Any]]:
    found: list[tuple[tuple[str, ...], Any]] = []
    for name, cmd in sorted(group.commands.items()):
        found.append(((*prefix, name), cmd))
        if hasattr(cmd, "commands"):
            found += _walk(cmd, (*prefix, name))
    return found


COMMANDS = _walk(typer.main.get_command(app))
IDS = [" ".join(path) for path, _ in COMMANDS]


def _help(args: list[str]) -> str:
    result = runner.invoke(app, [*args, "--help"], prog_name="forest")
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize(("path", "cmd"), COMMANDS, ids=IDS)
def test_cli_help_summary_whole_sentence_accepted(path: tuple[str, ...], cmd: Any) -> None:
    text = cmd.get_short_help_str(45)
    assert _whole(text), f"{' '.join(path)}: {text!r} is not a whole sentence"
    listing = " ".join(_help(list(path[:-1])).split())
    assert f"{path[-1]} {text}" in listing, f"{' '.join(path)}: cut in its group's listing"


@pytest.mark.parametrize(("path", "cmd"), COMMANDS, ids=IDS)
def test_cli_help_example_accepted(path: tuple[str, ...], cmd: Any) -> None:
    text = " ".join(_help(list(path)).split())
    assert EXAMPLE.search(text), f"forest {' '.join(path)} --help"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("One. Two.", "One."),
        ("Read forest.toml, e.g. here. Then more.", "Read forest.toml, e.g. here."),
        ("First line\nwraps here.\n\nSecond paragraph.", "First line wraps here."),
        ("No full stop", "No full stop"),
    ],
)
def test_cli_help_summary_first_sentence_accepted(text: str, expected: str) -> None:
    assert summary(text) == expected


def test_cli_help_cut_summary_detected() -> None:
    """Hostile: a summary with no sentence end would fail the walk above."""
    assert not _whole("Compare bound sections with their ground; exit 1 on any...")
    assert not _whole("and the index")


def _example(cmd: Any) -> str:
    """The example of ``cmd``'s help, on one line as its docstring writes it."""
    text = (cmd.help or "").split("Example: ", 1)[1].split("\n\n", 1)[0]
    return "Example: " + " ".join(text.split())


@pytest.mark.parametrize(("path", "cmd"), COMMANDS, ids=IDS)
def test_cli_help_example_one_line_pasted_accepted(path: tuple[str, ...], cmd: Any) -> None:
    """The example of ``--help`` at 80 columns is one line, and a line bash reads:
    click rewrapped it with the paragraph, so ``forest completion bash >
    ~/.local/share/bash-`` ended one line and ``completion/completions/forest`` began
    the next (pasted: a file named ``bash-``, then a command not found), ``--report``
    lost its ``sarif=forest.sarif``; ``forest check --staged (what …)`` was no command."""
    import subprocess

    example = _example(cmd)
    lines = [" ".join(line.split()) for line in _help(list(path)).splitlines()]
    assert example in lines, (example, lines)
    command = PLACEHOLDER.sub("ID", example.removeprefix("Example: "))  # filled in
    syntax = subprocess.run(["bash", "-n", "-c", command], capture_output=True, text=True)
    assert syntax.returncode == 0, (command, syntax.stderr)


# A placeholder a shell refuses pasted as it is (``<content-id>``: a redirection from a
# file that is not there, or a syntax error at the end of the line).
PLACEHOLDER = re.compile(r"<[a-z][a-z-]*>")
# What reads as an id but names none (``3f2a…``, ``3f2a9c``): hex digits with a letter
# and a digit, or an ellipsis standing for the rest of one.
FAKE_ID = re.compile(r"\b(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{4,}\b|…")


@pytest.mark.parametrize(("path", "cmd"), COMMANDS, ids=IDS)
def test_cli_help_example_names_no_fake_id_accepted(path: tuple[str, ...], cmd: Any) -> None:
    """An id in an example is a placeholder a shell refuses (``<content-id>``), never a
    word that pastes as valid and names no entry (``forest show 3f2a…``)."""
    example = _example(cmd)
    assert FAKE_ID.search(example) is None, example


PLACEHELD = [(p, c) for p, c in COMMANDS if PLACEHOLDER.search(_example(c))]


@pytest.mark.parametrize(("path", "cmd"), PLACEHELD, ids=[" ".join(p) for p, _ in PLACEHELD])
def test_cli_help_example_placeholder_pasted_refused(
    path: tuple[str, ...], cmd: Any, tmp_path: Path
) -> None:
    """Pasted as it is, the command holding a placeholder never runs and leaves no file
    (an example's other commands, before it, run: ``forest proposal list; …``)."""
    import subprocess

    bin_dir, here = tmp_path / "bin", tmp_path / "here"
    bin_dir.mkdir()
    here.mkdir()
    calls = tmp_path / "calls"
    shim = bin_dir / "forest"
    shim.write_text(f'#!/bin/sh\nprintf "%s\\n" "$*" >> {calls}\n')
    shim.chmod(0o755)
    command = _example(cmd).removeprefix("Example: ")
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(tmp_path)}
    pasted = subprocess.run(
        ["bash", "-c", command], cwd=here, env=env, capture_output=True, text=True
    )
    assert pasted.returncode != 0, (command, pasted.stderr)
    ran = calls.read_text().splitlines() if calls.exists() else []
    steps = [step.split() for step in command.split(";") if step.strip()]
    held = next(i for i, step in enumerate(steps) if PLACEHOLDER.search(" ".join(step)))
    assert ran == [" ".join(step[1:]) for step in steps[:held]], ran
    assert sorted(p.name for p in here.iterdir()) == [], command
