"""A refusal of the CI gate as a report every format renders: one finding, nothing judged.

``forest ci`` refused (a base that names no commit, a directory outside git, no
``forest.toml`` at HEAD, …) judges nothing, and said so only in its one ``forest:``
line: ``forest ci --format sarif > forest.sarif`` left an empty file GitHub's
upload-sarif rejects. Its ``--report`` files and a machine ``--format``'s stdout now
hold the refusal as one finding of no file: a shallow clone's as ``shallow-clone``,
routed to its fetch (gate/shallow.py), any other as ``refused``, its detail the
refusal's reason and fix (no route of its own: the reason names it). The detail
leaves out the work-tree path the refusal leads with: a report is read at the top
of the checkout, where a CI runner's ``/home/runner/work/...`` says nothing. The
report's exit code is the refusal's (a busy store's 75, a damaged one's 3).

Stores: nothing.
Refuses: nothing.
Returns: ``GateReport`` with the one finding, no range judged, its summary in every
format the gate's line ("forest ci: 0 binding(s); nothing judged at HEAD …; 1
finding(s)"); outside git, or before HEAD's first commit, its head is ``""``.
Test: tests/gate/test_ci_refusal_reports.py, tests/gate/test_ci_shallow_reports.py
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from forest_files import gitio
from forest_files.check.finding import Finding
from forest_files.check.findings import CheckReport, Reported, Route
from forest_files.gate.ci import GateReport
from forest_files.gate.render_parts import summary_line
from forest_files.kernel.errors import ForestError
from forest_files.kernel.exits import exit_code

KIND = "refused"


def refusal_report(
    root: Path | str, base: str | None, exc: ForestError, *, top: Path | None = None
) -> GateReport:
    """``exc`` (the gate's refusal at ``root``) as a ``refused`` report (``top``: the
    work tree's, when the caller asked git for it already)."""
    return one_finding(root, base, KIND, str(exc), (), exit_code(exc), top=top)


def one_finding(
    root: Path | str,
    base: str | None,
    kind: str,
    detail: str,
    routes: tuple[Route, ...],
    code: int = 1,
    *,
    top: Path | None = None,
) -> GateReport:
    """One ``kind`` finding of no file with ``routes``: nothing judged, exit ``code``;
    ``detail`` without the refusal's leading path (the work tree's, or ``root`` as
    typed when it is in none). ``top``: the work tree's top holding ``root``, when the
    caller asked git for it already (None: asked here; outside git, none)."""
    head = ""
    try:
        top = gitio.toplevel(root) if top is None else top
        head = gitio.resolve_commit(top, "HEAD")
    except ForestError:
        pass  # outside git, or no commit yet: a report of no HEAD
    for lead in (top, root):
        if lead is not None:
            detail = detail.removeprefix(f"{lead}: ")
    found = Finding(kind, "", "", "", None, None, detail=detail)  # of no file
    where = f"commit {head[:12]}" if head else "nothing judged"
    check = CheckReport(head, where, (), (Reported(found, routes),))
    report = GateReport(head, base, None, (), (), check, refused_with=code)
    # every format's summary the gate's one line: "N binding(s) checked against …"
    # said "0 … checked against the nothing judged" where nothing was checked
    said = check._replace(judged_nothing=summary_line(report))
    return dataclasses.replace(report, check=said)
