"""One ``GateReport`` rendered five ways: text, json, sarif, junit, github.

Every format renders the one finding model ``forest check`` renders
(check/findings.py): a kind, a location, the ground's content id (what ``forest
show`` takes; a section hash is ``section_hash``), routes as data. Text is
``forest check``'s block per finding; JSON is the schema every door prints
(docs/findings.schema.json); SARIF, JUnit and GitHub carry the block as one line
(check/text.py ``one_line``), SARIF the routes and ids as properties too. Text
and JSON print commands pasted where ``forest ci`` was typed, as ``forest check``'s
(``git -C ..`` in a subfolder); SARIF, JUnit and GitHub print them from the top,
where a checkout's reports are read. Never
section or body text, nor adopting words (CI logs are often public).

Stores: nothing (``write_step_summary`` appends to the file it is given, within
GitHub's 1 MiB for a step's summary: rows past it are counted, not written).
Refuses: an unknown format (ValueError).
Returns: strings.
Test: tests/gate/test_ci_gate.py, tests/check/test_findings_schema.py,
tests/gate/test_ci_where_typed.py
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote
from xml.etree import ElementTree as ET

from forest_files import __version__
from forest_files.check.findings import Reported
from forest_files.check.kinds import KINDS
from forest_files.check.text import block, one_line, warning_block
from forest_files.gate.ci import GateReport
from forest_files.kernel.paths import LEDGER_DIR
from forest_files.kernel.shellword import from_the_top, printable

FORMATS = ("text", "json", "sarif", "junit", "github")
# The formats ``forest check`` prints too: their commands are pasted where ``forest ci``
# was typed (as check's); SARIF, JUnit and GitHub are read at the top of a checkout.
WHERE_TYPED = frozenset({"text", "json"})
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://pypi.org/project/forest-files/"
TOOL = "forest-files"
RULES = [kind for kind in KINDS if kind != "clean"]  # SARIF's rules, in the table's order
_LOOSE = frozenset({"ledger-fault", "ledger-rewritten", "ledger-deleted", "authority"})


def rule_id(kind: str) -> str:
    return f"forest/{kind}"


def _file(r: Reported) -> str:
    """Where a finding lies: its path, or the ledger for one bound to no file; a moved
    section's where its text stands now (its old path may be gone at HEAD, and an
    annotation on a file the commit does not hold is dropped)."""
    f = r.finding
    if f.kind == "moved" and f.moved_to:
        from forest_files.text.selector import parse_selector

        return parse_selector(f.moved_to).path
    return f.path or LEDGER_DIR


def _uri(path: str) -> str:
    """``path`` as the URI reference SARIF's ``artifactLocation.uri`` must be (RFC
    3986): every byte but unreserved ones and ``/`` percent-encoded, so a name holding
    ``%20``, a space, ``#`` or ``?`` is read back as itself (a raw ``%0A`` would be
    decoded as a line feed; a ``#`` would start a fragment). Undecodable bytes of a
    name are encoded as the bytes they are."""
    return quote(os.fsencode(path), safe="/")


def _where(r: Reported) -> str:
    """Where a finding lies, as a line of a report shows it (escaped: ``_shown``)."""
    f = r.finding
    lines = ""
    if f.start_line:
        lines = f":{f.start_line}" + (f"-{f.end_line}" if f.end_line else "")
    return _shown(f"{_file(r)}{lines}")


def _shown(name: str) -> str:
    """A name (a finding carries the exact one) as XML, a workflow command or a
    Markdown cell may hold it: control characters escaped (kernel ``printable``),
    as ``forest check`` shows them. JSON and SARIF carry it exact."""
    return printable(name)


def _level(r: Reported, report: GateReport) -> str:
    return "warning" if any(r is w for w in report.warnings) else "error"


def _all(report: GateReport) -> list[Reported]:
    """Every finding of the run, failures first, then warnings."""
    return [*report.findings, *report.warnings]


def _summary(report: GateReport) -> str:
    if report.merge_base:
        span = (
            f"range {report.merge_base[:12]}..{report.head[:12]}: {len(report.commits)} "
            f"commit(s), {len(report.judged)} judged"
        )
    elif report.base is not None:  # refused before the range was found (gate/shallow.py)
        span = f"nothing judged at HEAD {report.head[:12]} (--base {printable(report.base)})"
    else:
        span = f"HEAD {report.head[:12]} only (no --base)"
    verdict = "clean" if report.ok else f"{len(report.findings)} finding(s)"
    if report.warnings:
        verdict += f", {len(report.warnings)} warning(s)"
    return f"forest ci: {len(report.check.items)} binding(s); {span}; {verdict}"


def render_text(report: GateReport) -> str:
    """``forest check``'s block for each finding (no adopting words), then the summary."""
    lines: list[str] = []
    for r in report.findings:
        lines.extend(block(r, words=False))
    for r in report.warnings:
        lines.extend(warning_block(r, words=False))
    lines.append(_summary(report))
    return "\n".join(lines)


