"""A bound section renamed onto a heading (or symbol) another live binding holds: the
section its selector no longer finds stands under that name now, in the other
binding's place, and that binding reads as ``drifted`` there.

Stores: nothing.
Refuses: nothing (a ground or a file that cannot be read: no such place).
Returns: ``bound_there`` (the findings, each ``unresolved`` heading or symbol with no
place to move to and no other reason given ``Reason("bound-there")`` when a sibling
under its old parent is bound by a drifted binding whose text there shares more lines
with this section's ground than with its own: that section's selector, first line and
bind act; the likeliest of them when there are several), and that drifted finding
``Reason("renamed-onto")`` naming this one. route_unresolved.py routes the first: that
binding ended if it is to go, then this one rebound there; ``hint`` says it, and
``renamed_hint`` says beside the second's routes whose text it holds.
Test: tests/check/test_bound_there.py

A binding's section merely deleted beside a sibling edited in its own words gets
nothing: the sibling's text reads as its own ground. Only a check with such a pair
reads anything (a ground body each, one read of the file).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from forest_files.check.finding import Reason, replaced
from forest_files.kernel.errors import ForestError

if TYPE_CHECKING:
    import sqlite3

    from forest_files.check.engine import Finding
    from forest_files.text.extract import Document
    from forest_files.text.selector import Selector


def bound_there(
    findings: Sequence[Finding],
    conn: sqlite3.Connection | None,
    read: Callable[[str], bytes | None],
    documents: Mapping[str, tuple[str, Document]],
) -> list[Finding]:
    """``findings`` with each unresolved section renamed onto a bound sibling said so."""
    drifted = [f for f in findings if f.kind == "drifted"]
    asking = [f for f in findings if _asks(f) and any(d.path == f.path for d in drifted)]
    if conn is None or not asking:
        return list(findings)
    from forest_files.check.renames import SectionTexts, ground_body, shared_lines

    said: dict[int, Finding] = {}
    for f in asking:
        mine, sel = ground_body(conn, f.ground), _parsed(f.selector)
        if mine is None or sel is None:
            continue
        parsed = documents.get(f.path)
        texts = SectionTexts(read, f.path, parsed[1] if parsed else None)
        best: tuple[float, Finding] | None = None
        for d in drifted:
            there, now = _parsed(d.selector), texts.get(d.selector)
            if there is None or now is None or not _siblings(sel, there):
                continue
            score, own = shared_lines(mine, now), ground_body(conn, d.ground)
            if own is not None and score <= shared_lines(own, now):
                continue  # it reads as its own ground: edited there, not renamed onto
            if best is None or score > best[0]:
                best = (score, d)
        if best is not None:
            d = best[1]
            why = Reason("bound-there", d.selector, d.start_line or 0, binding=d.binding)
            said[id(f)] = replaced(f, reason=why)
            if d.reason is None and id(d) not in said:  # its "adopt the change" would
                # make the renamed section's text its own ground: said beside the route
                said[id(d)] = replaced(d, reason=Reason("renamed-onto", f.selector, 0))
    return [said.get(id(f), f) for f in findings]


def hint(there: Reason) -> str:
    """What the finding says of the section standing where it stood (routes.py)."""
    return (
        f"the section that stands where it stood, {there.what} (line {there.line}), is "
        f"bound by another binding ({there.binding[:12]}), whose text there reads as this "
        "section's ground, not its own: renamed there, it seems"
    )


def renamed_hint(onto: Reason) -> str:
    """What the drifted finding of the binding a section was renamed onto says."""
    return (
        f"its text here reads as the ground of {onto.what}, which no longer stands where it "
        f"stood: renamed here, it seems; adopting this change would make that text this "
        f"binding's ground (see the finding of {onto.what})"
    )


def _asks(f: Finding) -> bool:
    return f.kind == "unresolved" and not f.candidates and f.reason is None and bool(f.ground)


def _parsed(selector: str) -> Selector | None:
    from forest_files.text.selector import parse_selector

    try:
        sel = parse_selector(selector)
    except ForestError:
        return None
    return sel if sel.kind in ("heading", "symbol") else None


def _siblings(gone: Selector, there: Selector) -> bool:
    """Two sections of one file, of one kind, under one parent."""
    return (gone.path, gone.kind, gone.parts[:-1]) == (there.path, there.kind, there.parts[:-1])
