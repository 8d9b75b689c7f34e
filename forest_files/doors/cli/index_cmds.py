"""``forest init``, ``forest sync`` and ``forest rebuild``: a repository put under
custody, and its local index brought in step with the ledger or replayed whole.

Stores: nothing itself (the repository layer does).
Refuses: nothing itself; the one error boundary (doors/boundary.py, through
``errors.boundary``) maps every exception to its exit code and one stderr line.
Returns: exit codes 0/1/2/3/75/130 (see ``errors``); ``--json`` for sync and rebuild.
Test: tests/doors/test_cli.py
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Annotated

import typer

from forest_files.doors.cli.errors import boundary
from forest_files.doors.cli.options import JsonOpt, RepoOpt, app, emit


@app.command()
@boundary
def init(
    repo: RepoOpt = Path("."),
    project_id: Annotated[
        str | None, typer.Option("--project-id", help="Use this id instead of a new uuid4.")
    ] = None,
) -> None:
    """Put a git repository under custody: forest.toml, .forest/ledger, the index.

    Example: forest init && git add forest.toml .gitattributes .forest && git commit
    """
    from forest_files.custody.repository import Repository
    from forest_files.kernel.shellword import command_text, for_bash, git_step, printable

    with Repository.init(repo, project_id=project_id) as r:
        add = git_step("add", "--", "forest.toml", ".gitattributes", ".forest")
        typer.echo(
            printable(f"initialised forest-files in {r.root} (project {r.config.project_id})")
        )
        commit = command_text(git_step("commit"))
        typer.echo(for_bash(f"commit it: {command_text(add)} && {commit}"))
        from forest_files.check.uncommitted import ignored_custody

        hidden = ignored_custody(r.root)  # git add would refuse them: the rule is named
        if hidden is not None:
            typer.echo(hidden, err=True)


@app.command()
@boundary
def sync(repo: RepoOpt = Path("."), as_json: JsonOpt = False) -> None:
    """Bring the local index in step with the ledger of the working tree.

    Example: git pull && forest sync
    """
    from forest_files.custody.repository import Repository

    with Repository(repo) as r:
        report = r.sync()
    how = "rebuilt" if report.rebuilt else "in step"
    emit(as_json, asdict(report), f"index {how}: {report.applied} act(s) applied")


@app.command()
@boundary
def rebuild(repo: RepoOpt = Path("."), as_json: JsonOpt = False) -> None:
    """Drop the local index and replay the whole ledger.

    Example: forest rebuild
    """
    from forest_files.custody.repository import Repository

    with Repository(repo) as r:
        report = r.rebuild()
    emit(as_json, asdict(report), f"index rebuilt: {report.applied} act(s) replayed")
