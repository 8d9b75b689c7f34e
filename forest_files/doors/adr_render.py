"""``forest adr list`` and ``forest adr log`` as text, JSON and Markdown.

Markdown is a table a team can publish as its decision log: cells on one line,
``|`` escaped, nothing a renderer would read as markup left unescaped at the start.
Text and Markdown show a title's or a status's control characters escaped (an ADR's
own ESC or CSI never reaches a terminal or a published page: kernel/shellword.py
``printable``); JSON keeps them.

Stores: nothing.
Refuses: nothing.
Returns: one string per format (JSON sorted, one document).
Test: tests/doors/test_cli_adr.py, tests/check/test_control_chars.py
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict

from forest_files.governance.adr import Adr
from forest_files.governance.adr_log import Decision
from forest_files.kernel.shellword import printable

FORMATS = ("text", "json", "markdown")


def _short(cid: str | None) -> str:
    return cid[:12] if cid else "-"


def _cell(value: object) -> str:
    text = printable(" ".join(str(value if value is not None else "-").split()))
    return (text or "-").replace("\\", "\\\\").replace("|", "\\|")


def _number(a: Adr) -> str:
    return "-" if a.number is None else f"{a.number:04d}"


def adr_list(adrs: Sequence[Adr], fmt: str) -> str:
    if fmt == "json":
        return json.dumps({"adrs": [asdict(a) for a in adrs]}, sort_keys=True)
    if fmt == "markdown":
        rows = [
            "| ADR | Title | Status | Bound | Ground | Adopted by (claimed) | Adopted | "
            "Superseded by |",
            "|---|---|---|---|---|---|---|---|",
        ]
        rows += [
            "| "
            + " | ".join(
                _cell(x)
                for x in (
                    _number(a),
                    f"{a.title} ({a.path})",
                    a.status,
                    _bound(a),
                    _short(a.ground),
                    a.adopted_by,
                    (a.adopted_at or "")[:10] or None,
                    ", ".join(a.superseded_by) or None,
                )
            )
            + " |"
            for a in adrs
        ]
        return "\n".join(rows)
    if not adrs:
        return "no ADRs found under the ADR globs"
    return "\n".join(_adr_line(a) for a in adrs)


def _bound(a: Adr) -> str:
    """yes (the whole file), N section(s), or no."""
    if a.selector is not None:
        return "yes" if not a.sections else f"yes (+{a.sections} section(s))"
    return f"{a.sections} section(s)" if a.sections else "no"


def _adr_line(a: Adr) -> str:
    head = f"{_number(a)} {a.title or a.path} [{a.status or 'no status'}]"
    if a.selector is not None:
        where = f"bound, ground {_short(a.ground)}"
        if a.adopted_by:
            where += f", adopted by {a.adopted_by} (claimed) at {a.adopted_at}"
    else:
        where = f"{a.sections} section(s) bound, not the whole file" if a.sections else "not bound"
    tail = f"; superseded by {', '.join(a.superseded_by)}" if a.superseded_by else ""
    return f"{printable(head)}\n    {printable(f'{a.path}: {where}{tail}')}"


def adr_log(decisions: Sequence[Decision], fmt: str) -> str:
    if fmt == "json":
        return json.dumps({"decisions": [asdict(d) for d in decisions]}, sort_keys=True)
    if fmt == "markdown":
        rows = ["| Date | ADR | Event | By (claimed) | Words |", "|---|---|---|---|---|"]
        rows += [
            "| "
            + " | ".join(_cell(x) for x in (d.at[:10], _where(d), d.event, d.by, d.words))
            + " |"
            for d in decisions
        ]
        return "\n".join(rows)
    if not decisions:
        return "no custody acts on ADRs yet"
    return "\n".join(_log_line(d) for d in decisions)


def _where(d: Decision) -> str:
    """The ADR a decision is on; a move names both places (its path alone would say
    only one, and a published log could not tell where the ADR went)."""
    return f"{d.path} to {d.moved_to}" if d.moved_to is not None else d.path


def _log_line(d: Decision) -> str:
    ground = f" -> {_short(d.ground)}" if d.ground else ""
    words = " ".join(d.words.split())
    said = f": {words}" if words else ""
    where = f"{d.path} to {d.selector}" if d.moved_to is not None else d.selector or d.path
    return printable(f"{d.at} {d.event} {where}{ground} by {d.by}{said}")
