"""Acts in dependency order: the one order a replay and every listing of acts follow.

Stores: nothing.
Refuses: (``LedgerError``) a dependency no act of the ledger is (``dangling-dep``)
unless it was applied before, and a dependency cycle (``cycle``), each naming the act.
Returns: the acts in dependency order, ties broken by id (or by what ``first``
gives, then id): it depends only on the set of acts, never on file or segment order.
Test: tests/ledger/test_ledger_codec.py
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Container, Iterable

from forest_files.ledger.acts import Act, LedgerError


def topo_order(
    acts: Iterable[Act],
    *,
    satisfied: Container[str] = (),
    first: Callable[[Act], str] | None = None,
) -> list[Act]:
    """Dependency order; among acts that are ready at once, the smallest id first
    (``first``: the smallest ``(first(act), id)``, e.g. the time an act claims, for
    a listing read by people; the replay keeps the id alone).

    The result depends only on the set of acts, never on file or segment order.
    A dep outside ``acts`` is refused unless it is in ``satisfied`` (acts applied
    before, when only new acts are ordered).
    """
    by_id = {a.id: a for a in acts}
    waiting: dict[str, int] = {}
    dependents: dict[str, list[str]] = {}
    for act in sorted(by_id.values(), key=lambda a: a.id):
        inside = sorted(d for d in set(act.deps) if d not in satisfied or d in by_id)
        for dep in inside:
            if dep not in by_id:
                raise LedgerError(
                    f"act {act.id} depends on {dep}, which is not in the ledger",
                    act_id=act.id,
                    code="dangling-dep",
                )
            dependents.setdefault(dep, []).append(act.id)
        waiting[act.id] = len(inside)

    def rank(act_id: str) -> str:  # ids are 64 hex digits: the id is the key's tail
        return act_id if first is None else f"{first(by_id[act_id])}\x00{act_id}"

    ready = [rank(i) for i, n in waiting.items() if n == 0]
    heapq.heapify(ready)
    order: list[Act] = []
    while ready:
        current = heapq.heappop(ready)[-64:]
        order.append(by_id[current])
        for child in dependents.get(current, ()):
            waiting[child] -= 1
            if waiting[child] == 0:
                heapq.heappush(ready, rank(child))
    if len(order) != len(by_id):
        stuck = min(i for i, n in waiting.items() if n > 0)
        raise LedgerError(f"act {stuck} is part of a dependency cycle", act_id=stuck, code="cycle")
    return order


__all__ = ["topo_order"]
