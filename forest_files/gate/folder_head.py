"""One route for a folder moved whole at HEAD: ``forest rebind OLD/ NEW/``, amending HEAD.

``git mv OLD NEW`` of a bound folder committed without the hook leaves one ``moved``
finding per bound file, each with its own rebind amending HEAD (rewrite.py
``at_head``): one amend each. ``forest check`` offers the one directory rebind
(check/folder_move.py); the gate offers it too, said once after the findings, where
pasting it clears the gate: every moved binding under OLD is HEAD's own (HEAD
changed its file, no earlier commit of the range carries the move), so the one
rebind goes into HEAD with an amend. A folder moved in an earlier commit has none
here: its findings' rewrite stops the rebase there, where ``forest check`` prints
the folder's route. Without a range (no ``--base``) the gate judges HEAD alone: the
route is ``forest check``'s, committed on top.

Stores: nothing.
Refuses: nothing.
Returns: ``folder_routes_at``, one ``Route`` per such folder.
Test: tests/gate/test_ci_folder_move.py
"""

from __future__ import annotations

from collections.abc import Iterable

from forest_files.check.findings import Reported, Route
from forest_files.check.folder_move import folder_routes_of
from forest_files.gate.rewrite import Rewrite, into_head


def folder_routes_at(
    items: Iterable[Reported], rewrite: Rewrite | None, carried: frozenset[str]
) -> tuple[Route, ...]:
    """The directory rebind for each folder whose every binding HEAD moved with it
    (``items``: every binding at HEAD; ``carried``: the bindings an earlier commit of
    the range shows failing too)."""
    items = list(items)
    routes = folder_routes_of(r.finding for r in items)
    if rewrite is None or not routes:
        return routes

    def own(r: Reported) -> bool:
        return r.introduced is None and r.path in rewrite.head_changed and r.binding not in carried

    kept = []
    for route in routes:
        old = route.steps[0][-2]  # forest rebind OLD/ NEW/ (check/folder_move.py)
        moved = [r for r in items if r.kind == "moved" and r.path.startswith(old)]
        if all(own(r) for r in moved):
            kept.append(route)
    return into_head(kept)
