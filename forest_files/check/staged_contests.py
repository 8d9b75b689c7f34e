"""The staged ledger's contests, said by the pre-commit hook of any commit.

A commit that stages no ledger file has HEAD's ledger staged; a contest HEAD holds
(two live heads of one ground, a binding merged branches each rebound: contests.py)
got there past the pre-merge-commit hook (a merge made with ``--no-verify``, or
pulled fast-forward). ``forest check --staged`` reports it on every later commit;
the hook, which judges only the staged paths' bindings, now says it too, with the
same finding and routes, until one act settles it.

Stores: nothing (contests.py's worktree record when it reads the working tree's index).
Refuses: nothing.
Returns: ``contested``: the contests no finding names; ``with_contests``: a report
with them, explained.
Test: tests/doors/test_hook_contest_later.py
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from forest_files.check.engine import Finding
    from forest_files.check.findings import CheckReport
    from forest_files.check.opened import Custody


def contested(root: Path, custody: Custody, findings: list[Finding]) -> list[Finding]:
    """The contests no finding names: one query on the staged ledger's view; before
    this machine built one (the first commit after a clone or a pull: no replay for
    it), on the working tree's index, which the post-merge and post-checkout hooks
    keep in step with the ledger checked out (HEAD's, the one staged here)."""
    from forest_files.check import contests

    view = custody.view
    if view is not None and view.exists():
        return contests.of_view(view, findings)
    return contests.of_worktree(str(root), None, 0, findings)


def with_contests(
    root: Path, custody: Custody, findings: list[Finding], report: CheckReport
) -> CheckReport:
    """``report`` (of ``findings``) with ``contested``, explained with who adopted each
    head of a contest; nothing more read when there is none."""
    more = contested(root, custody, findings)
    if not more:
        return report
    from forest_files.check.explain import explain

    conn = custody.reader()
    try:
        return report.with_extra(explain(more, root=root, source="index", conn=conn))
    finally:
        if conn is not None:
            conn.close()
