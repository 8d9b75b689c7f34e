"""A drift's restore route when the restore would remove another bound section.

A restore writes ground over the lines a section holds now (custody/restore.py); when
another bound section stands in those lines and ground lacks it (a heading demoted
into the section, a bound subsection added under it, a function or region moved into
it), ``forest restore`` refuses (custody/restore_nested.py). The route printed for
that drift says so: it names the section the restore removes and where it stands,
and carries ``--drop-nested`` (the removed text kept in the capture), with the other
way out, moving that section back out first, as its note; pasted, it works.

Stores: nothing. Refuses: nothing.
Returns: the findings' routes, a drift's restore route replaced where its restore, as
the working tree stands, would remove another bound section of the file (asked only
for a drift whose lines hold another binding's section, or a place the check says an
unfound one may stand now, and when ``conn`` can give its ground text: one read of
the file and its restore worked out in memory); every other route as it was.
Test: tests/check/test_routes_nested_restore.py
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from forest_files.check.findings import Route
from forest_files.check.route_steps import forest
from forest_files.custody.restore_nested import DROP_NESTED, Bound, removes
from forest_files.kernel.errors import ForestError

if TYPE_CHECKING:
    import sqlite3

    from forest_files.check.engine import Finding


def removing(
    f: Finding, findings: Sequence[Finding], root: Path, conn: sqlite3.Connection | None
) -> list[tuple[str, int]]:
    """(selector, line) of each other bound section of ``f``'s file that restoring
    ``f`` in the working tree would remove; none when that cannot be worked out."""
    if f.kind != "drifted" or f.start_line is None or f.end_line is None or conn is None:
        return []
    lines = range(f.start_line + 1, f.end_line + 1)  # below the section's first line
    others = [
        Bound(o.selector, o.excludes)
        for o in findings
        if o.path == f.path and o.binding and o.selector != f.selector and _within(o, lines)
    ]
    if not others:  # no other bound section stands in its lines: nothing parsed again
        return []
    ground = _ground(conn, f.ground)
    if ground is None:
        return []
    from forest_files.custody.restore_rewrite import plan_rewrite

    try:
        plan = plan_rewrite(root, f.path, f.selector, f.excludes, ground)
    except ForestError:  # the restore refuses for its own reason: it says so itself
        return []
    if plan is None or plan.before is None or not isinstance(plan.replaced, str):
        return []
    return removes(plan.before.decode("utf-8"), plan.after.decode("utf-8"), others, f.path)


def _within(o: Finding, lines: range) -> bool:
    """Whether ``o``'s section stands in ``lines`` now: where its selector finds it, or,
    not found, where the check says it may stand (its candidates' lines)."""
    if o.start_line is not None and o.end_line is not None:
        return o.start_line in lines and o.end_line <= lines.stop - 1
    return any(n in lines for n in o.candidate_lines)


def restore_route(f: Finding, route: Route, removed: Sequence[tuple[str, int]]) -> Route:
    """``route`` (``forest restore``, then what stages it) with ``--drop-nested``, its
    label naming what the restore removes, its note the way that keeps it."""
    sel, line = removed[0]
    more = f" and {len(removed) - 1} more" if len(removed) > 1 else ""
    steps = (forest("restore", f.selector, options=(DROP_NESTED,)), *route.steps[1:])
    note = (
        f"or first move {sel} back out of {f.selector} (as it stood when adopted), then "
        "restore without --drop-nested"
    )
    return Route(
        f"restore ground, removing {sel} (bound, line {line} now{more}; its text kept "
        "in the capture)",
        steps,
        f"{route.note}; {note}" if route.note else note,
    )


def _ground(conn: sqlite3.Connection, content_id: str | None) -> str | None:
    """The ground's text, by its content id (None: not in this store)."""
    from forest_files.store import queries

    if content_id is None:
        return None
    row = conn.execute(queries.ID_FOR_CONTENT, (content_id,)).fetchone()
    if row is None:
        return None
    cur = conn.execute(queries.GET_ENTRY, (row[0],))
    entry = cur.fetchone()
    names = [d[0] for d in cur.description]  # a reader's rows may be plain tuples
    return None if entry is None else str(entry[names.index("body")])
