"""``forest ci``: the CI gate — verify the ledger, check HEAD, judge the range.

Stores: one ``ci`` record per run in the local audit log (doors/doorlog.py:
rule counts and targets, never text). With ``--format github`` and
``$GITHUB_STEP_SUMMARY`` set, a Markdown summary is appended to that file.
Each ``--report FORMAT=FILE`` writes that format of the same run to FILE (so
one run gives a CI its SARIF, JUnit and annotations), whatever the verdict.
Refuses: a base that does not resolve, or a shallow clone without the
merge-base (exit 1, naming ``fetch-depth: 0``); a ``--report`` that is not
``FORMAT=FILE`` with a known format (exit 2, before the gate runs).
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


def _reports(specs: list[str]) -> list[tuple[str, Path]]:
    """``FORMAT=FILE`` pairs, checked before the gate runs (a typo costs no range)."""
    pairs: list[tuple[str, Path]] = []
    known = ", ".join(f.value for f in CiFormat)
    for spec in specs:
        fmt, sep, target = spec.partition("=")
        if not sep or not target or fmt not in CiFormat.__members__:
            raise typer.BadParameter(
                f"{spec!r} is not FORMAT=FILE with FORMAT one of {known} "
                "(e.g. --report sarif=forest.sarif)",
                param_hint="--report",
            )
        pairs.append((fmt, Path(target)))
    return pairs


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
    report_to: Annotated[
        list[str] | None,
        typer.Option(
            "--report",
            metavar="FORMAT=FILE",
            help="Also write this format of the same run to FILE (repeatable).",
        ),
    ] = None,
    repo: RepoOpt = Path("."),
) -> None:
    """The CI gate: verify the ledger, check HEAD, judge each commit of the range
    against the ground rebuilt from its own ledger; exit 1 on findings, 3 on a
    damaged ledger.

    Example: forest ci --base origin/main --format github --report sarif=forest.sarif
    """
    from forest_files.custody.auditlog import mark_recorded
    from forest_files.doors.doorlog import record_gate
    from forest_files.gate.ci import run_gate
    from forest_files.gate.render import render, write_step_summary

    targets = _reports(report_to or [])
    report = run_gate(repo, base)
    record_gate(repo, report)
    for kind, target in targets:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(render(report, kind) + "\n", encoding="utf-8")
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
