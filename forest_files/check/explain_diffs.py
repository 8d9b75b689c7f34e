"""A terminal's diffs: each drifted finding of a report with its ground -> now diff.

Stores: nothing.
Refuses: nothing.
Returns: ``with_diffs``: the report with at most ``MAX_DIFF_LINES`` lines of diff on
each drifted finding (check/diff.py), worked out no further.
Test: tests/check/test_diff_cost.py, tests/doors/test_doors.py
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from forest_files.check.findings import CheckReport

if TYPE_CHECKING:
    from forest_files.check.engine import Finding
    from forest_files.custody.bindings import Binding
    from forest_files.custody.content import ContentSource
    from forest_files.store.forest import ForestStore


def with_diffs(
    report: CheckReport, store: ForestStore, bindings: list[Binding], content: ContentSource
) -> CheckReport:
    """``report`` with the ground -> now diff of each drifted finding (a terminal's), at
    most ``MAX_DIFF_LINES`` lines each, worked out no further, then the ``forest diff``
    that prints every one."""
    from forest_files.check.diff import MAX_DIFF_LINES, is_prose, section_diff

    excludes = {b.bind_act: b.excludes for b in bindings}

    def diff(f: Finding) -> str:
        words = is_prose(f.path)  # writers change words; code changes lines
        ex = excludes.get(f.binding, ())
        return section_diff(
            store, f, content, ex, words=words, limit=MAX_DIFF_LINES, source=report.source
        )

    items = tuple(
        r.with_diff(diff(r.finding)) if r.finding.kind == "drifted" else r for r in report.items
    )
    return report._replace(items=items)
