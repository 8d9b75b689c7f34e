"""``forest`` commands: each parses, calls one function below, renders.

Stores: nothing itself (the repository layer does).
Refuses: nothing itself; ``errors.boundary`` maps every exception to its
exit code and one stderr line.
Returns: exit codes 0/1/2/3/75/130 (see ``errors``).
Test: tests/test_cli.py
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Annotated

import typer

from forest_files.cli.errors import boundary
from forest_files.errors import StoreCorruption
from forest_files.ledger.verify import verify_ledger
from forest_files.repository import Repository

app = typer.Typer(
    name="forest",
    help="Git-backed custody of text that must stay true.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

RepoOpt = Annotated[
    Path,
    typer.Option("--repo", "-C", help="Any path inside the repository (default: here)."),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable output.")]


class LedgerFaults(StoreCorruption):
    """``forest verify`` found faults (exit 3)."""


def _emit(as_json: bool, obj: object, text: str) -> None:
    typer.echo(json.dumps(obj, sort_keys=True) if as_json else text)


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
    with Repository.init(repo, project_id=project_id) as r:
        typer.echo(
            f"initialised forest-files in {r.root} (project {r.config.project_id}); "
            "commit forest.toml, .gitattributes and .forest/"
        )


@app.command()
@boundary
def sync(repo: RepoOpt = Path("."), as_json: JsonOpt = False) -> None:
    """Bring the local index in step with the ledger of the working tree.

    Example: git pull && forest sync
    """
    with Repository(repo) as r:
        report = r.sync()
    how = "rebuilt" if report.rebuilt else "in step"
    _emit(as_json, asdict(report), f"index {how}: {report.applied} act(s) applied")


@app.command()
@boundary
def rebuild(repo: RepoOpt = Path("."), as_json: JsonOpt = False) -> None:
    """Drop the local index and replay the whole ledger.

    Example: forest rebuild
    """
    with Repository(repo) as r:
        report = r.rebuild()
    _emit(as_json, asdict(report), f"index rebuilt: {report.applied} act(s) replayed")


@app.command()
@boundary
def verify(repo: RepoOpt = Path("."), as_json: JsonOpt = False) -> None:
    """Check every ledger file (canonical lines, ids, deps, bodies); exit 3 on any fault.

    Reports ids and hashes only, never body text. Example: forest verify --json
    """
    with Repository(repo) as r:
        report = verify_ledger(r.ledger_dir)
    faults = [asdict(f) for f in report.faults]
    lines = [
        f"{f.code}: segment {f.segment or '-'} line {f.line or '-'}: {f.detail}"
        for f in report.faults
    ]
    summary = f"{report.acts} act(s) in {report.segments} segment(s)"
    obj = {"ok": report.ok, "acts": report.acts, "segments": report.segments, "faults": faults}
    _emit(as_json, obj, "\n".join([*lines, f"ledger {'ok' if report.ok else 'FAULTY'}: {summary}"]))
    if not report.ok:
        raise LedgerFaults(f"ledger has {len(faults)} fault(s); see above, then restore from git")


@app.command()
@boundary
def log(repo: RepoOpt = Path("."), as_json: JsonOpt = False) -> None:
    """The custody acts of the checked-out ledger, by content id (no bodies).

    Example: forest log --json
    """
    with Repository(repo) as r:
        entries = r.log()
    lines = [f"{e.created_at} {e.kind} {e.subject} -> {e.result} by {e.by}" for e in entries]
    _emit(as_json, [asdict(e) for e in entries], "\n".join(lines) or "no custody acts yet")


def main() -> None:
    """Console-script entry point."""
    app()
