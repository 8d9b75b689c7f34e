"""A ``GateReport`` as SARIF 2.1.0 (GitHub code scanning's ``upload-sarif``).

One result per finding, the block as one line (check/text.py ``one_line``) with the
ids, hashes and routes as properties; every kind but ``clean`` a rule, in the
README table's order; file names percent-encoded as URI references; a route that
settles several results (a folder HEAD moved whole) in the run's ``folderRoutes``
property, once. One line of
JSON (the C encoder). Never section or body text.

Stores: nothing.
Refuses: nothing.
Returns: strings.
Test: tests/gate/test_ci_gate.py, tests/check/test_findings_schema.py,
tests/gate/test_ci_folder_move.py
"""

from __future__ import annotations

import json
import os
from urllib.parse import quote

from forest_files import __version__
from forest_files.check.findings import Reported
from forest_files.check.kinds import KINDS
from forest_files.check.text import one_line
from forest_files.gate.ci import GateReport
from forest_files.gate.render_parts import TOOL, finding_file, rule_id

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://pypi.org/project/forest-files/"
RULES = [kind for kind in KINDS if kind != "clean"]  # SARIF's rules, in the table's order


def _uri(path: str) -> str:
    """``path`` as the URI reference SARIF's ``artifactLocation.uri`` must be (RFC
    3986): every byte but unreserved ones and ``/`` percent-encoded, so a name holding
    ``%20``, a space, ``#`` or ``?`` is read back as itself (a raw ``%0A`` would be
    decoded as a line feed; a ``#`` would start a fragment). Undecodable bytes of a
    name are encoded as the bytes they are."""
    return quote(os.fsencode(path), safe="/")


def _sarif_result(r: Reported, level: str) -> dict[str, object]:
    f = r.finding
    physical: dict[str, object] = {"artifactLocation": {"uri": _uri(finding_file(r))}}
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
                    # a route settling several results (a folder HEAD moved whole)
                    "folderRoutes": [route.as_dict() for route in report.folder_routes],
                },
            }
        ],
    }
    return json.dumps(doc)  # one line: the C encoder (an indented dump is pure Python)
