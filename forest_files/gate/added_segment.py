"""A ledger segment (or body) the range added that the gate refuses: taken out where it
came in.

A segment a commit of the range added (hand-written, or a forest-made one edited
before its first commit) that does not verify (its name not the hash of its bytes,
a line not JSON, an old format) is a ``ledger-fault`` with no act of the range to
put back and no parent holding it: ``git checkout PARENT -- PATH`` names nothing
there, and a ``git rm`` committed on top leaves the commit that added it in the
range (judged again, and the removal a ``ledger-deleted``). Its one route takes it
out of that commit: ``git rm`` and an amend of HEAD when HEAD added it, else the
same at a ``git rebase -i`` stopped there (rewrite.py ``in_commit``); every
unverified segment that commit added is taken out at once. Any act it holds goes
with it, which the note says; a fault that already has a route (a stray's ``git
rm``, a dangling dependency's) keeps it, and one whose segment the range rewrote
later is led by that rewrite (causes.py). A later commit of the range that deleted
such a segment is a ``ledger-deleted`` whose put-back would bring the fault back:
it gets the same take-out, whose note says the deletion is then empty
(``git rebase --skip``). A body file no act names (a ``stray``, text nobody
adopted) that a commit of the range added is taken out of that commit the same way,
in place of its ``git rm`` on top, which the gate would judge the ledger shrinking
(the pre-commit hook accepts the amend: no segment's bytes name such a body,
check/erasure_guard.py). One the base already holds keeps its ``git rm``: no commit
of the range is to blame, and the gate lets it go (unnamed_bodies.py). Such a body a
later commit of the range deleted (a ``ledger-deleted`` of cause ``UNNAMED``) gets
the same take-out, its note saying the deletion is then empty: its put-back brought
the stray back, a second round.

Stores: nothing.
Refuses: nothing.
Returns: ``routed``: the findings, each fault at such a segment or body given that route;
``deleted_unsound``: that route for the deletion of such a segment, or None;
``deleted_unnamed``: that route for the deletion of such a body;
``take_out``: that route for the segments one commit added (``forest verify`` asks it
of a segment HEAD holds as it was written, doors/cli/verify_routes.py).
Test: tests/gate/test_ci_added_segment.py, tests/gate/test_ci_unnamed_body_deleted.py
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path, PurePosixPath

from forest_files import gitio
from forest_files.check.findings import Reported, Route
from forest_files.custody.sources import LEDGER_PREFIX
from forest_files.gate.rebase import Rebase, Wording, in_commit
from forest_files.kernel.shellword import git_step, in_batches
from forest_files.ledger.segments import SEGMENTS_DIR, parse_segment

_SEGMENTS = f"{LEDGER_PREFIX}{SEGMENTS_DIR}/"
_TAKE_OUT = Wording(
    "take the segment out of HEAD", "take the segment out of", "added it",
)  # fmt: skip
_ACTS = "any act it holds goes with it (record it again with forest, then commit)"
_BODY_OUT = Wording("take the body out of HEAD", "take the body out of", "added it")
_NO_ACT = "no act names it: its text was never adopted"


def routed(
    top: Path,
    found: Sequence[Reported],
    head: str,
    rebase: Rebase,
    deleted: frozenset[str] = frozenset(),
    unnamed: frozenset[str] = frozenset(),
) -> list[Reported]:
    """``found`` (ledger faults), each without a route at a segment a commit of the
    range (``rebase.merge_base..head``) added, or at a body no act names (``unnamed``:
    their paths) such a commit added, given the route that takes it out of that commit
    (one ``git log`` for them all, only when there is such a fault); ``deleted``: the
    segments a commit of the range deleted (the route's note says that commit is then
    empty)."""
    wanted = {r.path for r in found if r.path in unnamed or not r.routes}
    paths = sorted(p for p in wanted if p in unnamed or p.startswith(_SEGMENTS))
    if not paths:
        return list(found)
    added = gitio.first_added(top, f"{rebase.merge_base}..{head}", paths)
    by_commit: dict[tuple[str, bool], list[str]] = {}
    for path, commit in sorted(added.items()):
        by_commit.setdefault((commit, path in unnamed), []).append(path)
    routes = {}
    for (commit, bodies), mine in by_commit.items():
        later = any(p in deleted for p in mine)
        route = _take_out(commit, mine, head, rebase, later=later, bodies=bodies)
        routes.update(dict.fromkeys(mine, route))
    return [
        r._replace(routes=(routes[r.path],))
        if r.path in routes and (r.path in unnamed or not r.routes)
        else r
        for r in found
    ]


def _take_out(
    commit: str, paths: list[str], head: str, rebase: Rebase, *, later: bool, bodies: bool
) -> Route:
    """``take_out`` of segments, or of bodies no act names (no act goes with them)."""
    if not bodies:
        return take_out(commit, paths, head=head, rebase=rebase, later=later)
    words = _BODY_OUT._replace(later="deleted it") if later else _BODY_OUT
    return in_commit(commit, _removal(paths), words, head=head, rebase=rebase, also=_NO_ACT)


def _removal(paths: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    return tuple(git_step(*batch) for batch in in_batches(("rm", "-q", "--"), list(paths)))


def take_out(
    commit: str, paths: Sequence[str], *, head: str, rebase: Rebase, later: bool = False
) -> Route:
    """The route that takes the segment files ``paths`` out of ``commit``, which added
    them: in HEAD an amend, else the rewrite stopped there (rewrite.py ``in_commit``;
    ``later``: a later commit deleted them, which the rewrite leaves empty).
    ``forest verify`` gives the same for a segment committed as it was written."""
    words = _TAKE_OUT._replace(later="deleted it") if later else _TAKE_OUT
    return in_commit(commit, _removal(paths), words, head=head, rebase=rebase, also=_ACTS)


def deleted_unsound(
    top: Path, path: str, *, merge_base: str, head: str, rebase: Rebase
) -> Route | None:
    """The route of a ``ledger-deleted`` at ``path`` when a commit of the range added
    that segment as a file that does not verify: put back, it is a fault again, so it
    is taken out of the commit that added it (the deletion then empty); None when the
    range did not add it, or added it sound (putting it back stands)."""
    if not path.startswith(_SEGMENTS):
        return None
    commit = gitio.first_added(top, f"{merge_base}..{head}", [path]).get(path)
    if commit is None:
        return None
    data = gitio.blobs_at(top, commit, [path])[path]
    if data is None:
        return None
    _, errors = parse_segment(data, PurePosixPath(path).name)
    if not errors:
        return None
    return take_out(commit, [path], head=head, rebase=rebase, later=True)


def deleted_unnamed(
    top: Path, path: str, *, merge_base: str, head: str, rebase: Rebase
) -> Route | None:
    """The route of a ``ledger-deleted`` at ``path``, a body no act names that a commit
    of the range added (growth.py, cause ``UNNAMED``): taken out of that commit, the
    deletion then empty; None when no commit of the range added it."""
    commit = gitio.first_added(top, f"{merge_base}..{head}", [path]).get(path)
    if commit is None:
        return None
    return _take_out(commit, [path], head, rebase, later=True, bodies=True)


__all__ = ["deleted_unnamed", "deleted_unsound", "routed", "take_out"]
