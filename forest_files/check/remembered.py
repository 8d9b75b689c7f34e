"""``forest status`` from the remembered clean verdict, judging nothing.

When the working tree's remembered verdict still holds (verdict.py: the ledger
and every bound file's stat are unchanged since a whole check found every binding
clean), every binding is clean and its row comes from the binding map's packed
status rows (bindmap.py). Nothing heavier than ``marshal`` is imported here: this
is the whole of a warm ``forest status``.

Stores: nothing.
Refuses: nothing; any doubt is a miss (None), and the caller judges.
Returns: (path, selector, ground content id) of every binding, or None;
``remembered_report``: the same verdict as a ``CheckReport`` of clean findings
(``forest status --json``: the finding model, and every binding's id).
Test: tests/doors/test_fastcheck.py, tests/check/test_coverage.py
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from forest_files.check.findings import CheckReport


def remembered_clean(root: str) -> list[tuple[str, str, str]] | None:
    """Every binding's row, all clean, or None when the verdict must be judged
    (the verdict is stale, a binding has no single ground, or git's index tracks
    local state: localstate.py)."""
    from forest_files.check.opening import remembered_rows  # the one way into custody

    return remembered_rows(root)


def remembered_report(root: str) -> CheckReport | None:
    """The remembered clean verdict as clean findings of every binding, or None."""
    if remembered_clean(root) is None:
        return None
    from forest_files.check.engine import Finding
    from forest_files.check.findings import CheckReport, Reported
    from forest_files.check.opening import MAP, open_custody

    with open_custody(root, "worktree") as custody:
        if custody.via != MAP:  # the ledger moved meanwhile: judge
            return None
        items = []
        for b in custody.bindings:
            ground = custody.grounds.get(b.entry_id)
            if ground is None or ground[0] is None:
                return None
            clean = Finding("clean", b.path, b.selector, b.bind_act, ground[0], ground[1])
            items.append(Reported(clean))
    return CheckReport("worktree", "working tree", tuple(items))
