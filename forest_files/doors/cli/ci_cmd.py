"""``forest ci``: the CI gate — verify the ledger, check HEAD, judge the range.

Stores: one ``ci`` record per run in the local audit log (doors/doorlog.py:
rule counts and targets, never text). With ``--format github`` and
``$GITHUB_STEP_SUMMARY`` set, a Markdown summary is appended to that file.
Refuses: a base that does not resolve, or a shallow clone without the
merge-base (exit 1, naming ``fetch-depth: 0``).
Returns: the report on stdout in the chosen format (never body text); exit 0
clean, 1 findings, 3 ledger corruption (verify faults, ledger files rewritten
or deleted since the merge-base).
Test: tests/gate/test_ci_gate.py
"""

from __future__ import annotations

import os
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from forest_files.doors.cli.errors import boundary
from forest_files.doors.cli.options import RepoOpt, app
from forest_files.kernel.errors import ForestError, StoreCorruption


class CiFormat(StrEnum):
    text = "text"
    json = "json"
    sarif = "sarif"
    junit = "junit"
    github = "github"


class GateFailed(ForestError):
    """``forest ci`` found something (exit 1)."""


class GateCorrupt(StoreCorruption):
    """``forest ci`` found the ledger damaged or rewritten (exit 3)."""


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
    repo: RepoOpt = Path("."),
) -> None:
    """The CI gate: verify the ledger, check HEAD, judge each commit of the range
    against the ground rebuilt from its own ledger; exit 1 on findings, 3 on a
    damaged ledger.

    Example: forest ci --base origin/main --format sarif > forest.sarif
    """
    from forest_files.custody.auditlog import mark_recorded
    from forest_files.doors.doorlog import record_gate
    from forest_files.gate.ci import run_gate
    from forest_files.gate.render import render, write_step_summary

    report = run_gate(repo, base)
    record_gate(repo, report)
    typer.echo(render(report, fmt.value))
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if fmt is CiFormat.github and summary:
        write_step_summary(report, Path(summary))
    failed: ForestError | None = None
    if report.exit_code == 3:
        failed = GateCorrupt(f"{len(report.findings)} finding(s), the ledger among them; see above")
    elif report.exit_code:
        failed = GateFailed(f"{len(report.findings)} finding(s); see above")
    if failed is not None:
        mark_recorded(failed)  # the run's record above says it all
        raise failed
