"""``forest ci``'s one body, and its light parser: the CI gate without typer or pydantic.

The console script (entry.py) answers ``forest ci`` here when every option is
one this parser knows in its plain form; anything else (``--help``, a typo, a
bad ``--report``, an option given twice) goes to the full CLI (cli/ci_cmd.py),
which parses with typer and calls the same ``run_ci``. One gate, one report,
one set of exit codes; the light door only skips typer's start-up (with its
pydantic adapters, about a third of a small repository's run).

Stores: one ``ci`` record per run in the local audit log (doors/doorlog.py);
each ``--report FORMAT=FILE`` written whole or not at all (reportfile.py) whatever the
verdict (a relative FILE from where ``forest`` was typed, never from ``forest -C DIR``'s
DIR); with ``--format github`` and ``$GITHUB_STEP_SUMMARY`` set, a Markdown summary
appended to it whole or not at all (gate/render_github.py); the
gate's refusal written to those files too, as one finding, and printed in a machine
``--format`` (JSON, SARIF, JUnit, GitHub's), before it is raised as it was: a
shallow clone's as ``shallow-clone`` routed to its fetch (gate/shallow.py: the
merge-base cut off, or a base the shallow clone never fetched, GitHub's default
checkout), any other (a base that names no commit, outside git, no ``forest
init``) as ``refused`` (gate/refusal.py).
Refuses: nothing itself: a report file that cannot be written is reportfile.py's
``ReportUnwritten`` (exit 1 whatever the verdict); the gate's refusals go through the
one error boundary.
Returns: ``ci_command``'s exit code: 0 clean, 1 findings, 3 ledger corruption; the
text and JSON reports' commands pasted where ``forest ci`` was typed (``git -C ..``
in a subfolder, as ``forest check``'s), SARIF, JUnit and GitHub's from the top (their
notes too: typed elsewhere than the top, the gate judges the range a second time for
them, ``_at_the_top``).
Test: tests/doors/test_light_ci.py, tests/gate/test_ci_gate.py,
tests/gate/test_ci_where_typed.py, tests/gate/test_ci_shallow_reports.py,
tests/gate/test_ci_refusal_reports.py, tests/doors/test_ci_report_where_typed.py,
tests/doors/test_output_unwritable.py
"""

from __future__ import annotations

import os
import sys

from forest_files.kernel.errors import ForestError, StoreCorruption

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

    from forest_files.gate.ci import GateReport

FORMATS = ("text", "json", "sarif", "junit", "github")


class GateFailed(ForestError):
    """``forest ci`` found something (exit 1)."""


class GateCorrupt(StoreCorruption):
    """``forest ci`` found the ledger damaged or rewritten (exit 3)."""


class CiArgs:
    """``ci``'s options, as the light parser read them."""

    __slots__ = ("base", "fmt", "repo", "reports")

    def __init__(self, base: str | None, fmt: str, reports: list[str], repo: str) -> None:
        self.base = base
        self.fmt = fmt
        self.reports = reports
        self.repo = repo


_SINGLE = {"--base": "base", "--format": "fmt", "--repo": "repo", "-C": "repo"}


def parse_ci(argv: list[str]) -> CiArgs | None:
    """``ci``'s options, or None when anything is not plainly understood (the full
    CLI then answers, with its usage error or help)."""
    values: dict[str, str] = {}
    reports: list[str] = []
    args = iter(argv)
    for arg in args:
        name, eq, inline = arg.partition("=")
        if (name not in _SINGLE and name != "--report") or (eq and name == "-C"):
            return None
        value = inline if eq else next(args, None)
        if not value or value.startswith("-"):
            return None  # a missing or odd value: typer says what it makes of it
        if name == "--report":
            reports.append(value)
            continue
        key = _SINGLE[name]
        if key in values:
            return None  # given twice: the full CLI decides
        values[key] = value
    fmt = values.get("fmt", "text")
    if fmt not in FORMATS or report_targets(reports) is None:
        return None
    return CiArgs(values.get("base"), fmt, reports, values.get("repo", "."))


def report_targets(specs: list[str]) -> list[tuple[str, Path]] | None:
    """``FORMAT=FILE`` pairs (checked before the gate runs: a typo costs no range), or
    None when one is not FORMAT=FILE with a known format. A relative FILE is reached
    from where ``forest`` was typed (kernel/standing.py ``where_typed``), not from the
    ``DIR`` of ``forest -C DIR``: an output file goes where the user stands, as
    ``--repo DIR`` after the command leaves it (the routes printed are pasted there too)."""
    from pathlib import Path

    from forest_files.kernel.standing import where_typed

    here = where_typed()
    pairs: list[tuple[str, Path]] = []
    for spec in specs:
        fmt, sep, target = spec.partition("=")
        if not sep or not target or fmt not in FORMATS:
            return None
        path = Path(target)
        pairs.append((fmt, path if here is None or path.is_absolute() else Path(here) / path))
    return pairs


