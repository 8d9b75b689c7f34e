"""The working tree's findings of no binding, of a check of the whole tree, of some paths,
or of the whole tree but some paths (files this user may not read).

The watcher meets a bound file, or one ``[require]`` names, that it may not read: it
asks the one check path (path.py ``run_check``, ``without``) for everything else. The
bindings and required files under no left-out path are judged as a check of paths
judges them (``rest`` names the tree beside the left-out paths); the findings of no
binding are those a whole check gives, but for the bindings left out: a contest of a
left-out binding's chain is its binding's to say (judged, it names the heads;
unjudged, it is no contest "bound to no file"), and so is a left-out binding rebound
on merged branches. Both keep their last verdict in the watcher until read again. The
local state git tracks is judged as a whole check judges it, even where the root's
listing names no ``.forest`` (a root this user may enter but not list: ``0311``).

Stores: nothing itself (contests.py and localstate.py remember what they found).
Refuses: nothing.
Returns: ``rest`` (the paths to judge), ``no_binding`` (the local state git's index
tracks, and the contests no binding reports), ``beside`` (the contests of a check
without some paths).
Test: tests/doors/test_watch_unreadable_contests.py,
tests/doors/test_watch_unreadable_require.py, tests/doors/test_watch_unreadable.py,
tests/doors/test_watch_unreadable_local_state.py
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from forest_files.kernel.repopath import under

if TYPE_CHECKING:
    from forest_files.check.engine import Finding
    from forest_files.check.opened import Custody
    from forest_files.custody.bindings import Binding
    from forest_files.custody.ground import Ground
    from forest_files.custody.session import VerdictInputs

# Nothing is bound or required under it: the tree of nothing, when nothing else is left.
_NOTHING = (".git",)


def rest(root: Path, without: tuple[str, ...], bound: Iterable[Binding]) -> tuple[str, ...]:
    """Every entry beside a ``without`` path or beside a folder above one, as a path a
    check takes (a folder holds what lies under it), and the path of every ``bound``
    binding under none of them: the whole tree but ``without``. A folder this user may
    not list is left out whole but for the bound paths in it."""
    above = {"/".join(p.split("/")[:i]) for p in without for i in range(p.count("/") + 1)}
    out: set[str] = set()
    for folder in above:
        try:
            names = os.listdir(root / folder)
        except OSError:
            continue
        out.update(f"{folder}/{n}" if folder else n for n in names)
    out.update(b.path for b in bound)
    kept = {p for p in out - above if not _left_out(p, without)}
    return tuple(sorted(kept)) or _NOTHING


def no_binding(
    root: Path,
    paths: tuple[str, ...],
    before: VerdictInputs,
    findings: list[Finding],
    left: tuple[tuple[str, ...], Custody] | None = None,
) -> list[Finding]:
    """The working tree's findings of no binding: the local state git's index tracks,
    and the contests no binding reports (with ``paths``, only the bindings rebound
    twice with a place under one: a contest bound to no file lies under none; with
    ``left``, the paths left out of the whole tree and its custody, ``beside``)."""
    from forest_files.check import contests, localstate

    out: list[Finding] = []
    # The whole tree but some paths (``left``) holds .forest, whether or not the root's
    # listing (``rest``) could name it: a root this user may not list names none.
    if left is not None or localstate.concerns(paths):
        within = () if left is not None else paths
        out += localstate.findings(localstate.in_worktree(str(root)), within, root=root)
    found = contests.of_worktree(str(root), before[0], before[1], findings)
    if left is not None:
        return out + beside(found, *left)
    return out + contests.within(found, paths)


def beside(found: Iterable[Finding], without: tuple[str, ...], custody: Custody) -> list[Finding]:
    """Of ``found`` (contests.py's findings of a whole check), all but the contests of
    the chains of ``custody``'s bindings under ``without`` and of those bindings
    rebound twice."""
    left = [b for b in custody.bindings if _left_out(b.path, without)]
    if not left:
        return list(found)
    acts = {b.bind_act for b in left}
    none: Ground = (None, None, ())
    heads = {h for b in left for h in custody.grounds.get(b.entry_id, none)[2]}
    return [
        f
        for f in found
        if f.binding not in acts and not (not f.binding and heads.intersection(f.candidates))
    ]


def _left_out(path: str, without: tuple[str, ...]) -> bool:
    return any(under(path, w) for w in without)
