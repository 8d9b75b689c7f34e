"""``forest adr list`` and ``forest adr log``: a team's decision records and their
decision history, read from custody, to publish (text, JSON or Markdown).

Stores: nothing.
Refuses: an unknown ``--format`` (usage, exit 2); what governance/adr.py refuses (one line each).
Returns: text, one JSON document, or a Markdown table.
Test: tests/doors/test_cli_adr.py
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from forest_files.doors.cli.errors import boundary
from forest_files.doors.cli.options import JsonOpt, RepoOpt, app

if TYPE_CHECKING:
    from forest_files.custody.repository import Repository

adr_app = typer.Typer(
    help="Architecture decision records under custody: their status and decision log."
    "\n\nExample: forest adr list 'docs/adr/*.md' --format markdown",
    no_args_is_help=True,
)
app.add_typer(adr_app, name="adr")

GlobsArg = Annotated[
    list[str] | None,
    typer.Argument(help="ADR globs (default: the [require] globs that name ADRs)."),
]
FormatOpt = Annotated[
    str, typer.Option("--format", help="text, json or markdown (a table to publish).")
]


def _format(fmt: str, as_json: bool) -> str:
    from forest_files.doors.adr_render import FORMATS
    from forest_files.doors.cli.errors import usage

    if as_json:
        return "json"
    if fmt not in FORMATS:
        raise usage(f"--format {fmt!r}: give one of {', '.join(FORMATS)}")
    return fmt


def _bound_paths(r: Repository) -> Callable[[], list[str]]:
    """The bound paths, read when a refusal's route needs them."""
    from forest_files.custody.bindings import all_bindings

    return lambda: [b.path for b in all_bindings(r.synced())]


@adr_app.command("list")
@boundary
def list_(
    globs: GlobsArg = None,
    fmt: FormatOpt = "text",
    as_json: JsonOpt = False,
    repo: RepoOpt = Path("."),
) -> None:
    """List every ADR: number, title, status, bound or not, ground, adoption, successor.

    Example: forest adr list --format markdown > docs/adr-status.md
    """
    from forest_files.custody.repository import Repository
    from forest_files.doors.adr_render import adr_list
    from forest_files.governance.adr import adr_set, list_adrs

    shown = _format(fmt, as_json)
    with Repository(repo) as r:
        found = list_adrs(r, adr_set(r.config, globs or (), bound=_bound_paths(r), root=r.root))
    typer.echo(adr_list(found, shown))


@adr_app.command("log")
@boundary
def log_(
    globs: GlobsArg = None,
    fmt: FormatOpt = "text",
    as_json: JsonOpt = False,
    repo: RepoOpt = Path("."),
) -> None:
    """Show the decision history of the ADRs from the ledger: adopted, amended, moved, retired.

    Example: forest adr log --format markdown > docs/adr-log.md
    """
    from forest_files.custody.repository import Repository
    from forest_files.doors.adr_render import adr_log
    from forest_files.governance.adr import adr_set
    from forest_files.governance.adr_log import decision_log

    shown = _format(fmt, as_json)
    with Repository(repo) as r:
        found = decision_log(r, adr_set(r.config, globs or (), "log", _bound_paths(r), r.root))
    typer.echo(adr_log(found, shown))
