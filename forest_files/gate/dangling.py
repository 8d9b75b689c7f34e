"""The gate's routes out of a dangling dependency: bring the missing act back, or take
out the segment that depends on it.

A ledger whose act depends on an act it lacks (``dangling-dep``) does not replay.
Its usual cause: a branch that cherry-picked or copied a segment whose acts depend
on acts recorded on a branch that was never merged (or a hand-made segment
committed with ``--no-verify``). The missing act is looked for in every commit a
ref reaches (holders.py, which accepts only a whole segment holding an act of that
very id):

* found: ``git checkout COMMIT -- SEGMENT BODIES…`` (its own missing dependencies
  too), run in the commit of the range that added the dependent segment — amending
  HEAD when HEAD added it, else at a rebase stopped there (rewrite.py
  ``in_commit``; a merge that alone added it: a ``break`` after it), since a
  commit on top leaves that commit's ledger as it is; on top of HEAD when the
  dependent segment came with the base (or there is none). A missing act in a
  segment a commit of the range deleted is that deletion's (its put-back route
  brings it back). A body the holder's commit lacks is checked out from the
  commit that holds it.
* nowhere (the act, or a body it needs that no erase act records): ``git rm`` the
  dependent segment (and the bodies only its acts name, added with it) in the
  commit that added it; its acts are lost from the branch and must be recorded
  again, which the note says, with the other way out (fetch the branch that
  recorded the act and run again). A segment that came
  with the base gets that advice only, no command. A later commit of the range
  that deleted those files (``git rm`` committed on top, which the pre-commit hook
  accepts: check/dangling_guard.py) is a ``ledger-deleted`` whose put-back would
  bring the dangling segment back: it gets the same take-out (``deleted_dangling``),
  whose note, like the take-out's, says that deletion is then empty.

Stores: nothing.
Refuses: nothing.
Returns: ``dangling_routes``: for each (act id, missing id) of a commit's ledger,
its routes and the hints that say where the missing act was found;
``deleted_dangling``: the take-out of each file a later commit deleted, by its path.
Test: tests/gate/test_ci_dangling_dep.py
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from forest_files import gitio
from forest_files.check.findings import Route
from forest_files.custody.holders import (
    Holder,
    body_path,
    checkouts,
    closure,
    find_holders,
    unbacked,
)
from forest_files.custody.sources import segments_at
from forest_files.gate.rebase import Rebase, Wording, in_commit
from forest_files.kernel.paths import segment_file
from forest_files.kernel.shellword import git_step, in_batches
from forest_files.ledger.acts import body_hashes
from forest_files.ledger.segments import LedgerSnapshot

_BRING = Wording(
    "bring the missing acts into HEAD", "bring them into",
    "added the segment that depends on them", "brought them",
)  # fmt: skip
_TAKE_OUT = Wording(
    "take the segment out of HEAD", "take the segment out of", "added it"
)  # fmt: skip
_MESSAGE = "ledger: bring back the acts it depends on"
_FETCH = "if the branch that recorded it is not fetched here, fetch it and run the gate again"


@dataclass(frozen=True)
class Placing:
    """The range a route must clear."""

    head: str
    merge_base: str | None  # None: no base, no range
    rebase: Rebase | None  # ``git rebase -i MERGE-BASE`` (None without a base)
    deleted: frozenset[str] = frozenset()  # ledger files a commit of the range deleted


class Way(NamedTuple):
    routes: tuple[Route, ...]
    hints: tuple[str, ...]


class _Needs(NamedTuple):
    """What a commit's ledger lacks, and where it is."""

    snap: LedgerSnapshot
    pairs: list[tuple[str, str]]  # (act id, missing act id)
    holders: dict[str, Holder]
    erased: frozenset[str]
    needs: dict[str, dict[str, Holder] | None]  # dependent segment -> what it needs


def _needs(root: Path, at: str) -> _Needs | None:
    """``at``'s dangling dependencies, each dependent segment with what it needs (None:
    something is nowhere, the segment comes out); None when there is none."""
    snap = segments_at(root, at, strict=False)
    pairs = sorted({(a.id, d) for a in snap.acts.values() for d in a.deps if d not in snap.acts})
    if not pairs:
        return None
    holders = find_holders(root, (d for _, d in pairs), snap.acts)
    erased = _erased(snap)
    needs: dict[str, dict[str, Holder] | None] = {}
    for act_id, dep in pairs:
        segment = segment_file(snap.origin(act_id))
        chain = closure(dep, holders, snap.acts)
        if chain is None or unbacked(chain, erased):
            needs[segment] = None
        elif (need := needs.setdefault(segment, {})) is not None:
            need.update((h.segment, h) for h in chain)
    return _Needs(snap, pairs, holders, erased, needs)


def _groups(
    root: Path, at: str, place: Placing, needs: Mapping[str, object]
) -> dict[tuple[str | None, bool], list[str]]:
    """The dependent segments by (the commit of the range that added them, or None;
    whether something they need is nowhere)."""
    added = {}
    if place.merge_base is not None and place.merge_base != at:
        added = gitio.first_added(root, f"{place.merge_base}..{at}", sorted(needs))
    groups: dict[tuple[str | None, bool], list[str]] = {}
    for segment in sorted(needs):
        groups.setdefault((added.get(segment), needs[segment] is None), []).append(segment)
    return groups


