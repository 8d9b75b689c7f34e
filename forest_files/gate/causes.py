"""HEAD's ledger faults that follow from a ledger file the range rewrote or deleted.

One edited line in a committed segment makes several faults at HEAD: the segment's
name no longer hashes to its bytes, the act's id no longer matches it, and every act
of the ledger that depended on the act as it was is a ``dangling-dep``. They are all
one cause, which the range names (``ledger-rewritten`` or ``ledger-deleted``, with
the route that puts the file back in the commit that changed it). So the report
leads with that cause, and each fault that follows from it comes right after it,
its routes replaced by a note naming the cause (the dangling-dep's own route would
bring the old act in beside the edited one): a reader sees the cause and its route
first. Every fault is kept (``--format json`` lists each).

A fault follows from a cause when it lies in the file the cause names, or when it
is a ``dangling-dep`` whose missing act that file held in the parent the cause was
judged against.

Stores: nothing.
Refuses: nothing.
Returns: the findings reordered, the consequent faults' routes replaced.
Test: tests/gate/test_ci_ledger_put_back.py
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from forest_files.check.findings import Reported, Route
from forest_files.kernel.paths import segment_file
from forest_files.ledger.verify import Fault

CAUSES = frozenset({"ledger-rewritten", "ledger-deleted"})


def lead_with_causes(
    top: Path,
    found: Sequence[tuple[Fault, Reported]],
    ranged: Sequence[tuple[Fault, Reported]],
) -> list[Reported]:
    """``found`` (HEAD's faults, each with its finding) and ``ranged`` (the range's),
    each cause of ``ranged`` first with the faults of ``found`` that follow from it,
    then the rest of ``found``, then the rest of ``ranged``."""
    causes = [(f, r) for f, r in ranged if r.kind in CAUSES and f.commit and f.parent]
    if not causes:
        return [*(r for _, r in found), *(r for _, r in ranged)]
    held = _held_by(top, [f for f, _ in causes])
    out: list[Reported] = []
    taken: set[int] = set()
    for fault, cause in causes:
        out.append(cause)
        for i, (f, r) in enumerate(found):
            if i not in taken and _follows(f, r, fault, held):
                taken.add(i)
                out.append(_after(r, cause))
    out += [r for i, (_, r) in enumerate(found) if i not in taken]
    led = {id(r) for _, r in causes}
    out += [r for _, r in ranged if id(r) not in led]
    return out


def _held_by(top: Path, causes: list[Fault]) -> dict[tuple[str, str], frozenset[str]]:
    """(parent, file) -> the acts that segment file held in that parent (read once per
    parent, only for the segments a cause names)."""
    from forest_files.gate.range import acts_at

    out: dict[tuple[str, str], frozenset[str]] = {}
    for parent in sorted({f.parent for f in causes if f.parent}):
        snapshot = acts_at(top, parent)
        by_file: dict[str, set[str]] = {}
        for act_id, segments in snapshot.found_in.items():
            for segment in segments:
                by_file.setdefault(segment_file(segment), set()).add(act_id)
        for f in causes:
            if f.parent == parent and f.path:
                out[(parent, f.path)] = frozenset(by_file.get(f.path, ()))
    return out


def _follows(
    f: Fault, r: Reported, cause: Fault, held: dict[tuple[str, str], frozenset[str]]
) -> bool:
    if r.kind != "ledger-fault" or cause.path is None or cause.parent is None:
        return False
    if r.path == cause.path:
        return True
    acts = held.get((cause.parent, cause.path), frozenset())
    return f.code == "dangling-dep" and any(d in acts for d in f.missing())


def _after(r: Reported, cause: Reported) -> Reported:
    """A fault that clears with ``cause``: its route says so, and nothing else."""
    note = Route(
        f"follows from the {cause.kind} finding above",
        note=f"clears when its route puts {cause.path} back",
    )
    return r._replace(routes=(note,), hints=())
