"""Each ledger fault of a CI gate's range given its route, at the commit that brought it.

A ledger file a commit deleted or changed, or a governed file it changed, puts back
every such file of that commit (rebase.py ``put_back``, ``take_out``); but a ledger
file the range added at fault is taken out where it was added (deleted_added.py, asked
through ``taken_out``), and a file the range rewrote before it deleted it is put back
where it was first rewritten (rewritten_deleted.py); an act refused for its signer or
its body drops the commit that brought it (``drop_act``). Moved out of
judged_range.py, which asks it once per fault of the range.

Stores: nothing.
Refuses: nothing.
Returns: ``FaultRoutes.reported``: a fault as a ``Reported`` with its routes (none
without a merge-base, or for a fault no commit brought).
Test: tests/gate/test_ci_rewrite_routes.py, tests/gate/test_ci_ledger_put_back.py,
tests/gate/test_ci_rewritten_deleted.py
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from forest_files.check.findings import Reported, Route
from forest_files.gate.head_faults import from_fault
from forest_files.gate.rebase import Rebase, drop_act, put_back, take_out
from forest_files.gate.rewritten_deleted import first_rewrite, resolve_later
from forest_files.ledger.verify import Fault

# An act refused for what it is: the commit that brought it is dropped, then this.
_DROPPED = {
    "authority": "a holder of its path at the merge-base makes the act",
    "policy": "adopt a smaller section (under the merge-base's max_body_bytes)",
}


class FaultRoutes:
    """The range's faults (``every``), each routed where it was made: ``rebase`` over the
    range (None: no merge-base, so no route), ``commits`` in git's commit order, and
    ``taken_out`` the take-out of a deleted ledger file the range added at fault."""

    def __init__(
        self,
        head: str,
        rebase: Rebase | None,
        commits: Sequence[str],
        every: tuple[Fault, ...],
        taken_out: Callable[[Fault], Route | None],
    ) -> None:
        self.head, self.rebase, self.commits, self.every = head, rebase, commits, every
        self.taken_out = taken_out

    def reported(self, fault: Fault) -> Reported:
        """``fault`` at the commit that brought it, with its route (see above)."""
        reported = from_fault(fault, fault.code)
        rebase, every = self.rebase, self.every
        if fault.commit is None or rebase is None:
            return reported
        if fault.code in _DROPPED:
            routes = drop_act(fault.commit, _DROPPED[fault.code], rebase=rebase)
            return reported._replace(routes=routes)
        if fault.parent is None:
            return reported  # its detail says what to do (a keyring the commit added)
        if fault.code == "ledger-deleted" and fault.path:
            taken = self.taken_out(fault)
            if taken is not None:  # the range added it at fault: put back, a fault again
                return reported._replace(routes=(taken,))
            first = first_rewrite(fault, every, self.commits)
            if first is not None:  # put back from its parent: the damaged bytes again
                return reported._replace(routes=self.reported(first).routes)
        mine = [f for f in every if f.path and (f.commit, f.parent) == (fault.commit, fault.parent)]
        paths = [
            f.path
            for f in mine
            if f.path and (f.code != "ledger-deleted" or not self._elsewhere(f))
        ]
        how = take_out if all(f.code == "config-governance" for f in mine) else put_back
        routes = how(fault.commit, fault.parent, paths, head=self.head, rebase=rebase)
        order = self.commits
        routes = tuple(resolve_later(r, fault.commit, fault.parent, every, order) for r in routes)
        return reported._replace(routes=routes)

    def _elsewhere(self, deleted: Fault) -> bool:
        """A deleted ledger file put back in another commit than the one that deleted
        it: the one that added it at fault, or the one that first rewrote it."""
        assert deleted.path is not None
        if self.taken_out(deleted) is not None:
            return True
        return first_rewrite(deleted, self.every, self.commits) is not None


__all__ = ["FaultRoutes"]
