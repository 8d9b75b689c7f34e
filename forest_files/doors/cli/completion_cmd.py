"""``forest completion SHELL``: print the shell's completion script for ``forest``.

A command rather than typer's ``--install-completion``/``--show-completion``: it
writes no rc file behind the user's back (they choose where the script goes, as
with ``gh completion`` or ``kubectl completion``), it adds no options to
``forest --help``, and, listed from its stand-in (lazy.py), it costs ``forest
--help`` nothing. The script calls ``forest`` back with ``_FOREST_COMPLETE`` set;
``prepare`` (called by cli/app.py only then) registers typer's completion classes,
the same ones the script was printed from, so both always agree.

Stores: nothing (the user redirects the script where their shell reads it).
Refuses: a shell typer cannot complete (exit 2, the known ones listed).
Returns: the script on stdout.
Test: tests/doors/test_cli_completion.py
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer

from forest_files.doors.cli.options import app

COMPLETE_VAR = "_FOREST_COMPLETE"


class Shell(StrEnum):
    bash = "bash"
    zsh = "zsh"
    fish = "fish"
    powershell = "powershell"
    pwsh = "pwsh"


def prepare() -> None:
    """typer's completion classes registered (its script style, ``complete_bash``)."""
    from typer._completion_classes import completion_init

    completion_init()


@app.command()
def completion(
    ctx: typer.Context,
    shell: Annotated[Shell, typer.Argument(help="bash, zsh, fish, powershell or pwsh.")],
) -> None:
    """Print the shell completion script for forest; source it from your shell's start-up.

    Example: forest completion bash > ~/.local/share/bash-completion/completions/forest
    """
    from typer.completion import shell_complete

    prepare()
    root = ctx.find_root().command
    raise typer.Exit(shell_complete(root, {}, "forest", COMPLETE_VAR, f"source_{shell.value}"))
