"""One ``GateReport`` rendered five ways: text, json, sarif, junit, github.

Every format renders the one finding model ``forest check`` renders
(check/findings.py): a kind, a location, the ground's content id (what ``forest
show`` takes; a section hash is ``section_hash``), routes as data. Text is
``forest check``'s block per finding; JSON is the schema every door prints
(docs/findings.schema.json); both live here, with ``render``, which picks a
format. SARIF (render_sarif.py), JUnit (render_junit.py) and GitHub's annotations
and step summary (render_github.py) carry the block as one line (check/text.py
``one_line``); what they share is render_parts.py. Text and JSON print commands
pasted where ``forest ci`` was typed, as ``forest check``'s (``git -C ..`` in a
subfolder); SARIF, JUnit and GitHub print them from the top, where a checkout's
reports are read. Never section or body text, nor adopting words (CI logs are
often public).

Stores: nothing.
Refuses: an unknown format (ValueError).
Returns: strings.
Test: tests/gate/test_ci_gate.py, tests/check/test_findings_schema.py,
tests/gate/test_ci_where_typed.py, tests/gate/test_ci_folder_move.py
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

from forest_files.check.commit_route import nested
from forest_files.check.findings import Reported, Route
from forest_files.check.text import block, enclosing, warning_block
from forest_files.gate.ci import GateReport
from forest_files.gate.render_github import render_github
from forest_files.gate.render_junit import render_junit
from forest_files.gate.render_parts import summary_line
from forest_files.gate.render_sarif import render_sarif
from forest_files.kernel.shellword import printable
from forest_files.kernel.standing import from_the_top

FORMATS = ("text", "json", "sarif", "junit", "github")
# The formats ``forest check`` prints too: their commands are pasted where ``forest ci``
# was typed (as check's); SARIF, JUnit and GitHub are read at the top of a checkout.
WHERE_TYPED = frozenset({"text", "json"})


def render_text(report: GateReport) -> str:
    """``forest check``'s block for each finding (no adopting words; an edit inside
    nested bindings and a chapter moved with its subsections once, as check shows
    them), the routes that settle several of them (a folder HEAD moved whole), then
    the summary."""
    lines: list[str] = []
    shown: set[str] = set()
    for group in _by_commit(report.findings):
        for r, outer in nested(group):  # as forest check shows them (check/text.py)
            lines.extend(block(_once(r, shown), words=False))
            lines.extend(enclosing(outer))
    lines.extend(printable(route.line()) for route in report.folder_routes)
    for r in report.warnings:
        lines.extend(warning_block(r, words=False))
    lines.append(summary_line(report))
    return "\n".join(lines)


def _by_commit(findings: Sequence[Reported]) -> list[list[Reported]]:
    """``findings`` in runs of one commit each (HEAD's, then each commit of the range):
    an edit inside nested bindings, or a chapter moved with its subsections, is one
    block within one commit's findings, never across two."""
    runs: list[list[Reported]] = []
    for r in findings:
        if runs and runs[-1][0].commit == r.commit:
            runs[-1].append(r)
        else:
            runs.append([r])
    return runs


def _once(r: Reported, shown: set[str]) -> Reported:
    """``r`` with each route a finding above already printed whole said as that: one
    rebase of the branch settles several findings, and text printed it under each
    (four times for a folder of four files moved in an earlier commit). The machine
    formats keep every finding's routes whole."""
    routes = []
    for route in r.routes:
        said = route.line()
        if route.steps and said in shown:
            route = Route(route.label, note="the same as for the finding above")
        shown.add(said)
        routes.append(route)
    return r._replace(routes=tuple(routes))


def render_json(report: GateReport) -> str:
    """The schema every door prints (docs/findings.schema.json), with ``range``, on
    one line like ``check --json``: an indented dump runs Python's pure encoder, a
    second and a half for 10,000 bindings (pipe it through ``python -m json.tool``)."""
    return json.dumps(report.as_dict(), sort_keys=True)


_RENDERERS: dict[str, Callable[[GateReport], str]] = {
    "text": render_text,
    "json": render_json,
    "sarif": render_sarif,
    "junit": render_junit,
    "github": render_github,
}


def render(report: GateReport, fmt: str) -> str:
    """``report`` in ``fmt``: text and JSON with commands pasted where the command was
    typed (kernel/standing.py ``from_here``), the CI formats with them from the top."""
    try:
        renderer = _RENDERERS[fmt]
    except KeyError:
        raise ValueError(f"unknown format {fmt!r}; one of {', '.join(FORMATS)}") from None
    if fmt in WHERE_TYPED:
        return renderer(report)
    with from_the_top():
        return renderer(report)
