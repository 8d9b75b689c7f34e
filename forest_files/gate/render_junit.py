"""A ``GateReport`` as a JUnit XML report (test-report viewers: GitLab, Jenkins).

One testcase per binding live at HEAD (its failures in it), one per finding of no
binding, named apart when several share a file and kind; each failure carries the
block as one line (check/text.py ``one_line``) and its routes; a route that settles
several failures (a folder HEAD moved whole) is the suite's ``system-out``. Names escaped as
XML may hold them (``shown``). Never section or body text.

Stores: nothing.
Refuses: nothing.
Returns: strings.
Test: tests/gate/test_ci_gate.py, tests/gate/test_ci_folder_move.py
"""

from __future__ import annotations

from collections import Counter
from xml.etree import ElementTree as ET

from forest_files.check.findings import Reported
from forest_files.check.text import one_line
from forest_files.gate.ci import GateReport
from forest_files.gate.render_parts import TOOL, finding_file, location, rule_id, shown

_LOOSE = frozenset({"ledger-fault", "ledger-rewritten", "ledger-deleted", "authority"})


def _failure(case: ET.Element, r: Reported) -> None:
    kind = rule_id(r.finding.kind)
    node = ET.SubElement(case, "failure", {"type": kind, "message": one_line(r)})
    detail = [f"finding: {kind}", f"where: {location(r)}", f"fingerprint: {r.fingerprint}"]
    if r.commit or r.introduced:
        detail.insert(1, f"commit: {r.commit or r.introduced}")
    if r.finding.ground:
        detail.append(f"ground: {r.finding.ground}")
    detail.extend(f"{route.label}: {route.command or route.note}" for route in r.routes)
    node.text = "\n".join(detail)


def render_junit(report: GateReport) -> str:
    """One testcase per binding live at HEAD (its failures in it), one per finding of
    no binding (the ledger's, an act's, a contest or a path of no binding)."""
    cases: dict[str, tuple[str, str, list[Reported]]] = {
        r.binding: (r.path, r.selector, []) for r in report.check.items
    }
    loose: list[Reported] = []
    for r in report.findings:  # a warning fails no testcase
        if r.kind in _LOOSE or not r.binding:
            loose.append(r)
        elif r.binding in cases:
            cases[r.binding][2].append(r)
        else:  # a binding no longer live at HEAD (retired since)
            cases[r.binding] = (r.path, r.selector, [r])
    suite = ET.Element("testsuite", {"name": TOOL})
    for path, selector, found in cases.values():
        names = {"classname": shown(path), "name": shown(selector)}
        case = ET.SubElement(suite, "testcase", names)
        for r in found:
            _failure(case, r)
    for r, name in zip(loose, _loose_names(loose), strict=True):
        case = ET.SubElement(suite, "testcase", {"classname": shown(finding_file(r)), "name": name})
        _failure(case, r)
    total = len(suite)
    failed = sum(1 for case in suite if len(case))
    if report.folder_routes:  # one route for several testcases' failures: said once
        said = ET.SubElement(suite, "system-out")
        said.text = "\n".join(shown(route.line()) for route in report.folder_routes)
    suite.set("tests", str(total))
    suite.set("failures", str(failed))
    suite.set("errors", "0")
    root = ET.Element("testsuites", {"name": TOOL, "tests": str(total), "failures": str(failed)})
    root.append(suite)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode")


def _loose_names(loose: list[Reported]) -> list[str]:
    """Each finding of no binding's testcase name, unique by class and name: a
    test-report viewer files a case under that key (GitLab shows one of the cases
    named alike), so findings of one kind at one file (a segment's faults, two
    commits' forest.toml changes) are told apart by their lines, then their commit,
    then a count."""

    def lines(r: Reported) -> str:
        start, end = r.finding.start_line, r.finding.end_line or r.finding.start_line
        return "" if not start else f" line {start}" if end == start else f" lines {start}-{end}"

    def commit(r: Reported) -> str:
        at = r.commit or r.introduced
        return f" at commit {at[:12]}" if at else ""

    names = [
        f"authority act {r.finding.act}"
        if r.finding.act and r.kind == "authority"
        else shown(f"{r.kind} {r.selector or r.path}".strip())
        for r in loose
    ]
    for told in (lines, commit, None):
        keys = [(finding_file(r), name) for r, name in zip(loose, names, strict=True)]
        seen, many = Counter[tuple[str, str]](), Counter(keys)
        for i, (r, key) in enumerate(zip(loose, keys, strict=True)):
            seen[key] += 1
            if many[key] > 1:
                names[i] += told(r) if told else f" [{seen[key]}]"
    return names
