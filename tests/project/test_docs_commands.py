"""Every ``forest`` command the README and docs/*.md show names a command that exists,
with options that command takes: a newcomer pastes them as written.

Stores: nothing.
Refuses: nothing; fails when a page shows a command or an option the CLI does not have.
Returns: nothing.
Test: this file.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import typer.main

from forest_files.doors.cli import app

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# `forest` as a command word (not forest-files, .forest, forest.toml), then its words
# up to the end of the command: a code span's end, a line's end, a pipe or a list.
COMMAND = re.compile(r"(?<![\w./-])forest((?: -C \S+)*(?: [a-z][a-z-]*)+)([^`\n|;&>#]*)")
OPTION = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*|-[a-zA-Z])(?![\w-])")
# Named in prose as what does not exist.
ABSENT = {("recall",)}
ROOT_COMMAND = typer.main.get_command(app)


def _options(cmd: Any) -> set[str]:
    return {o for p in cmd.params for o in (*p.opts, *p.secondary_opts)} | {"--help"}


def _code(text: str) -> list[tuple[int, str]]:
    """(line number, code) of a page: each fenced line (a shell comment cut off) and
    each inline code span that starts with ``forest``."""
    code, fenced = [], False
    for n, line in enumerate(text.splitlines(), 1):
        if line.startswith("```"):
            fenced = not fenced
        elif fenced:
            code.append((n, re.sub(r"(^|\s)#\s.*$", "", line)))
        else:
            code += [(n, span) for span in re.findall(r"`(forest [^`]*)`", line)]
    return code


def _shown() -> list[tuple[str, str, tuple[str, ...], str]]:
    """(page:line, the command as shown, its command path, the words after it)."""
    shown = []
    for page in PAGES:
        for n, line in _code(page.read_text(encoding="utf-8")):
            for m in COMMAND.finditer(line):
                words = m.group(1).split()
                while words[:1] == ["-C"]:
                    words = words[2:]
                path: list[str] = []
                group: Any = ROOT_COMMAND
                while words and hasattr(group, "commands") and words[0] in group.commands:
                    group = group.commands[words[0]]
                    path.append(words.pop(0))
                rest = " ".join(words) + m.group(2)
                shown.append((f"{page.name}:{n}", m.group(0).strip(), tuple(path), rest))
    return shown


SHOWN = _shown()


def _command(path: tuple[str, ...]) -> Any:
    cmd: Any = ROOT_COMMAND
    for name in path:
        cmd = cmd.commands[name]
    return cmd


def test_docs_show_forest_commands_accepted() -> None:
    assert len(SHOWN) > 200, "the pages should show many forest commands"
    assert any(where.startswith("cli.md:") for where, *_ in SHOWN)


@pytest.mark.parametrize(("where", "shown", "path", "rest"), SHOWN, ids=[s[0] for s in SHOWN])
def test_docs_command_and_options_exist_accepted(
    where: str, shown: str, path: tuple[str, ...], rest: str
) -> None:
    first = rest.split()[0] if rest.split() else ""
    cmd = _command(path)
    if hasattr(cmd, "commands"):  # a group: a command word after it must be one of it
        assert (*path, first) in ABSENT or not re.fullmatch(r"[a-z][a-z-]*", first), (
            f"{where}: `{shown}`: no command `forest {' '.join((*path, first))}`"
        )
        return
    for option in OPTION.findall(rest):
        assert option in _options(cmd), (
            f"{where}: `{shown}`: `forest {' '.join(path)}` takes no {option}"
        )
