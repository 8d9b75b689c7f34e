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

Stores: nothing.
Refuses: nothing.
Returns: ``contested``: the contests no finding names; ``with_contests``: a report
with them, explained.
Test: tests/doors/test_hook_contest_later.py, tests/doors/test_hook_contest_clone.py
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from forest_files.check.engine import Finding
    from forest_files.check.findings import CheckReport
    from forest_files.check.opened import Custody


def contested(custody: Custody, findings: list[Finding]) -> list[Finding]:
    """The contests no finding names: one query on the staged ledger's view; none
    asked of a ledger its decoded segments or its sealed view said holds none
    (``custody.contest_free``: check/opening_views.py ``BoundPaths``). A ledger that
    may hold one has its view built before this is asked (check/opening_git.py,
    custody/path_scan.py ``forked``)."""
    view = custody.view
    if custody.contest_free or view is None or not view.exists():
        return []  # contest-free: said once for this ledger (opening_views.py), not asked
    from forest_files.check import contests

    return contests.of_view(view, findings)


def with_contests(
    root: Path, custody: Custody, findings: list[Finding], report: CheckReport
) -> CheckReport:
    """``report`` (of ``findings``) with ``contested``, explained with who adopted each
    head of a contest; nothing more read when there is none."""
    more = contested(custody, findings)
    if not more:
        return report
    from forest_files.check.explain import explain

    conn = custody.reader()
    try:
        return report.with_extra(explain(more, root=root, source="index", conn=conn))
    finally:
        if conn is not None:
            conn.close()
