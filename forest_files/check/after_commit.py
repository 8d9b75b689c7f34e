"""What the post-commit and post-applypatch hooks say: a commit made without the
pre-commit check that deletes or retypes a ledger file its parent holds.

The pre-commit hook refuses such a change (erasure_guard.py). Git asks no
pre-commit hook for ``git revert``, ``git cherry-pick`` or ``git commit
--no-verify``, but it runs post-commit after each of them: a revert of the
commit that adopted a section deletes that act's segment, and until ``forest
ci`` refuses the branch (gate/growth.py) every local door would judge without
the act, as if the binding had never been made. The commit is made by then, so
this can only say so at once, with the ways back: undo the commit while it is
not pushed, or keep it and put the parent's ledger files back in a new one.
``git am`` (and ``git rebase --apply``, which applies through it) runs no
post-commit hook but post-applypatch after each patch it commits: the same
findings and routes, said in the words of a patch. A pick of ``git rebase`` runs
post-commit while git's ``rebase-merge`` folder stands. A step of either that more
steps of the same run follow is undone by its own id (``Sequence``, read by
``sequence_at``), as HEAD~1 names another commit once the run ends. Both appliers
share the ``rebase-apply`` folder; git marks a rebase's with a ``rebasing`` file
(``git am``'s holds ``applying``), so a patch of ``git rebase --apply`` is said as
the rebase's, and its undo waits for the rebase to finish, not for a ``git am``.

Stores: nothing.
Refuses: nothing (git ignores a post-commit hook's exit code).
Returns: ``Removed``: erasure_guard's ``ledger-deleted`` and ``ledger-rewritten``
findings, judged against the parent, and the lines the hook prints for them.
Test: tests/check/test_after_commit.py
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from forest_files import gitio
from forest_files.check import erasure_guard, text
from forest_files.check.findings import Reported, Route
from forest_files.kernel.paths import LEDGER_PREFIX
from forest_files.kernel.shellword import printable

_LEDGER = LEDGER_PREFIX.rstrip("/")
_PARENT = "HEAD~1"
# How the commit came without the pre-commit check, by the command it is a step of.
_HOW = {
    "": "(a revert, a cherry-pick or --no-verify)",
    "am": "(a patch applied by git am)",
    "rebase-apply": "(a patch applied by git rebase --apply)",
    "rebase": "(a pick of git rebase)",
}
# The command a step of each belongs to: the one whose end the undo waits for.
_RUN = {"am": "git am", "rebase-apply": "git rebase", "rebase": "git rebase"}


class Sequence(NamedTuple):
    """A commit one step of a longer git command made: a patch ``git am`` applied
    (the post-applypatch hook, ``am``), one ``git rebase --apply`` applied
    (post-applypatch while ``rebase-apply/rebasing`` stands, ``rebase-apply``) or a
    pick of ``git rebase`` (post-commit while ``rebase-merge`` stands, ``rebase``);
    ``last`` when no step of the same run follows it (then HEAD~1 is its parent once
    the command ends)."""

    tool: str  # "am", "rebase-apply" or "rebase"
    last: bool


def _undo(short: str, sequence: Sequence | None) -> Route:
    """Undo by HEAD~1 while the commit is the last one; a step that others follow is
    undone by its own id, with them (their changes staged too, nothing lost)."""
    if sequence is None or sequence.last:
        return Route(
            "undo the commit, its changes kept staged (the next git commit is checked)",
            (("git", "reset", "--soft", _PARENT),),
            "while it is the last commit and not pushed",
        )
    after = "commits rebased" if sequence.tool == "rebase" else "patches applied"
    return Route(
        f"undo the commit and the {after} after it, their changes kept staged "
        "(the next git commit is checked)",
        (("git", "reset", "--soft", f"{short}~1"),),
        f"once {_RUN[sequence.tool]} has finished, while none of them is pushed",
    )


def _subject(commit: str, sequence: Sequence | None = None) -> erasure_guard.Subject:
    """The ways back from ``commit``: undone while it is HEAD and not pushed, or kept
    with its parent's ledger files put back (named by the commit: right later too)."""
    short = commit[:12]
    undo = _undo(short, sequence)
    parent = f"{short}~1"
    message = f"Put back the ledger files {short} removed"
    keep = Route(
        "or keep it and put the ledger files back in a new commit",
        (("git", "checkout", parent, "--", _LEDGER), ("git", "commit", "-m", message)),
    )
    keep_erase = Route(
        "or keep it, put the erase back, and let forest delete the body again",
        (
            ("git", "checkout", parent, "--", _LEDGER),
            ("forest", "sync"),
            ("git", "add", "-A", "--", _LEDGER),
            ("git", "commit", "-m", message),
        ),
        f"the erased text is in commit {short} now: rotate the secret",
    )
    return erasure_guard.Subject(f"commit {short}", "its parent", (undo, keep_erase), (undo, keep))


