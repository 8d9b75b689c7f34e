"""The CI gate's refusal of a shallow clone, as a report every format renders.

A shallow clone lacks history the gate judges (the merge-base, or which commit
brought each act and its signature), so the gate stops with ``ShallowClone``
and judges nothing. Its ``--report`` files are still written, each holding that
refusal as one ``shallow-clone`` finding (exit 1, as the refusal itself), so a CI
job that uploads them shows why nothing was judged. Its route is the fetch that
deepens the clone, spelled at render time like every route's step (where ``forest
ci`` was typed for text and JSON, from the top for the CI formats); the detail is
the refusal without its own copy of that fetch.

Stores: nothing.
Refuses: nothing (``None`` when HEAD itself does not resolve: no report then).
Returns: ``GateReport`` with the one finding, no range judged.
Test: tests/gate/test_ci_shallow_reports.py
"""

from __future__ import annotations

from pathlib import Path

from forest_files import gitio
from forest_files.check.finding import Finding
from forest_files.check.findings import CheckReport, Reported, Route
from forest_files.gate.ci import GateReport
from forest_files.kernel.errors import ForestError
from forest_files.kernel.shellword import git_step

KIND = "shallow-clone"


def shallow_report(
    root: Path | str, base: str | None, exc: gitio.ShallowClone
) -> GateReport | None:
    """``exc`` (the gate's refusal of a shallow clone at ``root``) as a report."""
    try:
        head = gitio.resolve_commit(gitio.toplevel(root), "HEAD")
    except ForestError:
        return None
    detail = str(exc).removesuffix(f"; {gitio.full_history()}")
    found = Finding(KIND, "", "", "", None, None, detail=detail)  # of no file
    fetch = Route(
        "fetch the full history",
        (git_step("fetch", "--unshallow"),),
        "GitHub Actions: actions/checkout with `fetch-depth: 0`; then run forest ci again",
    )
    check = CheckReport(head, f"commit {head[:12]}", (), (Reported(found, (fetch,)),))
    return GateReport(head, base, None, (), (), check)
