"""A symlink or submodule under .forest/ledger that a commit of the range added: taken out
of that commit.

A ledger holds regular files only. A link there is a ``stray``, but no removal
committed on top clears it: every commit that still holds it is refused when its
ledger is read (custody/sources.py ``LinkedEntry``), so the gate judged that commit's
ledger broken, with advice (``git rm --cached``, "restore the ledger's file") that
fits no link a branch added; and a link named like a segment, removed, was a
``ledger-deleted`` whose put-back brought the link back. Its one route takes it out
of the commit that added it, as a segment that does not verify is (added_segment.py):
``git rm`` and an amend of HEAD when HEAD added it, else the same at a ``git rebase
-i`` stopped there (rebase.py ``in_commit``), every link that commit added at once;
its note says a later commit that deleted it is then empty. A link inside a folder
the ledger has no use for (``other/x``) is not found by HEAD's verify, which names the
folder alone a stray: the folder's route is then the take-out too, of the whole folder
(``git rm -r``) from every commit that added a link there, so one route clears both
(before, its removal on top left the link in that commit, found next round). A link
the merge-base already held was added by no commit of the range: removed on top, every
commit of the branch before the removal still held it and was refused with no route.
It is taken out of the branch's first commit (a commit of the range whose parents
are outside it; each of them when a branch forked from the base was merged in: before,
none, and its removal on top left the commits before it refused with no route), so no
commit of the branch holds it; its deletion there is
removing garbage (growth.py asks ``Unnamed.linked_at_base``). Take-outs at several
commits are one route: one rebase, every such commit marked ``edit``, each stop's
steps said (before, a route per commit: pasting one rewrote the commits after it, so
the next route named a commit no longer on the branch, a round each). The gate
reads a link from git only as git lists it (a mode, its target's name as a blob):
never through it.

Stores: nothing.
Refuses: nothing.
Returns: ``linked_routes``: the findings, each at such a link, or a stray folder
holding one, given that route (one ``git log`` for the range, and one ``ls-tree`` of
the merge-base for a stray it did not add, only when a finding is a ``stray``); ``deleted_linked``:
that route for the deletion of such a link, or None (deleted_added.py asks it).
Test: tests/gate/test_ci_linked_stray.py, tests/gate/test_ci_linked_in_folder.py,
tests/gate/test_ci_linked_on_base.py, tests/gate/test_ci_linked_rounds.py
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from forest_files import gitio
from forest_files.check.findings import Reported, Route
from forest_files.gate.rebase import (
    AMEND,
    CONTINUE,
    Rebase,
    Step,
    Wording,
    force_push,
    in_commit,
    skip_note,
    steps_text,
)
from forest_files.kernel.paths import LEDGER_PREFIX
from forest_files.kernel.shellword import command_text, git_step, in_batches

_LEDGER = LEDGER_PREFIX.rstrip("/")
_TAKE_OUT = Wording("take the link out of HEAD", "take the link out of", "added it")
_FOLDER_OUT = Wording("take the folder out of HEAD", "take the folder out of", "added its link")
_BASE_OUT = Wording("take the link out of HEAD", "take the link out of", "kept it from the base")
_BASE_HOLDS = (
    "the base holds it: taken out of the branch's first commit (of each line merged into it), "
    "no commit of the branch keeps it"
)
_NEVER_READ = "a ledger holds regular files only: no act goes with a link"


def links_added(top: Path, merge_base: str, head: str) -> dict[str, str]:
    """Each symlink or submodule under the ledger a commit of the range added, with the
    oldest commit that added it (one ``git log``)."""
    return gitio.first_added(top, f"{merge_base}..{head}", [_LEDGER], links=True)


def linked_routes(
    top: Path,
    found: Sequence[Reported],
    head: str,
    rebase: Rebase,
    *,
    later: bool,
    firsts: tuple[str, ...] = (),
) -> list[Reported]:
    """``found``, each ``stray`` at a link a commit of the range added given the route
    that takes it out of that commit; ``later``: HEAD no longer holds them (a later
    commit deleted them, which the rewrite leaves empty). ``firsts``: the range's first
    commits (``first_commits``), out of each of which a link the base held is taken.
    Take-outs at several commits are one route, one rebase stopping at each: a route
    per commit named commits the first one pasted rewrote."""
    if not any(r.finding.detail.startswith("stray:") for r in found):
        return list(found)
    added = links_added(top, rebase.merge_base, head)
    strays = [r.path for r in found if r.finding.detail.startswith("stray:")]
    outs = _link_outs(added, strays)
    outs.update(_folder_outs(added, strays))
    left = [p for p in strays if p not in outs]
    if firsts and left:
        outs.update(_base_outs(top, left, firsts, rebase))
    if not outs:
        return list(found)
    order = [*firsts, *added.values()]
    route = _one_route([o for each in outs.values() for o in each], order, head, rebase, later)
    return [
        r._replace(routes=(route,))
        if r.path in outs and r.finding.detail.startswith("stray:")
        else r
        for r in found
    ]


def first_commits(graph: Mapping[str, tuple[str, ...]]) -> tuple[str, ...]:
    """The range's first commits, whose parents are all outside it (``graph``: each
    commit of the range with its parents): one, or several when a branch forked from
    the merge-base was merged in (each line of the branch starts at one)."""
    return tuple(c for c, ups in graph.items() if not any(u in graph for u in ups))


def links_at(top: Path, rev: str) -> frozenset[str]:
    """Every symlink or submodule under the ledger at ``rev`` (one ``ls-tree``; git
    lists a link by its mode, never through it)."""
    entries = gitio.ls_tree(top, rev, _LEDGER)
    return frozenset(e.path for e in entries if e.mode == "120000" or e.type == "commit")


class _Out(NamedTuple):
    """A take-out: ``steps`` run in ``commit``, said with ``words`` (and ``also``)."""

    commit: str
    steps: tuple[Step, ...]
    words: Wording
    also: tuple[str, ...] = (_NEVER_READ,)


def _base_outs(
    top: Path, strays: Sequence[str], firsts: Sequence[str], rebase: Rebase
) -> dict[str, list[_Out]]:
    """Each of ``strays`` that is, or holds, a link the merge-base held, taken out of
    each of the range's ``firsts`` (``git rm -r``): the commits after them never held
    it (a merge of two lines each without it has it deleted on both sides)."""
    held = links_at(top, rebase.merge_base)
    outs: dict[str, list[_Out]] = {}
    for path in strays:
        if path in held or any(p.startswith(f"{path}/") for p in held):
            steps = (git_step("rm", "-r", "-q", "--", path),)
            outs[path] = [_Out(c, steps, _BASE_OUT, (_BASE_HOLDS, _NEVER_READ)) for c in firsts]
    return outs


def deleted_linked(
    added: Mapping[str, str], path: str, *, head: str, rebase: Rebase
) -> Route | None:
    """The route of a ``ledger-deleted`` at ``path`` (a link named like a segment) when
    a commit of the range added it as a link (``added``: ``links_added``): taken out of
    that commit, the deletion then empty; None when the range added no link there."""
    if path not in added:
        return None
    return _routes(added, head, rebase, later=True)[path]


def _routes(
    added: Mapping[str, str], head: str, rebase: Rebase, *, later: bool
) -> dict[str, Route]:
    """One take-out per commit, of every link it added, by the path of each."""
    routes: dict[str, Route] = {}
    for paths, out in _by_commit(added, list(added)):
        words = out.words._replace(later="deleted it") if later else out.words
        route = in_commit(out.commit, out.steps, words, head=head, rebase=rebase, also=_NEVER_READ)
        routes.update(dict.fromkeys(paths, route))
    return routes


def _by_commit(added: Mapping[str, str], paths: Sequence[str]) -> list[tuple[list[str], _Out]]:
    """Those of ``paths`` the range added as links, grouped by the commit that added
    them, each group with its take-out (``git rm`` of them all)."""
    by_commit: dict[str, list[str]] = {}
    for path in sorted(p for p in paths if p in added):
        by_commit.setdefault(added[path], []).append(path)
    out = []
    for commit, group in by_commit.items():
        steps = tuple(git_step(*batch) for batch in in_batches(("rm", "-q", "--"), group))
        out.append((group, _Out(commit, steps, _TAKE_OUT)))
    return out


def _link_outs(added: Mapping[str, str], strays: Sequence[str]) -> dict[str, list[_Out]]:
    """Each of ``strays`` a commit of the range added as a link, with its take-out."""
    return {p: [out] for paths, out in _by_commit(added, strays) for p in paths}


def _folder_outs(added: Mapping[str, str], strays: Sequence[str]) -> dict[str, list[_Out]]:
    """Each stray folder of ``strays`` holding a link the range added, taken out whole
    (``git rm -r``) of every commit that added one there: its links, and all else it
    held then, go at once, and no later commit brings one back."""
    outs: dict[str, list[_Out]] = {}
    for folder in strays:
        commits = dict.fromkeys(c for p, c in added.items() if p.startswith(f"{folder}/"))
        if folder in added or not commits:
            continue
        steps = (git_step("rm", "-r", "-q", "--", folder),)
        outs[folder] = [_Out(commit, steps, _FOLDER_OUT) for commit in commits]
    return outs


def _one_route(
    outs: Sequence[_Out], order: Sequence[str], head: str, rebase: Rebase, later: bool
) -> Route:
    """``outs`` as one route: at one commit, ``in_commit`` with all their steps; at
    several, one rebase stopping at each (in ``order``, the range's oldest first)."""
    steps: dict[str, dict[Step, None]] = {}
    for out in sorted(outs, key=lambda o: order.index(o.commit)):
        steps.setdefault(out.commit, {}).update(dict.fromkeys(out.steps))
    also = "; ".join(dict.fromkeys(said for o in outs for said in o.also))
    words = min((o.words for o in outs), key=_WORDS.index)
    words = words._replace(later="deleted it") if later else words
    if len(steps) == 1:
        ((commit, at),) = steps.items()
        return in_commit(commit, tuple(at), words, head=head, rebase=rebase, also=also)
    go_on = f"{command_text((*AMEND, '--allow-empty'))} && {command_text(CONTINUE)}"
    stops = "; ".join(f"{rebase.stop(c)} `{steps_text(at)} && {go_on}`" for c, at in steps.items())
    tail = skip_note(words.later) if words.later else ""
    note = f"one rebase stops at each: {stops}{tail}; {force_push()}; {also}"
    label = f"rewrite the branch: take the links out of {', '.join(c[:12] for c in steps)}"
    return Route(label, (rebase.step,), note)


_WORDS = (_FOLDER_OUT, _BASE_OUT, _TAKE_OUT)  # one commit's route says the first it has


__all__ = ["deleted_linked", "first_commits", "linked_routes", "links_added", "links_at"]
