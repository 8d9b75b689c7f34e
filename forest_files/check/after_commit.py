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
findings and routes, said in the words of a patch (``Applied``); a patch that
more patches of the same run follow is undone by its own id, as HEAD~1 then
names another commit.

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


class Applied(NamedTuple):
    """A commit ``git am`` applied (the post-applypatch hook): ``last`` when no patch
    of the same run follows it (then HEAD~1 is its parent once ``git am`` ends)."""

    last: bool


def _undo(short: str, applied: Applied | None) -> Route:
    """Undo by HEAD~1 while the commit is the last one; a patch that others follow is
    undone by its own id, with them (their changes staged too, nothing lost)."""
    if applied is None or applied.last:
        return Route(
            "undo the commit, its changes kept staged (the next git commit is checked)",
            (("git", "reset", "--soft", _PARENT),),
            "while it is the last commit and not pushed",
        )
    return Route(
        "undo the commit and the patches applied after it, their changes kept staged "
        "(the next git commit is checked)",
        (("git", "reset", "--soft", f"{short}~1"),),
        "once git am has finished, while none of them is pushed",
    )


def _subject(commit: str, applied: Applied | None = None) -> erasure_guard.Subject:
    """The ways back from ``commit``: undone while it is HEAD and not pushed, or kept
    with its parent's ledger files put back (named by the commit: right later too)."""
    short = commit[:12]
    undo = _undo(short, applied)
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
    applied: Applied | None = None  # None: said by post-commit

    def lines(self) -> list[str]:
        """The hook's warning: each finding, then the ways back once."""
        if not self.found:
            return []
        how = (
            "(a revert, a cherry-pick or --no-verify)"
            if self.applied is None
            else "(a patch applied by git am or git rebase --apply)"
        )
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


def removed_custody(root: Path, commit: str = "HEAD", *, applied: Applied | None = None) -> Removed:
    """The ledger files ``commit`` deletes or retypes that its first parent holds:
    one ``git diff-tree`` (and, when it finds one, the commit's id and one read of
    the parent's segments for the erase acts they hold). ``applied``: the commit is
    a patch ``git am`` applied (post-applypatch), which only words it otherwise."""
    changes = gitio.commit_changes(root, commit, _LEDGER, filters="DT")
    if not changes:
        return Removed(commit, (), applied)
    full = gitio.resolve_commit(root, commit)
    found = erasure_guard.rewritten_ledger(root, f"{full}~1", changes, _subject(full, applied))
    return Removed(full, tuple(found), applied)


__all__ = ["Applied", "Removed", "removed_custody"]
