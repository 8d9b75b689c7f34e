"""A ``GateReport`` for GitHub Actions: workflow-command annotations and the step summary.

Each finding an ``::error``/``::warning`` annotation (escaped as GitHub's workflow
commands require; one of no file, a refusal's, names none), a ``::notice`` for each
route that settles several findings (a folder HEAD moved whole), a ``::notice``
counting what GitHub leaves unannotated past its 10 per level, then the summary
line; ``step_summary`` those routes, then a Markdown table of every finding, names
and messages in code spans, within GitHub's 1 MiB.

Stores: nothing (``write_step_summary`` appends to the file it is given, within
GitHub's 1 MiB for a step's summary: rows past it are counted, not written; whole
or not at all: a failed append is cut back off).
Refuses: nothing.
Returns: strings.
Test: tests/gate/test_ci_gate.py, tests/gate/test_ci_folder_move.py,
tests/gate/test_ci_refusal_reports.py
"""

from __future__ import annotations

import os
from contextlib import suppress
from pathlib import Path

from forest_files.check.findings import Reported
from forest_files.check.text import one_line
from forest_files.gate.ci import GateReport
from forest_files.gate.render_parts import finding_file, location, rule_id, shown, summary_line
from forest_files.kernel.standing import from_the_top
from forest_files.text.codespan import code_span


def _level(r: Reported, report: GateReport) -> str:
    return "warning" if any(r is w for w in report.warnings) else "error"


def _all(report: GateReport) -> list[Reported]:
    """Every finding of the run, failures first, then warnings."""
    return [*report.findings, *report.warnings]


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
        # a finding of no file (a refusal, a shallow clone, a contest bound to none) is
        # the run's: GitHub takes an annotation without file=, and .forest/ledger, a
        # folder, may not even exist (no forest init, outside git)
        props = [f"file={escape_property(shown(finding_file(r)))}"] if f.path else []
        if f.path and f.start_line:
            props.append(f"line={f.start_line}")
            props.append(f"endLine={f.end_line or f.start_line}")
        props.append(f"title={escape_property(rule_id(f.kind))}")
        levels.append(_level(r, report))
        lines.append(f"::{levels[-1]} {','.join(props)}::{escape_data(one_line(r))}")
    for route in report.folder_routes:  # one for several findings: said once, of no file
        lines.append(f"::notice title=forest::{escape_data(shown(route.line()))}")
    lines += _unannotated(levels)
    lines.append(summary_line(report))
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
    is, never as a link, an image or HTML (text/codespan.py: the fence no backquote
    inside closes)."""
    return code_span(_cell(text))


# GitHub refuses a step's summary file over 1 MiB and then shows none of it
SUMMARY_LIMIT = 1024 * 1024
_LEFT_OUT_ROOM = 256  # bytes kept for the line that counts the rows left out


def step_summary(report: GateReport, budget: int = SUMMARY_LIMIT) -> str:
    """A Markdown table of every finding, for ``$GITHUB_STEP_SUMMARY``: names and
    messages in code spans (``_code``). Rows that would take it past ``budget`` bytes
    are left out, and counted in a last line. A route that settles several findings
    (a folder HEAD moved whole) comes first, as a line of its own."""
    out = [f"### {_code(summary_line(report))}", ""]
    out += [f"{_code(shown(route.line()))}\n" for route in report.folder_routes]
    found = _all(report)
    if found:
        out += ["| finding | where | commit | message |", "|---|---|---|---|"]
        size = len("\n".join(out).encode("utf-8")) + 1
        for n, r in enumerate(found):
            at = r.commit or r.introduced
            commit = f"`{at[:12]}`" if at else "HEAD"
            kind, where = rule_id(r.finding.kind), _code(location(r))
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
    the limit, whole or not at all: GitHub's contract is to append, so a write that
    fails (a full disk, ``ulimit -f``) cuts the file back to the earlier steps' text,
    never leaving half a table that reads as the whole verdict."""
    try:
        used = path.stat().st_size
    except OSError:
        used = 0
    with from_the_top():
        data = step_summary(report, SUMMARY_LIMIT - used).encode("utf-8")
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
    try:
        before = os.fstat(fd).st_size
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(fd, view) :]
        except OSError:
            with suppress(OSError):  # not a regular file (/dev/full): nothing to cut
                os.ftruncate(fd, before)
            raise
    finally:
        os.close(fd)
