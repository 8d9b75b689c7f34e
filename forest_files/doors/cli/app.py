"""The ``forest`` console-script entry point (``main``: the group, built lazily, run
inside the one error boundary; a usage error as one line) and the commands
``forest --help`` lists last. typer lists commands in the order they are registered,
and the package imports this module after every other command module: so ``init``,
``sync`` and ``rebuild`` (index_cmds.py), then ``verify`` and ``log``
(ledger_cmds.py) are imported here, in that order, before ``resolve`` and ``tour``
are defined below. Each command parses, calls one function, renders.

Stores: nothing itself (the repository layer does).
Refuses: nothing itself; the one error boundary (doors/boundary.py, through
``errors.boundary`` for each command) maps every exception to its exit code and
one stderr line.
Returns: exit codes 0/1/2/3/75/130 (see ``errors``).
Test: tests/doors/test_cli.py, tests/doors/test_cli_lazy.py
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

# In this order (see above): init, sync, rebuild; then verify, log.
from forest_files.doors.cli import index_cmds, ledger_cmds  # noqa: F401  (registers commands)
from forest_files.doors.cli.errors import boundary
from forest_files.doors.cli.options import JsonOpt, RepoOpt, WordsOpt, app, emit, identity


@app.command()
@boundary
def resolve(
    content_id: Annotated[str, typer.Argument(help="A contested entry's content id.")],
    pick: Annotated[str, typer.Option("--pick", help="Content id of the head whose text wins.")],
    words: WordsOpt,
    as_: Annotated[
        str | None, typer.Option("--as", help="Signature (default: git user.name <email>).")
    ] = None,
    repo: RepoOpt = Path("."),
    as_json: JsonOpt = False,
) -> None:
    """End a contest: supersede every contested head with the picked head's text.

    Example: forest resolve <content-id> --pick <head-id> --words "C's wording is canon"
    """
    from forest_files.custody.repository import Repository
    from forest_files.doors.cli.commit_step import commit_step

    with Repository(repo) as r:
        new = r.resolve(content_id, pick=pick, words=words, by=identity(repo, as_))
        # a contest shows up in a merge, rebase or cherry-pick whose files may still be
        # in conflict: the step then stages alone (git refuses a commit)
        step = commit_step(r.root)
    emit(as_json, {"ground": new}, f"resolved: {new} is ground\n{step}")


@app.command()
@boundary
def tour(
    keep: Annotated[
        Path | None,
        typer.Option("--keep", metavar="DIR", help="Keep the repository in DIR (new or empty)."),
    ] = None,
) -> None:
    """Walk through the tool in a throwaway repository: adopt, check, the hook, restore,
    supersede, the watcher and a proposal, the CI gate. Each command runs for real.

    Example: forest tour;  forest tour --keep /tmp/forest-tour
    """
    from forest_files.doors.tour import run_tour

    run_tour(keep)


def main() -> None:
    """Console-script entry point: the group with only the command being run built,
    inside the one error boundary (what fails before a command runs: building it,
    an option's callback). typer ends the process itself (``SystemExit``)."""
    import sys

    from forest_files.doors.boundary import run_guarded

    sys.exit(run_guarded("forest", _group, sys.argv))


def _group() -> int:
    """The group run without click's own error printing: a usage error is one
    ``forest:`` line naming the help to read (exit 2), not a three-line block."""
    import os
    import sys

    from forest_files.doors.cli.lazy import command

    if "_FOREST_COMPLETE" in os.environ:  # the script of `forest completion SHELL` asks
        from forest_files.doors.cli.completion_cmd import prepare

        prepare()
    group = command(app)
    try:
        code = group.main(args=sys.argv[1:], prog_name="forest", standalone_mode=False)
    except typer.Abort:  # Ctrl-C in a prompt
        sys.stderr.write("forest: interrupted\n")
        return 130
    except Exception as exc:
        line = _usage_line(exc)
        if line is None:
            raise  # the error boundary's (boundary.py)
        sys.stderr.write(line)
        return 2
    return code if isinstance(code, int) else 0


def _usage_line(exc: Exception) -> str | None:
    """One line for a command-line usage error (click's, or the click typer carries),
    or None for anything else; ``forest hooks`` alone shows its help, as before."""
    if getattr(exc, "exit_code", None) != 2 or not hasattr(exc, "format_message"):
        return None
    ctx = getattr(exc, "ctx", None)
    where = str(getattr(ctx, "command_path", "") or "forest")
    if type(exc).__name__ == "NoArgsIsHelpError" and ctx is not None:
        return str(ctx.get_help()) + "\n"
    message = " ".join(str(exc.format_message()).split()).rstrip(".")
    return f"forest: {message}; see `{where} --help`\n"
