"""The staged ledger's contests, said by the pre-commit hook of any commit.

A commit that stages no ledger file has HEAD's ledger staged; a contest HEAD holds
(two live heads of one ground, a binding merged branches each rebound: contests.py)
got there past the pre-merge-commit hook (a merge made with ``--no-verify``, or
pulled fast-forward). ``forest check --staged`` reports it on every later commit;
the hook, which judges only the staged paths' bindings, now says it too, with the
same finding and routes, until one act settles it.

Before this machine built the staged ledger's view (the first commits after a clone,
or after a pull the hooks did not see, which leaves the working tree's index stale),
the segments the hook decodes anyway say whether a contest is possible at all
(custody/path_scan.py): if so the view is built and asked, else nothing more is read.

A refused commit opens the view once: the contests are asked on the connection a
finding's words come from (staged.py), or that finds them and explains them here;
and its sealed view's record says a contest may be there, so opening_views.py does
not ask it again first.

Stores: nothing.
Refuses: nothing.
Returns: ``contested``: the contests no finding names; ``with_contests``: a report
with them, explained.
Test: tests/doors/test_hook_contest_later.py, tests/doors/test_hook_contest_clone.py,
tests/check/test_staged_contest_opens.py
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import sqlite3

    from forest_files.check.engine import Finding
    from forest_files.check.findings import CheckReport
    from forest_files.check.opened import Custody


def contested(
    custody: Custody, findings: list[Finding], conn: sqlite3.Connection | None = None
) -> list[Finding]:
    """The contests no finding names: one query on the staged ledger's view (on
    ``conn`` when the caller opened it already: ``custody.reader()``); none asked of a
    ledger its decoded segments or its sealed view said holds none
    (``custody.contest_free``: check/opening_views.py ``BoundPaths``). A ledger that
    may hold one has its view built before this is asked (check/opening_git.py,
    custody/path_scan.py ``forked``)."""
    view = custody.view
    if custody.contest_free or view is None or not view.exists():
        return []  # contest-free: said once for this ledger (opening_views.py), not asked
    from forest_files.check import contests

    if conn is None:
        return contests.of_view(view, findings)
    import sqlite3

    try:
        return contests.of_store(conn, findings)
    except sqlite3.Error:
        return []  # as of_view: an index that cannot say holds none


def with_contests(
    root: Path, custody: Custody, findings: list[Finding], report: CheckReport
) -> CheckReport:
    """``report`` (of ``findings``) with ``contested``, explained with who adopted each
    head of a contest on the connection that found them (the view opened once);
    nothing more read when there is none."""
    view = custody.view
    if custody.contest_free or view is None or not view.exists():
        return report
    from forest_files.check.contests import open_view

    conn = open_view(view)
    if conn is None:
        return report
    try:
        more = contested(custody, findings, conn)
        if not more:
            return report
        from forest_files.check.explain import explain

        return report.with_extra(explain(more, root=root, source="index", conn=conn))
    finally:
        conn.close()
