"""A report's findings one per binding, as every door's JSON and ``forest status`` list them.

A binding two or more merged branches rebound (check/contests.py) is judged twice in one
report: its ``clean`` finding among the bindings (its section holds its ground where
it stands) and its ``contested`` finding (reason ``rebound-twice``) among the findings
of no binding. Listed as they are, one binding had two verdicts, one saying clean.
Here the contested one stands in the clean one's row; a binding that failed otherwise
too (drifted …) keeps both rows, each with its own routes. The report itself is
unchanged, and the text doors print its failed findings as they stand. Its summary
counts each binding once: one rebound twice that none of its bindings' findings
judges (the place checked is where it does not stand) among the bindings checked
(``judged_elsewhere``), and a contest of ground bound to no file, a failure of no
binding, on its own beside them (``bound_to_no_file``), so the count line adds up.

Stores: nothing.
Refuses: nothing.
Returns: ``rows``: every finding of a report (its bindings' first, in their order, then
the findings of no binding), one row per binding; ``judged_elsewhere``: the bindings
rebound twice a report counts beyond its bindings' findings; ``bound_to_no_file``: its
contests of ground bound to no file (counted on their own).
Test: tests/check/test_rebound_twice_one_verdict.py, tests/doors/test_status_rebound_twice.py,
tests/check/test_rebound_twice_count.py, tests/check/test_ground_contest_count.py
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, TypeVar

if TYPE_CHECKING:
    from forest_files.check.finding import Finding


class _Judged(Protocol):
    """A finding as a door reports it (findings.py ``Reported``)."""

    @property
    def finding(self) -> Finding: ...


R = TypeVar("R", bound=_Judged)


def rows(items: Sequence[R], extra: Sequence[R]) -> tuple[R, ...]:
    """A report's ``items`` (its bindings') then its ``extra`` findings (of no binding),
    each binding rebound twice in its own row: its ``contested`` finding where its
    ``clean`` one stood."""
    twice = {r.finding.binding: r for r in extra if _rebound_twice(r.finding)}
    moved = {r.finding.binding for r in items if r.finding.kind == "clean"} & twice.keys()
    if not moved:
        return (*items, *extra)
    kept = (
        twice[r.finding.binding] if r.finding.kind == "clean" and r.finding.binding in moved else r
        for r in items
    )
    return (*kept, *(r for r in extra if r.finding.binding not in moved))


def judged_elsewhere(items: Sequence[R], extra: Sequence[R]) -> int:
    """How many bindings rebound twice ``extra`` reports that no finding of ``items``
    judges: a check of the place where such a binding does not stand reports it, so
    the summary counts it among the bindings checked (its row, ``rows``, is its own)."""
    judged = {r.finding.binding for r in items}
    return len({r.finding.binding for r in extra if _rebound_twice(r.finding)} - judged)


def bound_to_no_file(items: Sequence[R]) -> int:
    """How many of ``items`` are contests of ground bound to no file (check/contests.py):
    failures of no binding, which the summary counts beside the bindings checked."""
    return sum(1 for r in items if r.finding.kind == "contested" and not r.finding.binding)


def _rebound_twice(f: Finding) -> bool:
    return f.kind == "contested" and f.reason is not None and f.reason.kind == "rebound-twice"
