"""What every rendering of a ``GateReport`` shares: a finding's rule id, file and
location, names shown safely, and the run's one summary line.

Stores: nothing.
Refuses: nothing.
Returns: strings.
Test: tests/gate/test_ci_gate.py
"""

from __future__ import annotations

from forest_files.check.findings import Reported
from forest_files.gate.ci import GateReport
from forest_files.kernel.paths import LEDGER_DIR
from forest_files.kernel.shellword import printable

TOOL = "forest-files"


def rule_id(kind: str) -> str:
    return f"forest/{kind}"


def finding_file(r: Reported) -> str:
    """Where a finding lies: its path, or the ledger for one bound to no file; a moved
    section's where its text stands now (its old path may be gone at HEAD, and an
    annotation on a file the commit does not hold is dropped)."""
    f = r.finding
    if f.kind == "moved" and f.moved_to:
        from forest_files.text.selector import parse_selector

        return parse_selector(f.moved_to).path
    return f.path or LEDGER_DIR


def location(r: Reported) -> str:
    """Where a finding lies, as a line of a report shows it (escaped: ``shown``)."""
    f = r.finding
    lines = ""
    if f.start_line:
        lines = f":{f.start_line}" + (f"-{f.end_line}" if f.end_line else "")
    return shown(f"{finding_file(r)}{lines}")


def shown(name: str) -> str:
    """A name (a finding carries the exact one) as XML, a workflow command or a
    Markdown cell may hold it: control characters escaped (kernel ``printable``),
    as ``forest check`` shows them. JSON and SARIF carry it exact."""
    return printable(name)


def summary_line(report: GateReport) -> str:
    if report.merge_base:
        span = (
            f"range {report.merge_base[:12]}..{report.head[:12]}: {len(report.commits)} "
            f"commit(s), {len(report.judged)} judged"
        )
    elif report.refused_with is not None:  # refused before the range (gate/refusal.py)
        span = "nothing judged" + (f" at HEAD {report.head[:12]}" if report.head else "")
        if report.base is not None:
            span += f" (--base {printable(report.base)})"
    else:
        span = f"HEAD {report.head[:12]} only (no --base)"
    verdict = "clean" if report.ok else f"{len(report.findings)} finding(s)"
    if report.warnings:
        verdict += f", {len(report.warnings)} warning(s)"
    return f"forest ci: {len(report.check.items)} binding(s); {span}; {verdict}"
