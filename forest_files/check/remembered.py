"""``forest status`` from the remembered clean verdict, judging nothing.

When the working tree's remembered verdict still holds (verdict.py: the ledger
and every bound file's stat are unchanged since a whole check found every binding
clean), every binding is clean and its row comes from the binding map's packed
status rows (bindmap.py). Nothing heavier than ``marshal`` is imported here: this
is the whole of a warm ``forest status``.

Stores: nothing.
Refuses: nothing; any doubt is a miss (None), and the caller judges.
Returns: the selector and the ground content id of every binding (two columns), or None;
``remembered_findings``: the same verdict as every binding's clean finding in the
JSON schema (``forest status --json``: the finding model, and every binding's id).
Test: tests/doors/test_fastcheck.py, tests/check/test_coverage.py, tests/doors/test_doors_cost.py
"""

from __future__ import annotations


def remembered_clean(root: str) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """Every binding's selector and ground (two columns), all clean, or None when
    the verdict must be judged (the verdict is stale, a binding has no single
    ground, or git's index tracks local state: localstate.py)."""
    from forest_files.check.opening import remembered_rows  # the one way into custody

    return remembered_rows(root)


def remembered_findings(root: str) -> list[dict[str, object]] | None:
    """The remembered clean verdict as every binding's clean finding in the JSON
    schema (``forest status --json``), from the binding map's rows: no ``Finding``, no
    ``Binding``, the map read once; None when the verdict must be judged."""
    from forest_files.check.findings import clean_dict
    from forest_files.check.opening import remembered_grounds  # the one way into custody

    rows = remembered_grounds(root)
    return None if rows is None else [clean_dict(*row) for row in rows]
