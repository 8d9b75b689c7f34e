"""One route for a folder moved whole: ``forest rebind OLD/ NEW/`` after ``git mv OLD NEW``.

``forest check`` of the working tree lists one ``moved`` finding per bound file of a
moved folder, each with its own rebind. When every binding under one directory is
``moved`` to the same place under one other directory (the file and the selector
inside it unchanged), the directory rebind records them all in one segment, as the
hook's ``supersede --staged`` does at the git index; this route says so once, after
the findings. It is offered only where pasting it records exactly those moves:
a binding under OLD that is clean, drifted, gone, or moved elsewhere (edited on the
way, split off into another folder) leaves the folder to the findings' own routes,
and so does a place in a file whose name is not UTF-8 (its route renames it first).

Stores: nothing.
Refuses: nothing.
Returns: ``folder_routes``, one ``Route`` per such directory holding two moved
files or more (one file is its own finding's route), outermost directories named;
``folder_routes_of`` the same from findings (the watcher's latest verdicts).
Test: tests/check/test_folder_route.py, tests/doors/test_watch_folder_route.py
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from forest_files.check.findings import Route
from forest_files.kernel.paths import LEDGER_PREFIX
from forest_files.kernel.repopath import not_utf8_reason
from forest_files.kernel.shellword import forest_step, git_step
from forest_files.text.selector import parse_selector, render

if TYPE_CHECKING:
    from collections.abc import Iterable

    from forest_files.check.engine import Finding
    from forest_files.check.findings import CheckReport


def _folders(old: str, new: str) -> tuple[str, str] | None:
    """The directories a file moved between when only they changed (``a/x/f.md`` ->
    ``b/x/f.md``: ``a``, ``b``); None when the file name changed, either side is
    the top of the work tree, or one directory holds the other."""
    o, n = old.split("/"), new.split("/")
    same = 0
    while same < min(len(o), len(n)) and o[-1 - same] == n[-1 - same]:
        same += 1
    if same == 0 or same == len(o) or same == len(n):
        return None
    old_dir, new_dir = "/".join(o[: len(o) - same]), "/".join(n[: len(n) - same])
    if new_dir.startswith(old_dir + "/") or old_dir.startswith(new_dir + "/"):
        return None  # into its own subfolder or out of it: a directory rebind refuses
    return old_dir, new_dir


def _pair(f: Finding) -> tuple[str, str] | None:
    """The directory move ``f`` is part of, when the directory rebind would put its
    binding exactly where its unchanged section stands."""
    if f.kind != "moved" or not f.moved_to or not_utf8_reason(f.moved_to) is not None:
        return None
    new_path = parse_selector(f.moved_to).path
    pair = _folders(f.path, new_path)
    if pair is None:
        return None
    if render(replace(parse_selector(f.selector), path=new_path)) != f.moved_to:
        return None  # moved inside the file as well: the directory rebind would miss it
    return pair


def folder_routes(report: CheckReport) -> tuple[Route, ...]:
    """The directory rebind for each folder whose every binding moved with it."""
    return folder_routes_of(r.finding for r in (*report.items, *report.extra))


def folder_routes_of(findings: Iterable[Finding]) -> tuple[Route, ...]:
    """``folder_routes`` of every binding's latest finding (the watcher's verdicts:
    doors/watch/respond.py), which must name every binding under a folder."""
    found = [f for f in findings if f.binding]
    moves: dict[tuple[str, str], set[str]] = {}
    files: dict[tuple[str, str], set[str]] = {}
    for f in found:
        pair = _pair(f)
        if pair is not None:
            moves.setdefault(pair, set()).add(f.binding)
            files.setdefault(pair, set()).add(f.path)
    held: dict[str, set[str]] = {}  # each directory -> every binding under it
    for f in found:
        parts = f.path.split("/")[:-1]
        for depth in range(1, len(parts) + 1):
            held.setdefault("/".join(parts[:depth]), set()).add(f.binding)
    routes = []
    for (old, new), moved in sorted(moves.items()):
        if len(files[(old, new)]) < 2 or held.get(old) != moved:
            continue  # one file: its whole-file rebind carries its sections
        step = forest_step("rebind", f"{old}/", f"{new}/")
        ledger = git_step("add", "--", LEDGER_PREFIX.rstrip("/"))
        label = f"or move the {len(moved)} bindings under {old}/ at once"
        routes.append(Route(label, (step, ledger)))
    return tuple(routes)
