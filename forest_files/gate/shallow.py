"""The CI gate's refusal of a shallow clone, as a report every format renders.

A shallow clone lacks history the gate judges (the merge-base, or which commit
brought each act and its signature), so the gate stops with ``ShallowClone``
and judges nothing. Its ``--report`` files are still written, each holding that
refusal as one ``shallow-clone`` finding (exit 1, as the refusal itself), so a CI
job that uploads them shows why nothing was judged. Its route is the fetch that
deepens the clone, spelled at render time like every route's step (where ``forest
ci`` was typed for text and JSON, from the top for the CI formats); the detail is
the refusal without its own copy of that fetch, nor the path of the work tree it
leads with: a report (SARIF, JSON, a JUnit file, an annotation) is of the checkout at
its top, where its file names are read, and a CI runner's absolute path
(``/home/runner/work/...``) says nothing there. The one ``forest:`` line keeps it.

A shallow clone whose base does not resolve stops the gate earlier (``UnknownRef``):
GitHub's default checkout (``fetch-depth: 1``) never fetches the pull request's
base branch. That stop is the same finding, its detail the refusal's reason, its
route the fetch the refusal prints (gitio ``fetch_route``: the base branch with
``--unshallow``, or full history). A clone that is not shallow is no such case:
nothing is cut off there, the base is simply not a revision it holds (its report is
gate/refusal.py's plain ``refused``, with no fetch to offer).

Stores: nothing.
Refuses: nothing (``unfetched_report`` is None for a base that does not resolve when
the clone is not shallow or the base does resolve).
Returns: ``GateReport`` with the one finding, no range judged.
Test: tests/gate/test_ci_shallow_reports.py
"""

from __future__ import annotations

from pathlib import Path

from forest_files import gitio
from forest_files.check.findings import Route
from forest_files.gate.ci import GateReport
from forest_files.gate.refusal import one_finding
from forest_files.kernel.errors import ForestError
from forest_files.kernel.shellword import git_step

KIND = "shallow-clone"


def shallow_report(
    root: Path | str, base: str | None, exc: gitio.ShallowClone, *, top: Path | None = None
) -> GateReport:
    """``exc`` (the gate's refusal of a shallow clone at ``root``) as a report (``top``:
    the work tree's, when the caller asked git for it already)."""
    detail = str(exc).removesuffix(f"; {gitio.full_history()}")
    step = git_step("fetch", "--unshallow")
    fetch = Route(
        "fetch the full history", (step,), _again("actions/checkout with `fetch-depth: 0`")
    )
    return _report(root, base, detail, fetch, top)


def unfetched_report(
    root: Path | str, base: str | None, *, top: Path | None = None
) -> GateReport | None:
    """The gate's stop (``UnknownRef``) at a ``base`` this shallow clone lacks, as a
    report routed to the fetch the refusal prints; None when the stop is no such
    thing (judged again here: the refusal's text is not parsed). ``top``: the work
    tree's, when the caller asked git for it already."""
    if base is None:
        return None
    try:
        top = gitio.toplevel(root) if top is None else top
        if not gitio.is_shallow(top) or _resolves(top, base):
            return None
        route = gitio.fetch_route(top, base)  # a shallow clone always has one
    except ForestError:
        return None
    if route is None:
        return None
    detail = f"revision {base!r} does not name a commit; {route.why}"
    what = (
        "fetch the base branch and the full history" if route.branch else "fetch the full history"
    )
    return _report(root, base, detail, Route(what, (route.step,), _again(route.actions)), top)


def _again(actions: str) -> str:
    return f"GitHub Actions: {actions}; then run forest ci again"


def _resolves(top: Path, rev: str) -> bool:
    try:
        gitio.resolve_commit(top, rev)
    except gitio.UnknownRef:
        return False
    return True


def _report(
    root: Path | str, base: str | None, detail: str, fetch: Route, top: Path | None
) -> GateReport:
    """One ``shallow-clone`` finding of no file, with its one route (gate/refusal.py)."""
    return one_finding(root, base, KIND, detail, (fetch,), top=top)
