"""``forest verify``'s routes as data: each fault's ways out, in the route shape of
the findings schema (docs/findings.schema.json ``RouteModel``).

The text of ``forest verify`` names one command for every damaged file and missing
act at once (``restore them from git: …``) and, per dependent segment whose missing
act no commit holds, its take-out; ``--json`` gave them only in that ``forest:``
line. Each fault of ``--json`` now carries ``routes``: a stray its removal, a
damaged file or a dangling dependency the checkouts that bring it back (the same
steps the line prints), a dependency held nowhere the fetch (advice) and the
take-out. An authority or policy fault of ``--base`` has none (exit 1: re-record
the act as a holder). A segment at fault that HEAD holds as it is (committed as it
was written: by hand, or edited before its first commit) is brought back by no
checkout: its route takes it out of the commit that added it, the route ``forest
ci`` gives it (gate/added_segment.py ``take_out``; one ``git log`` and one ``git
rev-list``, only when there is such a fault).

Stores: nothing.
Refuses: nothing.
Returns: ``plan_of``: the restore plan (custody/damaged.py) when some fault is damage;
``written_so``: the take-out of each segment HEAD holds at fault, by its path;
``routes_of``: one fault's routes.
Test: tests/doors/test_verify_routes.py, tests/doors/test_verify_written_so.py
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from forest_files import gitio
from forest_files.check.findings import Route
from forest_files.custody.damaged import Restore, damaged_files, fetch_advice, restore_plan
from forest_files.gate.added_segment import take_out
from forest_files.gate.rebase import Rebase
from forest_files.kernel.paths import LEDGER_DIR, SEGMENTS
from forest_files.ledger.verify import Fault

RESTORE = "restore them from git"


def plan_of(root: Path, faults: Sequence[Fault], refusals: frozenset[str]) -> Restore:
    """The checkouts and take-outs of ``faults``' damage; none when every fault is an
    authority refusal or has its own fix (a stray)."""
    if all(f.code in refusals for f in faults) or all(f.fix for f in faults):
        return Restore()
    return restore_plan(root, faults)


def written_so(
    root: Path, faults: Sequence[Fault], plan: Restore, refusals: frozenset[str]
) -> dict[str, Route]:
    """The segments at fault that no checkout of ``plan`` brings back and that a commit
    HEAD holds byte for byte, as the commit of its history that added it wrote them:
    each its take-out from that commit, by its path (a segment a later commit changed
    gets none here)."""
    at_fault = [f for f in faults if f.code not in refusals and not plan.covers(f)]
    prefix = f"{LEDGER_DIR}/{SEGMENTS}/"
    paths = [p for p in damaged_files(at_fault) if p.startswith(prefix)]
    head = gitio.head_commit(root) if paths else None
    if head is None:
        return {}
    at_head = gitio.blobs_at(root, head, paths)
    # as it is in HEAD, byte for byte (a checkout filter's conversion is no such case)
    held = [p for p in paths if at_head[p] is not None and at_head[p] == _read(root / p)]
    added = gitio.first_added(root, head, held) if held else {}
    for commit in set(added.values()):  # edited by a later commit: that one is at fault
        mine = [p for p, c in added.items() if c == commit]
        was = gitio.blobs_at(root, commit, mine)
        for p in mine:
            if was[p] != at_head[p]:
                del added[p]
    routes: dict[str, Route] = {}
    for commit in dict.fromkeys(added.values()):
        mine = [p for p, c in added.items() if c == commit]
        (parents,) = [up for c, up in gitio.range_parents(root, f"{commit}^!") if c == commit]
        # a root commit has no parent to rebase onto: ``git rebase -i --root``
        base = parents[0] if parents else "--root"
        span = f"{base}..{head}" if parents else head
        merges = frozenset(c for c, up in gitio.range_parents(root, span) if len(up) > 1)
        route = take_out(commit, mine, head=head, rebase=Rebase(base, merges))
        routes.update(dict.fromkeys(mine, route))
    return routes


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def routes_of(
    fault: Fault,
    plan: Restore,
    refusals: frozenset[str],
    taken: Mapping[str, Route] | None = None,
) -> tuple[Route, ...]:
    """``fault``'s ways out, its steps as run at the top of the work tree (``Route``
    reaches them from where the user stands); ``taken``: ``written_so``'s routes."""
    if fault.fix_argv:
        return (Route("remove it", fault.fix_steps()),)
    if fault.code in refusals:
        return ()
    if fault.code == "dangling-dep":
        for out in plan.taken_out:
            if out.segment == fault.segment:
                return _taken_out(out.dep, out.steps)
    if plan.covers(fault):
        return (Route(RESTORE, plan.steps),)
    named = damaged_files([fault])
    if taken and named and named[0] in taken:
        return (taken[named[0]],)
    return ()


def _taken_out(dep: str, steps: tuple[tuple[str, ...], ...]) -> tuple[Route, ...]:
    fetch = f"act {dep[:12]} is in no commit any ref reaches: {fetch_advice()}"
    lost = "its acts are then lost and must be recorded again"
    return (
        Route("fetch the act", note=fetch),
        Route("take the segment out", steps, note=lost),
    )


__all__ = ["RESTORE", "plan_of", "routes_of", "written_so"]
