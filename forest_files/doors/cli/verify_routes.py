"""``forest verify``'s routes as data: each fault's ways out, in the route shape of
the findings schema (docs/findings.schema.json ``RouteModel``).

The text of ``forest verify`` names one command for every damaged file and missing
act at once (``restore them from git: …``) and, per dependent segment whose missing
act no commit holds, its take-out; ``--json`` gave them only in that ``forest:``
line. Each fault of ``--json`` now carries ``routes``: a stray its removal, a
damaged file or a dangling dependency the checkouts that bring it back (the same
steps the line prints), a dependency held nowhere the fetch (advice) and the
take-out. An authority or policy fault of ``--base`` has none (exit 1: re-record
the act as a holder).

Stores: nothing.
Refuses: nothing.
Returns: ``plan_of``: the restore plan (custody/damaged.py) when some fault is damage;
``routes_of``: one fault's routes.
Test: tests/doors/test_verify_routes.py
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from forest_files.check.findings import Route
from forest_files.custody.damaged import Restore, fetch_advice, restore_plan
from forest_files.ledger.verify import Fault

RESTORE = "restore them from git"


def plan_of(root: Path, faults: Sequence[Fault], refusals: frozenset[str]) -> Restore:
    """The checkouts and take-outs of ``faults``' damage; none when every fault is an
    authority refusal or has its own fix (a stray)."""
    if all(f.code in refusals for f in faults) or all(f.fix for f in faults):
        return Restore()
    return restore_plan(root, faults)


def routes_of(fault: Fault, plan: Restore, refusals: frozenset[str]) -> tuple[Route, ...]:
    """``fault``'s ways out, its steps as run at the top of the work tree (``Route``
    reaches them from where the user stands)."""
    if fault.fix_argv:
        return (Route("remove it", (fault.fix_argv,)),)
    if fault.code in refusals:
        return ()
    if fault.code == "dangling-dep":
        for out in plan.taken_out:
            if out.segment == fault.segment:
                return _taken_out(out.dep, out.steps)
    if plan.covers(fault):
        return (Route(RESTORE, plan.steps),)
    return ()


def _taken_out(dep: str, steps: tuple[tuple[str, ...], ...]) -> tuple[Route, ...]:
    fetch = f"act {dep[:12]} is in no commit any ref reaches: {fetch_advice()}"
    lost = "its acts are then lost and must be recorded again"
    return (
        Route("fetch the act", note=fetch),
        Route("take the segment out", steps, note=lost),
    )


__all__ = ["RESTORE", "plan_of", "routes_of"]