def render_json(report: GateReport) -> str:
    """The schema every door prints (docs/findings.schema.json), with ``range``, on
    one line like ``check --json``: an indented dump runs Python's pure encoder, a
    second and a half for 10,000 bindings (pipe it through ``python -m json.tool``)."""
    return json.dumps(report.as_dict(), sort_keys=True)


def _sarif_result(r: Reported, level: str) -> dict[str, object]:
    f = r.finding
    physical: dict[str, object] = {"artifactLocation": {"uri": _uri(_file(r))}}
    if f.start_line:
        physical["region"] = {"startLine": f.start_line, "endLine": f.end_line or f.start_line}
    props: dict[str, object] = {"kind": f.kind, "selector": f.selector}
    for key, value in (("binding", f.binding), ("ground", f.ground), ("act", f.act)):
        if value:
            props[key] = value
    if f.actual_hash:
        props["section_hash"] = f.actual_hash
    if r.commit or r.introduced:
        props["commit"] = r.commit or r.introduced  # the commit that brought it
    if f.candidates:
        props["candidates"] = list(f.candidates)
    props["routes"] = [route.as_dict() for route in r.routes]
    return {
        "ruleId": rule_id(f.kind),
        "ruleIndex": RULES.index(f.kind),
        "level": level,
        "message": {"text": one_line(r)},
        "locations": [{"physicalLocation": physical}],
        "partialFingerprints": {"forestFinding/v1": r.fingerprint},
        "properties": props,
    }


def render_sarif(report: GateReport) -> str:
    rules = [
        {
            "id": rule_id(kind),
            "name": kind,
            "shortDescription": {"text": KINDS[kind][0]},
            "fullDescription": {"text": f"{KINDS[kind][0]}; way out: {KINDS[kind][2]}"},
            "defaultConfiguration": {"level": "error"},
        }
        for kind in RULES
    ]
    results = [_sarif_result(r, "error") for r in report.findings]
    results += [_sarif_result(r, "warning") for r in report.warnings]
    doc = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": TOOL,
                        "version": __version__,
                        "semanticVersion": __version__,
                        "informationUri": INFORMATION_URI,
                        "rules": rules,
                    }
                },
                "results": results,
                "properties": {
                    "head": report.head,
                    "mergeBase": report.merge_base,
                    "commitsJudged": len(report.judged),
                },
            }
        ],
    }
    return json.dumps(doc)  # one line: the C encoder (an indented dump is pure Python)


def _failure(case: ET.Element, r: Reported) -> None:
    kind = rule_id(r.finding.kind)
    node = ET.SubElement(case, "failure", {"type": kind, "message": one_line(r)})
    detail = [f"finding: {kind}", f"where: {_where(r)}", f"fingerprint: {r.fingerprint}"]
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
        names = {"classname": _shown(path), "name": _shown(selector)}
        case = ET.SubElement(suite, "testcase", names)
        for r in found:
            _failure(case, r)
    for r, name in zip(loose, _loose_names(loose), strict=True):
        case = ET.SubElement(suite, "testcase", {"classname": _shown(_file(r)), "name": name})
        _failure(case, r)
    total = len(suite)
    failed = sum(1 for case in suite if len(case))
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
        else _shown(f"{r.kind} {r.selector or r.path}".strip())
        for r in loose
    ]
    for told in (lines, commit, None):
        keys = [(_file(r), name) for r, name in zip(loose, names, strict=True)]
        seen, many = Counter[tuple[str, str]](), Counter(keys)
        for i, (r, key) in enumerate(zip(loose, keys, strict=True)):
            seen[key] += 1
            if many[key] > 1:
                names[i] += told(r) if told else f" [{seen[key]}]"
    return names


