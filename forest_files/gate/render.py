"""One ``GateReport`` rendered five ways: text, json, sarif, junit, github.

Every format carries rule ids, paths, selectors, line ranges, hashes and
commit ids — never section or body text (CI logs are often public); the
messages come from ``gate`` and are body-free by construction.

Stores: nothing (``write_step_summary`` appends to the file it is given).
Refuses: an unknown format (ValueError).
Returns: strings.
Test: tests/test_ci_gate.py
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from xml.etree import ElementTree as ET

from forest_files.gate.ci import RULES, GateFinding, GateReport

FORMATS = ("text", "json", "sarif", "junit", "github")
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://pypi.org/project/forest-files/"
TOOL = "forest-files"


def rule_id(rule: str) -> str:
    return f"forest/{rule}"


def _where(f: GateFinding) -> str:
    lines = ""
    if f.start_line:
        lines = f":{f.start_line}" + (f"-{f.end_line}" if f.end_line else "")
    return f"{f.path}{lines}"


def _summary(report: GateReport) -> str:
    span = (
        f"range {report.merge_base[:12]}..{report.head[:12]}: {len(report.commits)} commit(s), "
        f"{len(report.judged)} judged"
        if report.merge_base
        else f"HEAD {report.head[:12]} only (no --base)"
    )
    warned = len(report.findings) - len(report.failures)
    verdict = "clean" if report.ok else f"{len(report.failures)} finding(s)"
    if warned:
        verdict += f", {warned} warning(s)"
    return f"forest ci: {len(report.bindings)} binding(s); {span}; {verdict}"


def render_text(report: GateReport) -> str:
    lines = []
    for f in report.findings:
        at = f" [commit {f.commit[:12]}]" if f.commit else ""
        level = "warning: " if f.level != "error" else ""
        lines.append(f"{level}{rule_id(f.rule)} {_where(f)}{at}: {f.message}")
    lines.append(_summary(report))
    return "\n".join(lines)


def render_json(report: GateReport) -> str:
    obj = {
        "ok": report.ok,
        "exit_code": report.exit_code,
        "head": report.head,
        "base": report.base,
        "merge_base": report.merge_base,
        "commits": list(report.commits),
        "judged": list(report.judged),
        # Three strings each, built directly: ``asdict`` deep-copies every field, and a
        # report lists every binding (10,000 of them took a third of a second).
        "bindings": [
            {"binding": b.binding, "path": b.path, "selector": b.selector} for b in report.bindings
        ],
        "findings": [asdict(f) for f in report.findings],
    }
    return json.dumps(obj, indent=2, sort_keys=True)


def _sarif_result(f: GateFinding) -> dict[str, object]:
    physical: dict[str, object] = {"artifactLocation": {"uri": f.path}}
    if f.start_line:
        physical["region"] = {"startLine": f.start_line, "endLine": f.end_line or f.start_line}
    result: dict[str, object] = {
        "ruleId": rule_id(f.rule),
        "ruleIndex": list(RULES).index(f.rule),
        "level": f.level,
        "message": {"text": f.message},
        "locations": [{"physicalLocation": physical}],
        "partialFingerprints": {"forestFinding/v1": f.fingerprint},
    }
    props: dict[str, object] = {"selector": f.selector}
    if f.binding:
        props["binding"] = f.binding
    if f.commit or f.introduced:
        props["commit"] = f.commit or f.introduced  # the commit that brought it
    result["properties"] = props
    return result


def render_sarif(report: GateReport) -> str:
    rules = [
        {
            "id": rule_id(name),
            "name": name,
            "shortDescription": {"text": text},
            "fullDescription": {"text": text},
            "defaultConfiguration": {"level": "error"},
        }
        for name, text in RULES.items()
    ]
    doc = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {"name": TOOL, "informationUri": INFORMATION_URI, "rules": rules}
                },
                "results": [_sarif_result(f) for f in report.findings],
                "properties": {
                    "head": report.head,
                    "mergeBase": report.merge_base,
                    "commitsJudged": len(report.judged),
                },
            }
        ],
    }
    return json.dumps(doc, indent=2)


def _failure(case: ET.Element, f: GateFinding) -> None:
    node = ET.SubElement(case, "failure", {"type": rule_id(f.rule), "message": f.message})
    detail = [f"rule: {rule_id(f.rule)}", f"where: {_where(f)}", f"fingerprint: {f.fingerprint}"]
    if f.commit or f.introduced:
        detail.insert(1, f"commit: {f.commit or f.introduced}")
    node.text = "\n".join(detail)


def render_junit(report: GateReport) -> str:
    cases: dict[str, tuple[str, str, list[GateFinding]]] = {
        b.binding: (b.path, b.selector, []) for b in report.bindings
    }
    loose: list[GateFinding] = []
    for f in report.failures:  # a warning fails no testcase
        if f.rule in ("ledger-fault", "ledger-rewritten", "ledger-deleted", "authority"):
            loose.append(f)
        elif f.binding in cases:
            cases[f.binding][2].append(f)
        else:  # a binding no longer live at HEAD (retired since)
            cases[f.binding] = (f.path, f.selector, [f])
    suite = ET.Element("testsuite", {"name": TOOL})
    for path, selector, found in cases.values():
        case = ET.SubElement(suite, "testcase", {"classname": path, "name": selector})
        for f in found:
            _failure(case, f)
    for f in loose:
        name = f"{f.rule} {f.selector or f.binding or f.path}".strip()
        if f.binding and f.rule == "authority":
            name = f"authority act {f.binding}"
        case = ET.SubElement(suite, "testcase", {"classname": f.path, "name": name})
        _failure(case, f)
    total = len(suite)
    failed = sum(1 for case in suite if len(case))
    suite.set("tests", str(total))
    suite.set("failures", str(failed))
    suite.set("errors", "0")
    root = ET.Element("testsuites", {"name": TOOL, "tests": str(total), "failures": str(failed)})
    root.append(suite)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode")


def escape_data(text: str) -> str:
    """A workflow command's message: ``%``, CR and LF escaped (GitHub's rules)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A workflow command's property value: also ``:`` and ``,``."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render_github(report: GateReport) -> str:
    lines = []
    for f in report.findings:
        props = [f"file={escape_property(f.path)}"]
        if f.start_line:
            props.append(f"line={f.start_line}")
            props.append(f"endLine={f.end_line or f.start_line}")
        props.append(f"title={escape_property(rule_id(f.rule))}")
        lines.append(f"::{f.level} {','.join(props)}::{escape_data(f.message)}")
    lines.append(_summary(report))
    return "\n".join(lines)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\r", " ").replace("\n", " ")


def step_summary(report: GateReport) -> str:
    """A Markdown table of every finding, for ``$GITHUB_STEP_SUMMARY``."""
    out = [f"### {_cell(_summary(report))}", ""]
    if report.findings:
        out += ["| rule | where | commit | message |", "|---|---|---|---|"]
        for f in report.findings:
            commit = f"`{f.commit[:12]}`" if f.commit else "HEAD"
            out.append(
                f"| `{rule_id(f.rule)}` | `{_cell(_where(f))}` | {commit} | {_cell(f.message)} |"
            )
    return "\n".join(out) + "\n"


def write_step_summary(report: GateReport, path: Path) -> None:
    with path.open("a", encoding="utf-8") as fh:
        fh.write(step_summary(report))


_RENDERERS: dict[str, Callable[[GateReport], str]] = {
    "text": render_text,
    "json": render_json,
    "sarif": render_sarif,
    "junit": render_junit,
    "github": render_github,
}


def render(report: GateReport, fmt: str) -> str:
    try:
        return _RENDERERS[fmt](report)
    except KeyError:
        raise ValueError(f"unknown format {fmt!r}; one of {', '.join(FORMATS)}") from None
