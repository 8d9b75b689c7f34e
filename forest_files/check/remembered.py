"""``forest status`` from the remembered clean verdict, judging nothing.

When the working tree's remembered verdict still holds (verdict.py: the ledger
and every bound file's stat are unchanged since a whole check found every binding
clean), every binding is clean and its row comes from the binding map's packed
status rows (bindmap.py). Nothing heavier than ``marshal`` is imported here: this
is the whole of a warm ``forest status``.

Stores: nothing.
Refuses: nothing; any doubt is a miss (None), and the caller judges.
Returns: (path, selector, ground content id) of every binding, or None.
Test: tests/test_fastcheck.py, tests/test_coverage.py
"""

from __future__ import annotations

from forest_files.custody import bindmap, verdict


def remembered_clean(root: str) -> list[tuple[str, str, str]] | None:
    """Every binding's row, all clean, or None when the verdict must be judged
    (the verdict is stale, or a binding has no single ground)."""
    count = verdict.recall(root)
    ledger = verdict.ledger_key(root) if count is not None else None
    if count is None or ledger is None:
        return None
    rows = bindmap.status_rows(bindmap.worktree_record(root), ledger)
    if rows is None or len(rows) != count:
        return None
    return rows