def escape_data(text: str) -> str:
    """A workflow command's message: ``%``, CR and LF escaped (GitHub's rules)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A workflow command's property value: also ``:`` and ``,``."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


# GitHub shows the first 10 error and the first 10 warning annotations of a step
ANNOTATIONS_PER_STEP = 10


def render_github(report: GateReport) -> str:
    lines, levels = [], []
    for r in _all(report):
        f = r.finding
        props = [f"file={escape_property(_shown(_file(r)))}"]
        if f.start_line:
            props.append(f"line={f.start_line}")
            props.append(f"endLine={f.end_line or f.start_line}")
        props.append(f"title={escape_property(rule_id(f.kind))}")
        levels.append(_level(r, report))
        lines.append(f"::{levels[-1]} {','.join(props)}::{escape_data(one_line(r))}")
    lines += _unannotated(levels)
    lines.append(_summary(report))
    return "\n".join(lines)


def _unannotated(levels: list[str]) -> list[str]:
    """A notice per level with more findings than GitHub annotates in a step, which
    drops the rest without a word: they are still in the log and the summary."""
    notes = []
    for level in ("error", "warning"):
        more = levels.count(level) - ANNOTATIONS_PER_STEP
        if more > 0:
            said = (
                f"{more} more {level}(s) than the {ANNOTATIONS_PER_STEP} GitHub annotates in "
                "a step: every finding is in this step's log and its summary"
            )
            notes.append(f"::notice title=forest::{escape_data(said)}")
    return notes


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\r", " ").replace("\n", " ")


def _code(text: str) -> str:
    """``text`` as one table cell's code span, whatever it holds: a file name or a
    message built from one (a pull request's own names) renders as the characters it
    is, never as a link, an image or HTML. The fence is one backtick longer than any
    run inside, and padded (CommonMark strips one space each side)."""
    fence = "`" * (max((len(run) for run in re.findall("`+", text)), default=0) + 1)
    return f"{fence} {_cell(text)} {fence}"


# GitHub refuses a step's summary file over 1 MiB and then shows none of it
SUMMARY_LIMIT = 1024 * 1024
_LEFT_OUT_ROOM = 256  # bytes kept for the line that counts the rows left out


def step_summary(report: GateReport, budget: int = SUMMARY_LIMIT) -> str:
    """A Markdown table of every finding, for ``$GITHUB_STEP_SUMMARY``: names and
    messages in code spans (``_code``). Rows that would take it past ``budget`` bytes
    are left out, and counted in a last line."""
    out = [f"### {_code(_summary(report))}", ""]
    found = _all(report)
    if found:
        out += ["| finding | where | commit | message |", "|---|---|---|---|"]
        size = len("\n".join(out).encode("utf-8")) + 1
        for n, r in enumerate(found):
            at = r.commit or r.introduced
            commit = f"`{at[:12]}`" if at else "HEAD"
            kind, where = rule_id(r.finding.kind), _code(_where(r))
            row = f"| `{kind}` | {where} | {commit} | {_code(one_line(r))} |"
            size += len(row.encode("utf-8")) + 1
            if size + _LEFT_OUT_ROOM > budget:
                out += [
                    "",
                    f"{len(found) - n} more finding(s) left out (a step summary holds "
                    "1 MiB): the job log and `forest ci --report json=FILE` hold them all",
                ]
                break
            out.append(row)
    return "\n".join(out) + "\n"


def write_step_summary(report: GateReport, path: Path) -> None:
    """Append ``step_summary`` within what the file (earlier steps' text) leaves of
    the limit."""
    try:
        used = path.stat().st_size
    except OSError:
        used = 0
    with path.open("a", encoding="utf-8") as fh, from_the_top():
        fh.write(step_summary(report, SUMMARY_LIMIT - used))


_RENDERERS: dict[str, Callable[[GateReport], str]] = {
    "text": render_text,
    "json": render_json,
    "sarif": render_sarif,
    "junit": render_junit,
    "github": render_github,
}


def render(report: GateReport, fmt: str) -> str:
    """``report`` in ``fmt``: text and JSON with commands pasted where the command was
    typed (kernel/shellword.py ``from_here``), the CI formats with them from the top."""
    try:
        renderer = _RENDERERS[fmt]
    except KeyError:
        raise ValueError(f"unknown format {fmt!r}; one of {', '.join(FORMATS)}") from None
    if fmt in WHERE_TYPED:
        return renderer(report)
    with from_the_top():
        return renderer(report)