def run_ci(repo: Path, base: str | None, fmt: str, targets: list[tuple[str, Path]]) -> None:
    """Run the gate, record it, write its reports, print ``fmt``; a finding raises
    GateFailed (exit 1), a damaged ledger GateCorrupt (exit 3)."""
    from forest_files.custody.auditlog import mark_recorded
    from forest_files.doors.doorlog import record_gate
    from forest_files.doors.reportfile import write_reports
    from forest_files.gate.ci import run_gate

    top = _stand(repo)
    try:
        report = run_gate(repo, base, top=top)
    except ForestError as exc:  # its reports say so; the refusal itself stays as it was
        _write_refusal(_refused(repo, base, exc, top), fmt, targets)
        raise
    record_gate(repo, report, top=top)
    again = _at_the_top(repo, base, report, {fmt, *(kind for kind, _ in targets)}, top)
    said = _rendered(again, report, [fmt, *(kind for kind, _ in targets)])
    write_reports(again.get(fmt, report), fmt, targets, said)
    sys.stdout.write(said[fmt] + "\n")
    if report.exit_code:
        from forest_files.doors.streams import routes_where

        n, where = len(report.findings), routes_where(fmt == "json")
        failed: ForestError = (
            GateCorrupt(f"{n} finding(s), the ledger among them{where}")
            if report.exit_code == 3
            else GateFailed(f"{n} finding(s){where}")
        )
        mark_recorded(failed)  # the run's record above says it all
        raise failed


def _rendered(top: dict[str, GateReport], report: GateReport, kinds: list[str]) -> dict[str, str]:
    """Each format of ``kinds`` rendered once, however many of stdout and the
    ``--report`` files take it (a JSON report of 10,000 bindings is 5.7 MB to build)."""
    from forest_files.gate.render import render

    return {kind: render(top.get(kind, report), kind) for kind in dict.fromkeys(kinds)}


def _refused(repo: Path, base: str | None, exc: ForestError, top: Path | None) -> GateReport:
    """The gate's refusal as a report of one finding: a shallow clone's routed to its
    fetch (gate/shallow.py), any other a ``refused`` one (gate/refusal.py). ``top``: the
    work tree's, as ``_stand`` asked git for it (not asked again)."""
    from forest_files.gate.refusal import refusal_report
    from forest_files.gate.shallow import shallow_report, unfetched_report
    from forest_files.gitio import ShallowClone, UnknownRef

    found = None
    if isinstance(exc, ShallowClone):
        found = shallow_report(repo, base, exc, top=top)
    elif isinstance(exc, UnknownRef):  # a base a shallow clone never fetched?
        found = unfetched_report(repo, base, top=top)
    return found or refusal_report(repo, base, exc, top=top)


def _write_refusal(report: GateReport, fmt: str, targets: list[tuple[str, Path]]) -> None:
    """A refusal as each report's one finding; its route's step is spelled at render
    time, so one report serves every format. A machine format prints it on stdout
    too: ``--format sarif > FILE`` would otherwise leave an empty file the upload
    rejects, and ``--format github`` no annotation. Text prints nothing more: the
    ``forest:`` line says it."""
    from forest_files.doors.reportfile import write_reports

    printed = [fmt] if fmt != "text" else []
    said = _rendered({}, report, [*printed, *(kind for kind, _ in targets)])
    write_reports(report, fmt, targets, said)
    if printed:
        sys.stdout.write(said[fmt] + "\n")


def _at_the_top(
    repo: Path, base: str | None, report: GateReport, kinds: set[str], top: Path | None
) -> dict[str, GateReport]:
    """The report each of ``kinds`` read at the top of a checkout renders (SARIF, JUnit,
    GitHub's). Its routes' steps are spelled at render time, but the commands inside
    their notes and in the findings' fixes (a rewrite's amend and force push, a
    re-sign) are text the gate wrote where the user stands: typed in a subfolder or
    with ``-C``, the gate judges the range again with the steps noted at the top
    (``top``: the work tree's, as ``_stand`` asked git for it)."""
    from forest_files.gate.ci import run_gate
    from forest_files.gate.render import WHERE_TYPED
    from forest_files.kernel.standing import from_the_top, reach

    at_top = kinds - WHERE_TYPED
    if not at_top:
        return {}
    if reach():
        with from_the_top():
            report = run_gate(repo, base, top=top)
    return dict.fromkeys(at_top, report)


def _stand(repo: Path) -> Path | None:
    """Note where the user stands in the work tree at ``repo`` (kernel/shellword.py
    ``stand_at``): the text and JSON reports' commands are pasted there, as ``forest
    check``'s. Returns the work tree's top (git asked once: the gate and its record
    take it), or None outside git: nothing noted (the gate refuses it in its own words)."""
    from forest_files.gitio import toplevel
    from forest_files.kernel.standing import stand_at

    try:
        top = toplevel(repo)
    except ForestError:
        stand_at(None)
        return None
    stand_at(top, absolute=os.path.isabs(repo))  # --repo /abs: routes say /abs
    return top


def ci_command(args: CiArgs) -> int:
    """``forest ci`` on the light door, inside the one error boundary."""
    from pathlib import Path

    from forest_files.doors.boundary import run_guarded

    targets = report_targets(args.reports) or []
    repo = Path(args.repo)

    def run() -> int:
        run_ci(repo, args.base, args.fmt, targets)
        return 0

    return run_guarded("ci", run, sys.argv, repo=repo)


__all__ = [
    "FORMATS",
    "CiArgs",
    "GateCorrupt",
    "GateFailed",
    "ci_command",
    "parse_ci",
    "report_targets",
    "run_ci",
]
