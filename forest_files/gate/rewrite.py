"""Routes out of the gate's findings that only a rewrite of the branch can clear.

The gate judges commits, not the working tree: a finding at commit C of the range
is judged against C's own ledger, which no later commit changes. A route that
edits the working tree and commits on top (``forest restore``, ``forest
supersede``) leaves C as it was, and the next run fails at C again. So a finding
at a commit before HEAD has one route: ``git rebase -i MERGE-BASE`` with C marked
``edit`` (a merge: a ``break`` line after it, as ``--rebase-merges`` merges again),
and C given the act (or the edit taken out) before the rebase goes on. A
drift HEAD itself brought is cleared by amending HEAD with the act (so are a
move, a deletion, and a contest HEAD's ledger brought). A finding
HEAD shows that earlier commits also carry keeps its restore and supersede routes,
each saying it cannot clear the gate alone. A rewrite of a branch a remote holds
needs a force push (said as a condition: whether it does is not known here).
Every command a note names (the amend, ``--continue``, ``--skip``, the force push)
is built with the route, so it is reached from where ``forest ci`` was typed.

Stores: nothing.
Refuses: nothing.
Returns: ``Rewrite.at_commit`` (a history finding's route), ``Rewrite.at_head`` (HEAD's
finding's routes); ``into_head`` (routes that record or bring back, each amending HEAD
after it). The rebase itself and the steps run in one commit of it: gate/rebase.py.
Test: tests/gate/test_ci_rewrite_routes.py, tests/gate/test_ci_ledger_put_back.py,
tests/gate/test_ci_where_typed.py, tests/gate/test_ci_folder_move.py
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from forest_files.check.checkout_rewrite import KIND as REWRITTEN
from forest_files.check.checkout_rewrite import is_rules
from forest_files.check.findings import Reported, Route
from forest_files.check.routes import routes_for
from forest_files.custody.sources import LEDGER_PREFIX
from forest_files.gate.rebase import AMEND, CONTINUE, Rebase, force_push, skip_note, steps_text
from forest_files.kernel.shellword import command_text, forest_text

_AT_STOP = "index"  # at a stopped rebase, a route stages what it changed for the amend


@dataclass(frozen=True)
class Rewrite:
    """One gate run's range, as its rewrite routes need it."""

    root: Path
    head: str
    branch: Rebase
    head_changed: frozenset[str]  # the paths HEAD changed against its parents

    def at_commit(self, r: Reported) -> Reported:
        """A finding at a commit before HEAD: its routes rewrite the branch there."""
        if r.commit is None or r.commit == self.head:
            return r
        return r._replace(routes=self.rewrite_routes(r, r.commit))

    def rewrite_routes(self, r: Reported, commit: str) -> tuple[Route, ...]:
        """``git rebase -i MERGE-BASE``, and what to do with ``commit`` in it: for a
        drift, record its act there or take the edit out; else a route ``forest
        check`` prints there. The commands at the stop are the finding's own routes,
        staging what they change for the amend."""
        at = commit[:12]
        go_on = f"{command_text(AMEND)} && {command_text(CONTINUE)}"
        stop, rebase = self.branch.stop(commit), self.branch.step
        if r.kind != "drifted":
            # the attribute rewrites the working file at the stop: the index says it
            staged = ("--staged",) if r.kind == REWRITTEN else ()
            check = forest_text("check", options=staged)
            note = f"{stop} run a route `{check}` prints there, then `{go_on}`; {force_push()}"
            return (Route(f"rewrite the branch at {at}", (rebase,), note),)
        restore, supersede = routes_for(r.finding, root=self.root, source=_AT_STOP)
        emptied = f"{command_text((*AMEND, '--allow-empty'))} && {command_text(CONTINUE)}"
        record = (
            f"{stop} `{steps_text(supersede.steps)} && {go_on}` (replace … with why; when a "
            f"later commit records that act already, move it up after {at} and mark it "
            f"`fixup` instead); {force_push()}"
        )
        undo = (
            f"mark {at} `drop` when the edit is all it holds, else `edit`, and when the "
            f"rebase stops there: `{steps_text(restore.steps)} && {emptied}`"
            f"{skip_note('only undid the edit')}; {force_push()}"
        )
        if commit in self.branch.merges:  # a merge is never dropped: its side would go too
            undo = (
                f"{stop} `{steps_text(restore.steps)} && {emptied}` (when the merge made again "
                f"no longer holds the edit, nothing is to restore: `{command_text(CONTINUE)}`"
                f"); {force_push()}"
            )
        return (
            Route(f"rewrite the branch: record the act in {at}", (rebase,), record),
            Route(f"or rewrite it: take the edit out of {at}", (rebase,), undo),
        )

    def at_head(self, r: Reported, earlier: Iterable[str]) -> Reported:
        """HEAD's finding: its restore and supersede amend HEAD when HEAD brought the
        change; each says when earlier commits of the range carry it too."""
        if not r.failed:
            return r
        before = sorted({c for c in (r.introduced, *earlier) if c and c != self.head})
        routes = r.routes
        if r.introduced is None and r.kind == REWRITTEN:
            if any(is_rules(p) for p in self.head_changed):  # HEAD brought the rule
                routes = self._amended_all(r)
        elif r.introduced is None and r.kind == "contested":
            if any(p.startswith(LEDGER_PREFIX) for p in self.head_changed):  # HEAD's acts
                routes = into_head(r.routes)  # its own: the merged text's route too
        elif r.introduced is None and r.path in self.head_changed:
            if r.kind == "drifted":
                routes = self._amended(r)
            elif r.kind in _AMENDABLE:
                routes = self._amended_all(r)
        if not before:
            return r._replace(routes=routes)
        named = ", ".join(c[:12] for c in before)
        which = f"commit {named} carries" if len(before) == 1 else f"commits {named} carry"
        alone = (
            f"alone this cannot clear the gate: {which} the change too, earlier in the "
            "range (rewrite the branch there)"
        )
        routes = tuple(
            x._replace(note=f"{x.note}; {alone}" if x.note else alone) if x.steps else x
            for x in routes
        )
        if r.introduced is not None and r.introduced != self.head:
            routes = (*routes, *self.rewrite_routes(r, r.introduced))
        return r._replace(routes=routes)

    def _amended(self, r: Reported) -> tuple[Route, ...]:
        """HEAD brought the drift: a commit on top would leave HEAD in the range as it
        is, so the act (or the undo) goes into HEAD itself."""
        why = (
            "amends HEAD, which made the change (a commit on top leaves it as it is); "
            f"{force_push()}"
        )
        out = []
        restore, supersede = routes_for(r.finding, root=self.root, source=_AT_STOP)
        for x, amend in ((restore, (*AMEND, "--allow-empty")), (supersede, AMEND)):
            note = f"{x.note}; {why}" if x.note else why
            out.append(Route(f"{x.label} in HEAD", (*x.steps, amend), note))
        return tuple(out)

    def _amended_all(self, r: Reported) -> tuple[Route, ...]:
        """HEAD moved, renamed or deleted a bound section or file: each of its routes
        that records or brings something back goes into HEAD itself, as a drift's does
        (a commit on top would leave HEAD in the range as it is)."""
        return into_head(routes_for(r.finding, root=self.root, source=_AT_STOP))


def into_head(routes: Iterable[Route]) -> tuple[Route, ...]:
    """Each route that records or brings something back, amending HEAD after it."""
    why = f"amends HEAD, which made the change (a commit on top leaves it as it is); {force_push()}"
    out = []
    for x in routes:
        if not x.steps:
            out.append(x)
            continue
        note = f"{x.note}; {why}" if x.note else why
        # a file brought back into a HEAD that only deleted it leaves HEAD empty
        out.append(Route(f"{x.label} in HEAD", (*x.steps, (*AMEND, "--allow-empty")), note))
    return tuple(out)


# Findings HEAD brings whose routes record an act or bring a file back (a drift has
# its own pair, ``_amended``): pasted and committed on top, they would leave HEAD,
# which the gate judges as a commit of the range, as it is. A contest is HEAD's when
# HEAD changed the ledger (a rebase onto a base that superseded the same ground).
_AMENDABLE = frozenset({"moved", "missing", "unresolved"})
