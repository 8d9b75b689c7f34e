"""The rebase over a gate's range, and the steps run at one commit of it.

A finding at a commit of the range is cleared in that commit, never on top of it
(gate/rewrite.py says why): HEAD's by amending HEAD, an earlier commit's at
``git rebase -i MERGE-BASE`` stopped there. This is the one place that says how the
rebase is made and made to stop (``Rebase``), and how steps are run in one commit
(``in_commit``), with the routes built on it.

Stores: nothing.
Refuses: nothing.
Returns: ``Rebase``; ``in_commit`` (steps run in one commit of the range: amending HEAD
when HEAD is that commit, else at a rebase stopped there, a ``break`` after its line
when that commit is a merge); ``put_back`` (a ledger file a commit of the range deleted
or changed: checked out from that commit's parent, in that commit); ``take_out`` (a
governed change to forest.toml or the keyring, checked out from the parent likewise);
``drop_act`` (an act refused for its signer or body: the commit that brought it
dropped); ``force_push`` / ``skip_note`` / ``steps_text``: the words every rewrite route
shares.
Test: tests/gate/test_ci_rewrite_routes.py, tests/gate/test_ci_ledger_put_back.py,
tests/gate/test_ci_where_typed.py
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from forest_files.check.findings import Route
from forest_files.kernel.shellword import command_text, git_step, in_batches

Step = tuple[str, ...]
AMEND: Step = ("git", "commit", "--amend", "--no-edit")
CONTINUE: Step = ("git", "rebase", "--continue")
SKIP: Step = ("git", "rebase", "--skip")


def force_push() -> str:
    """The force push every rewrite needs, as the user runs it where they stand (built
    when a route is, after the door noted where that is: ``git -C ..`` in docs/)."""
    push = command_text(git_step("push", "--force-with-lease"))
    # Said as a condition: whether the branch is on a remote is not known here (a
    # branch never pushed, as at the server's refusal of a new ref, takes a plain push).
    return f"if the branch is on a remote already, the rewrite needs a force push (`{push}`)"


def skip_note(what: str) -> str:
    """`` (a later commit that WHAT is then empty: `git rebase --skip`)``."""
    return f" (a later commit that {what} is then empty: `{command_text(SKIP)}`)"


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
            f"`{command_text(CONTINUE)}`); when the rebase stops at the break:"
        )


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
        why = f"amends HEAD, which {words.did}; {force_push()}{tail}"
        return Route(words.in_head, (*steps, amend), why)
    go_on = f"{command_text(amend)} && {command_text(CONTINUE)}"
    later = skip_note(words.later) if words.later else ""
    note = f"{rebase.stop(commit)} `{steps_text(steps)} && {go_on}`{later}; {force_push()}{tail}"
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
        f"built on it then stops the rebase: resolve it and `{command_text(CONTINUE)}`, "
        f"or `{command_text(SKIP)}` one left empty); then {then}; {force_push()}"
    )
    return (Route(f"rewrite the branch: drop {at}", (rebase.step,), note),)


def steps_text(steps: Iterable[Step]) -> str:
    return " && ".join(command_text(s) for s in steps)
