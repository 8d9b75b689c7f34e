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
Returns: ``Rebase`` (the rebase over the range and how it stops at one of its
commits, said in this one place), ``Rewrite.at_commit`` (a history finding's route),
``Rewrite.at_head`` (HEAD's finding's routes); ``in_commit`` (steps run in one
commit of the range: amending HEAD when HEAD is that commit, else at a rebase
stopped there, a ``break`` after its line when that commit is a merge);
``put_back`` (a ledger file a commit of the range deleted or changed: checked out
from that commit's parent, in that commit); ``take_out`` (a governed change to
forest.toml or the keyring, checked out from the parent likewise); ``drop_act``
(an act refused for its signer or body: the commit that brought it dropped);
``into_head`` (routes that record or bring back, each amending HEAD after it).
Test: tests/gate/test_ci_rewrite_routes.py, tests/gate/test_ci_ledger_put_back.py,
tests/gate/test_ci_where_typed.py, tests/gate/test_ci_folder_move.py
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from forest_files.check.checkout_rewrite import KIND as REWRITTEN
from forest_files.check.checkout_rewrite import is_rules
from forest_files.check.findings import Reported, Route
from forest_files.check.routes import routes_for
from forest_files.custody.sources import LEDGER_PREFIX
from forest_files.kernel.shellword import command_text, forest_text, git_step, in_batches

Step = tuple[str, ...]
AMEND: Step = ("git", "commit", "--amend", "--no-edit")
_CONTINUE: Step = ("git", "rebase", "--continue")
_SKIP: Step = ("git", "rebase", "--skip")
_AT_STOP = "index"  # at a stopped rebase, a route stages what it changed for the amend


def _push() -> str:
    """The force push every rewrite needs, as the user runs it where they stand (built
    when a route is, after the door noted where that is: ``git -C ..`` in docs/)."""
    push = command_text(git_step("push", "--force-with-lease"))
    # Said as a condition: whether the branch is on a remote is not known here (a
    # branch never pushed, as at the server's refusal of a new ref, takes a plain push).
    return f"if the branch is on a remote already, the rewrite needs a force push (`{push}`)"


def _skip(what: str) -> str:
    """`` (a later commit that WHAT is then empty: `git rebase --skip`)``."""
    return f" (a later commit that {what} is then empty: `{command_text(_SKIP)}`)"


class Rebase(NamedTuple):
    """``git rebase -i MERGE-BASE`` over the range, and the one place that says how it
    is made to stop at a commit of the range."""

    merge_base: str
    merges: frozenset[str]  # the range's merges (full ids)

    @property
    def step(self) -> Step:
        """``--rebase-merges`` when the range holds a merge: the rebase keeps it."""
        keep = ("--rebase-merges",) if self.merges else ()
        return git_step("rebase", "-i", *keep, self.merge_base)

    def stop(self, commit: str) -> str:
        """How the rebase is made to stop at ``commit``: a commit is marked ``edit``; a
        merge, which ``--rebase-merges`` lists as ``merge -C`` and merges again, gets a
        ``break`` line after it (marking it ``edit`` or ``drop`` is not possible)."""
        if commit not in self.merges:
            return f"mark {commit[:12]} `edit`; when the rebase stops there:"
        return (
            f"add a line `break` right after the line `merge -C {commit[:7]}…` (when a "
            "commit before it changed, git merges again there: if that stops on "
            "conflicts, resolve them as they were, `git add` them and "
            f"`{command_text(_CONTINUE)}`); when the rebase stops at the break:"
        )


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
        go_on = f"{command_text(AMEND)} && {command_text(_CONTINUE)}"
        stop, rebase = self.branch.stop(commit), self.branch.step
        if r.kind != "drifted":
            # the attribute rewrites the working file at the stop: the index says it
            staged = ("--staged",) if r.kind == REWRITTEN else ()
            check = forest_text("check", options=staged)
            note = f"{stop} run a route `{check}` prints there, then `{go_on}`; {_push()}"
            return (Route(f"rewrite the branch at {at}", (rebase,), note),)
        restore, supersede = routes_for(r.finding, root=self.root, source=_AT_STOP)
        emptied = f"{command_text((*AMEND, '--allow-empty'))} && {command_text(_CONTINUE)}"
        record = (
            f"{stop} `{_text(supersede.steps)} && {go_on}` (replace … with why; when a "
            f"later commit records that act already, move it up after {at} and mark it "
            f"`fixup` instead); {_push()}"
        )
        undo = (
            f"mark {at} `drop` when the edit is all it holds, else `edit`, and when the "
            f"rebase stops there: `{_text(restore.steps)} && {emptied}`"
            f"{_skip('only undid the edit')}; {_push()}"
        )
        if commit in self.branch.merges:  # a merge is never dropped: its side would go too
            undo = (
                f"{stop} `{_text(restore.steps)} && {emptied}` (when the merge made again "
                f"no longer holds the edit, nothing is to restore: `{command_text(_CONTINUE)}`"
                f"); {_push()}"
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
        why = f"amends HEAD, which made the change (a commit on top leaves it as it is); {_push()}"
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
    why = f"amends HEAD, which made the change (a commit on top leaves it as it is); {_push()}"
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


class Wording(NamedTuple):
    """How an ``in_commit`` route names what it does."""

    in_head: str  # its label when it amends HEAD
    short: str  # "put them back in": the rebase route's label, ending before the commit
    did: str  # what HEAD did that the amend undoes
    later: str = ""  # what a later commit did that the rewrite leaves empty


def in_commit(
    commit: str,
    steps: tuple[Step, ...],
    words: Wording,
    *,
    head: str,
    rebase: Rebase,
    also: str = "",
) -> Route:
    """``steps`` run in ``commit`` itself, so no commit of the range keeps what they
    undo: HEAD's, then an amend of HEAD; an earlier commit's (a merge's too), at a
    ``rebase`` stopped there. ``also``: one more thing the note says."""
    at = commit[:12]
    amend = (*AMEND, "--allow-empty")  # what they undo may have been all the commit held
    tail = f"; {also}" if also else ""
    if commit == head:
        why = f"amends HEAD, which {words.did}; {_push()}{tail}"
        return Route(words.in_head, (*steps, amend), why)
    go_on = f"{command_text(amend)} && {command_text(_CONTINUE)}"
    later = _skip(words.later) if words.later else ""
    note = f"{rebase.stop(commit)} `{_text(steps)} && {go_on}`{later}; {_push()}{tail}"
    return Route(f"rewrite the branch: {words.short} {at}", (rebase.step,), note)


_PUT_BACK = Wording(
    "put the ledger files back in HEAD", "put them back in", "deleted or changed them",
    "put them back",
)  # fmt: skip


def put_back(
    commit: str, parent: str, paths: list[str], *, head: str, rebase: Rebase
) -> tuple[Route, ...]:
    """The route that puts back the ledger files ``commit`` deleted or changed against
    ``parent`` (every path named exactly: an erased body, which the gate allows, is
    never among them). HEAD's own: check them out and amend HEAD; an earlier
    commit's: ``rebase`` with the same checkout at the stop."""
    batches = in_batches(("checkout", parent, "--"), paths)
    checkouts = tuple(git_step(*batch) for batch in batches)  # literal pathspecs if need be
    return (in_commit(commit, checkouts, _PUT_BACK, head=head, rebase=rebase),)


_TAKE_OUT = Wording(
    "take the change out of HEAD", "take the change out of", "made the change", "undid it",
)  # fmt: skip


def take_out(
    commit: str, parent: str, paths: list[str], *, head: str, rebase: Rebase
) -> tuple[Route, ...]:
    """The route that takes a governed change to ``paths`` (forest.toml, the keyring)
    out of ``commit``: each checked out from ``parent`` there, as ``put_back`` does a
    ledger file (a holder of ``**`` then makes the change, the finding's detail says)."""
    batches = in_batches(("checkout", parent, "--"), paths)
    checkouts = tuple(git_step(*batch) for batch in batches)
    return (in_commit(commit, checkouts, _TAKE_OUT, head=head, rebase=rebase),)


def drop_act(commit: str, then: str, *, rebase: Rebase) -> tuple[Route, ...]:
    """The route out of an act the gate refuses (no authority, a body over the policy):
    ``commit``, which brought it, dropped from the branch (a merge is never dropped:
    none then, the finding's detail says what to do); ``then``: what follows."""
    if commit in rebase.merges:
        return ()
    at = commit[:12]
    note = (
        f"mark {at} `drop`: its act goes, with all else {at} holds (a later commit that "
        f"built on it then stops the rebase: resolve it and `{command_text(_CONTINUE)}`, "
        f"or `{command_text(_SKIP)}` one left empty); then {then}; {_push()}"
    )
    return (Route(f"rewrite the branch: drop {at}", (rebase.step,), note),)


def _text(steps: Iterable[Step]) -> str:
    return " && ".join(command_text(s) for s in steps)