def dangling_routes(root: Path, at: str, place: Placing) -> dict[tuple[str, str], Way]:
    """The routes of every dangling dependency of ``at``'s ledger, by (act id,
    missing act id); one route for all the dependent segments one commit added."""
    found = _needs(root, at)
    if found is None:
        return {}
    snap, needs = found.snap, found.needs
    routes: dict[str, tuple[Route, ...]] = {}
    for (commit, lost), segments in _groups(root, at, place, needs).items():
        if lost:
            _, out = _take_out(root, at, snap, commit, segments, place)
        else:
            wanted = {p: h for s in segments for p, h in (needs[s] or {}).items()}
            out = _bring(commit, list(wanted.values()), place)
        routes.update(dict.fromkeys(segments, out))
    return {
        (a, d): Way(
            routes[segment_file(snap.origin(a))], _hints(d, found.holders, snap, found.erased)
        )
        for a, d in found.pairs
    }


def deleted_dangling(root: Path, parent: str, place: Placing) -> dict[str, Route]:
    """The files a commit of the range deleted against ``parent`` (``place.deleted``)
    that the take-out of a dependency held nowhere takes out where they were added (a
    dependent segment a commit of the range added, the bodies only it names added
    with it), each with that take-out: put back, the segment would dangle again."""
    found = _needs(root, parent) if place.rebase is not None else None
    if found is None:
        return {}
    out: dict[str, Route] = {}
    for (commit, lost), segments in _groups(root, parent, place, found.needs).items():
        if lost and commit is not None:
            files, (route,) = _take_out(root, parent, found.snap, commit, segments, place)
            out.update((f, route) for f in files if f in place.deleted)
    return out


def _erased(snap: LedgerSnapshot) -> frozenset[str]:
    """The paths of the bodies the ledger's own erase acts record (never brought)."""
    hashes = (a.fields.get("body_hash") for a in snap.acts.values() if a.kind == "erase")
    return frozenset(body_path(h) for h in hashes if isinstance(h, str))


def _hints(
    dep: str, holders: Mapping[str, Holder], snap: LedgerSnapshot, erased: frozenset[str]
) -> tuple[str, ...]:
    holder = holders.get(dep)
    if holder is None:
        return (f"no commit any ref reaches holds act {dep[:12]} in a whole segment",)
    where = f"act {dep[:12]} is in {holder.segment} at commit {holder.commit[:12]}"
    chain = closure(dep, holders, snap.acts)
    if chain is None:
        return (f"{where}, but an act it depends on is in no commit any ref reaches",)
    if lost := unbacked(chain, erased):
        named = ", ".join(lost)
        return (f"{where}, but no commit any ref reaches holds the bodies it needs: {named}",)
    return (where,)


def _bring(commit: str | None, holders: list[Holder], place: Placing) -> tuple[Route, ...]:
    """Check out every segment and body the dependent segments need, from the commits
    that hold them (a body its segment's commit lacks, from another), in ``commit``
    (which added the dependent segments), or on top."""
    if any(h.segment in place.deleted for h in holders):
        note = "a commit of the range deleted it: the ledger-deleted finding's route brings it back"
        return (Route("put the deleted segment back", note=note),)
    steps = tuple(
        git_step(*batch)  # literal pathspecs if need be
        for source, paths in checkouts(holders).items()
        for batch in in_batches(("checkout", source, "--"), paths)
    )
    if commit is not None and place.rebase is not None:
        return (in_commit(commit, steps, _BRING, head=place.head, rebase=place.rebase),)
    note = "the acts brought are judged like every new act of the range"
    if place.merge_base is not None:
        note += "; the dependent segment came with the base: it needs them there too"
    commit_step = git_step("commit", "-m", _MESSAGE)
    return (Route("bring the missing acts back", (*steps, commit_step), note),)


def _take_out(
    root: Path,
    at: str,
    snap: LedgerSnapshot,
    commit: str | None,
    segments: list[str],
    place: Placing,
) -> tuple[list[str], tuple[Route, ...]]:
    """``git rm`` the dependent segments, and the bodies only their acts name that
    ``commit`` added with them, in ``commit``; advice alone when the base holds them.
    Returns the files taken out, and the routes."""
    names = {s.rsplit("/", 1)[1].removesuffix(".jsonl") for s in segments}
    lost = {a for a, where in snap.found_in.items() if set(where) <= names}
    kept = {h for a in snap.acts if a not in lost for h in body_hashes(snap.acts[a])}
    only = sorted({h for a in lost for h in body_hashes(snap.acts[a])} - kept)
    if commit is None or place.rebase is None or place.merge_base is None:
        note = (
            f"no commit here holds the act it depends on; {_FETCH}; else take the "
            "segment out in the commit that added it (on the base branch when it came "
            "with the base): the acts it holds are then lost and must be recorded again"
        )
        return [], (Route("the act it depends on is nowhere here", note=note),)
    added = gitio.first_added(root, f"{place.merge_base}..{at}", [body_path(h) for h in only])
    files = [*segments, *(body_path(h) for h in only if added.get(body_path(h)) == commit)]
    steps = tuple(git_step(*b) for b in in_batches(("rm", "-q", "--"), files))
    also = (
        f"the {len(lost)} act(s) it holds are lost from this branch and must be recorded "
        f"again; {_FETCH} instead: the route then brings the act back"
    )
    # a later commit of the range that deleted them is left empty by the rewrite
    later = any(f in place.deleted for f in files)
    words = _TAKE_OUT._replace(later="deleted it") if later else _TAKE_OUT
    route = in_commit(commit, steps, words, head=place.head, rebase=place.rebase, also=also)
    return files, (route,)