class Removed(NamedTuple):
    """What one commit removed from the ledger (``found`` empty: nothing)."""

    commit: str
    found: tuple[Reported, ...]
    sequence: Sequence | None = None  # None: a commit of its own

    def lines(self) -> list[str]:
        """The hook's warning: each finding, then the ways back once."""
        if not self.found:
            return []
        how = _HOW[self.sequence.tool if self.sequence is not None else ""]
        out = [
            f"forest-files: commit {self.commit[:12]} was made without the pre-commit check "
            f"{how} and removes acts from the ledger: "
            "every door judges without them, and forest ci refuses the branch",
        ]
        for r in self.found:
            out += ["", *text.block(r, routes=False)]
        # the ways back once: an erase's when the commit removed one (it does more)
        routes = next((r.routes for r in self.found if r.finding.act), self.found[-1].routes)
        out += [f"  {printable(route.line())}" for route in routes]
        return out


def removed_custody(
    root: Path, commit: str = "HEAD", *, sequence: Sequence | None = None
) -> Removed:
    """The ledger files ``commit`` deletes or retypes that its first parent holds:
    one ``git diff-tree`` (and, when it finds one, the commit's id and one read of
    the parent's segments for the erase acts they hold). ``sequence``: the commit is
    one step of ``git am`` or ``git rebase``, which words it and its undo."""
    changes = gitio.commit_changes(root, commit, _LEDGER, filters="DT")
    if not changes:
        return Removed(commit, (), sequence)
    full = gitio.resolve_commit(root, commit)
    found = erasure_guard.rewritten_ledger(root, f"{full}~1", changes, _subject(full, sequence))
    return Removed(full, tuple(found), sequence)


def sequence_at(git_dir: Path, hook: str) -> Sequence | None:
    """The step of ``git am`` or ``git rebase --apply`` (post-applypatch:
    ``rebase-apply/next`` of ``last``; the rebase's when ``rebase-apply/rebasing``
    stands) or of ``git rebase`` (post-commit while ``rebase-merge/msgnum`` of ``end``
    stands) that made the commit, from git's state folder in this work tree's git
    directory; None for a commit of its own. Unreadable (a later git that keeps them
    elsewhere): the last step, so the undo is the one of a commit of its own."""
    tool, folder, names = (
        ("am", "rebase-apply", ("next", "last"))
        if hook == "post-applypatch"
        else ("rebase", "rebase-merge", ("msgnum", "end"))
    )
    state = git_dir / folder
    if tool == "rebase" and not state.is_dir():
        return None
    if tool == "am" and (state / "rebasing").exists():  # git rebase --apply's patches
        tool = "rebase-apply"
    try:
        at, count = (int((state / name).read_text("ascii")) for name in names)
    except (OSError, ValueError):
        return Sequence(tool, last=True)
    return Sequence(tool, last=at >= count)


__all__ = ["Removed", "Sequence", "removed_custody", "sequence_at"]
