"""``forest check`` and ``forest status``: the working tree, the git index or a commit
judged against its ledger. Each parses, calls the check, renders.

The console script answers these two on its light path (entry.py,
fastcheck.py) without loading typer; the definitions here give ``--help`` and
run the very same ``fastcheck.check_command``/``status_command``, so both
paths print the same report.

Stores: nothing itself (the check writes only its local caches).
Refuses: nothing itself; a check with any finding but ``clean`` exits 1.
Returns: text, or one JSON document with ``--json`` — for both commands the one
schema every door prints (docs/findings.schema.json, ``schema_version``; also
``forest ci --format json`` and, for the hook, ``check --staged --json``).
Machine output carries paths, line ranges and hashes — never section text;
diffs appear only on a terminal or with ``--show-diff``.
Test: tests/doors/test_cli_files.py
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from forest_files.doors.cli.options import JsonOpt, RepoOpt, app

if TYPE_CHECKING:
    pass


@app.command()
def check(
    paths: Annotated[
        list[str] | None, typer.Argument(help="Only bindings under these paths.")
    ] = None,
    staged: Annotated[
        bool,
        typer.Option(
            "--staged", help="Judge the staged change against the staged ledger (the hook)."
        ),
    ] = False,
    rev: Annotated[
        str | None, typer.Option("--rev", help="Judge a commit against its own ledger.")
    ] = None,
    show_diff: Annotated[
        bool, typer.Option("--show-diff", help="Print ground -> now diffs.")
    ] = False,
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", help="List clean bindings too.")
    ] = False,
    repo: RepoOpt = Path("."),
    as_json: JsonOpt = False,
) -> None:
    """Compare bound sections with their ground; exit 1 on any finding. Lists what
    needs a route (every binding with -v) and a summary line.

    Example: forest check --staged   # what the pre-commit hook runs
    """
    from forest_files.doors.fastcheck import CheckArgs, check_command

    if staged and rev:
        raise typer.BadParameter("give --staged or --rev, not both")
    args = CheckArgs(
        staged=staged,
        rev=rev,
        paths=tuple(paths or ()),
        repo=str(repo),
        as_json=as_json,
        verbose=verbose,
        show_diff=show_diff,
    )
    raise typer.Exit(check_command(args))


@app.command()
def status(repo: RepoOpt = Path("."), as_json: JsonOpt = False) -> None:
    """Every binding: finding, full selector, ground content id (working tree).

    Example: forest status --json
    """
    from forest_files.doors.faststatus import status_command

    raise typer.Exit(status_command(str(repo), as_json))
