"""``forest ci``: the CI gate — verify the ledger, check HEAD, judge the range.

Stores: one ``ci`` record per run in the local audit log (doors/doorlog.py:
rule counts and targets, never text). With ``--format github`` and
``$GITHUB_STEP_SUMMARY`` set, a Markdown summary is appended to that file.
Each ``--report FORMAT=FILE`` writes that format of the same run to FILE (so
one run gives a CI its SARIF, JUnit and annotations), whatever the verdict; a relative
FILE from where ``forest`` was typed (doors/gatecmd.py ``report_targets``).
Refuses: a base that does not resolve, or a shallow clone without the
merge-base (exit 1, naming ``fetch-depth: 0``); a ``--report`` that is not
``FORMAT=FILE`` with a known format (exit 2, before the gate runs).
Returns: the report on stdout in the chosen format (never body text); exit 0
clean, 1 findings, 3 ledger corruption (verify faults, ledger files rewritten
or deleted since the merge-base).
Test: tests/gate/test_ci_gate.py, tests/doors/test_light_ci.py

The body is doors/gatecmd.py ``run_ci``, which the light entry calls too.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from forest_files.doors.cli.errors import boundary
from forest_files.doors.cli.options import RepoOpt, app
from forest_files.doors.gatecmd import FORMATS, GateCorrupt, GateFailed, report_targets, run_ci


class CiFormat(StrEnum):
    text = "text"
    json = "json"
    sarif = "sarif"
    junit = "junit"
    github = "github"


def _reports(specs: list[str]) -> list[tuple[str, Path]]:
    """``FORMAT=FILE`` pairs, checked before the gate runs (a typo costs no range)."""
    for spec in specs:
        if report_targets([spec]) is None:
            raise typer.BadParameter(
                f"{spec!r} is not FORMAT=FILE with FORMAT one of {', '.join(FORMATS)} "
                "(e.g. --report sarif=forest.sarif)",
                param_hint="--report",
            )
    return report_targets(specs) or []


@app.command("ci")
@boundary
def ci(
    base: Annotated[
        str | None,
        typer.Option(
            "--base",
            metavar="REF",
            help="Judge every commit of merge-base(REF, HEAD)..HEAD too (e.g. origin/main).",
        ),
    ] = None,
    fmt: Annotated[
        CiFormat, typer.Option("--format", help="text, json, sarif, junit or github.")
    ] = CiFormat.text,
    report_to: Annotated[
        list[str] | None,
        typer.Option(
            "--report",
            metavar="FORMAT=FILE",
            help=(
                "Also write this format of the same run to FILE (repeatable; a relative "
                "FILE from where you typed forest, even after forest -C DIR)."
            ),
        ),
    ] = None,
    repo: RepoOpt = Path("."),
) -> None:
    """The CI gate: verify the ledger, check HEAD, judge each commit of the range
    against the ground rebuilt from its own ledger; exit 1 on findings, 3 on a
    damaged ledger.

    Example: forest ci --base origin/main --format github --report sarif=forest.sarif
    """
    run_ci(repo, base, fmt.value, _reports(report_to or []))


__all__ = ["CiFormat", "GateCorrupt", "GateFailed", "ci"]
