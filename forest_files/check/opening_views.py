"""A git source's binding map and bound paths, from its view (or a replay into one).

``view_map``: the view's binding map, saved beside it (bindmap.py), derived once
from the sealed view (viewkey.py), or built by replaying the source's ledger
(viewbuild.py) and derived from the store that replay wrote, before its seal.
``bound_paths_of``: every path the source's ledger binds, without a replay
(remembered beside the view, from its saved map, or decoded from the segments after
a clone), so a staged change touching none opens nothing;
and whether the decoded ledger may hold a contest (path_scan.py), which only its
view can deny.
Called by opening_git.py only (the one way into custody: check/opening.py).

Stores: the binding map and bound-path set beside the view, the view a replay builds.
Refuses: what a replay refuses (a forged or damaged ledger); a ledger the segment
scan cannot decode is left for the replay to report (bound paths unknown).
Returns: (how the map was known, the map), or None (not cached, no replay asked);
``BoundPaths`` (the paths, or None: not known; whether a contest is possible and no view is there to
deny it; whether the segments or the sealed view said none is possible, remembered).
Test: tests/check/test_opening.py, tests/doors/test_hook_contest_clone.py,
tests/doors/test_doors_cost.py,
tests/doors/test_doors.py::test_staged_view_without_bound_paths_remembers_them_from_its_map_detected
"""

from __future__ import annotations

from typing import NamedTuple

from forest_files.check.opened import MAP, REPLAY, VIEW
from forest_files.custody import bindmap

TYPE_CHECKING = False
if TYPE_CHECKING:  # the light doors (fastcheck, the hook) load none of this
    from pathlib import Path

    from forest_files.custody.source_config import SourceConfig
    from forest_files.store.forest import ForestStore


def view_map(
    root: Path,
    source: str,
    view: Path,
    keep_index_file: bool,
    wanted: list[str] | None,
    replay: bool,
    config: SourceConfig | None = None,
    bound: dict[Path, set[str]] | None = None,
) -> tuple[str, bindmap.BindMap] | None:
    """The view's binding map: saved, derived from the sealed view, or replayed.
    ``bound`` (``open_custody``'s): the view's bound paths, as derived here, are put
    in it when this map is derived (the record written beside it is not read again)."""
    from forest_files.custody.viewkey import bound_paths, view_ready, write_bound_paths

    record = bindmap.view_record(str(view))
    found = bindmap.load(record, view.stem, wanted) if view_ready(view) else None
    if found is not None:
        return MAP, found
    if view_ready(view):
        via = VIEW
        every, free = _opened(view)
    elif replay:
        from forest_files.custody.viewbuild import build_view

        # Said of the store the replay wrote and verified, before it is sealed: the
        # rows the sealed view holds, not read back through a second open of it.
        via = REPLAY
        every, free = build_view(root, source, keep_index_file, view, config, derive=_said)[1]
    else:
        return None
    bindmap.save(record, view.stem, every)
    remembered = bound_paths(view)
    if remembered is None or remembered[1] != free:
        known = {b.path for b in every.bindings} if remembered is None else remembered[0]
        write_bound_paths(view, known, contest_free=free)
    else:
        known = remembered[0]
    if bound is not None:
        bound[view] = known
    if wanted is None:
        return via, every
    keep = set(wanted)
    return via, bindmap.BindMap([b for b in every.bindings if b.path in keep], every.grounds)


def _said(store: ForestStore) -> tuple[bindmap.BindMap, bool]:
    """``store``'s binding map, and whether it holds no contest (said once per view,
    remembered beside it)."""
    from forest_files.check.contests import found as contests_found

    return bindmap.derive(store), contests_found(store.conn) == ([], [])


def _opened(view: Path) -> tuple[bindmap.BindMap, bool]:
    """``_said`` of the sealed view at ``view``."""
    from forest_files.store.forest import ForestStore

    store = ForestStore(view)
    try:
        return _said(store)
    finally:
        store.close()


class BoundPaths(NamedTuple):
    known: set[str] | None  # every path the ledger binds (a superset), None: not known
    forked: bool  # a contest is possible and no view is there to deny it: build one
    contest_free: bool  # the segments or the sealed view said no contest: ask none


def bound_paths_of(root: Path, source: str, view: Path, keep_index_file: bool) -> BoundPaths:
    """Every path the source's ledger binds, without a replay: remembered beside the
    view, from its saved map, or (no view yet: the first hook after a clone) from
    the decoded segments (every path any act binds: a superset); None: not known.
    With it, whether the ledger may hold a contest its view is not there to deny
    (custody/path_scan.py ``forked``): the record says whether the segments ruled
    every contest out (then no view is needed), else only a sealed view answers, so
    a record or map left beside no view (a crash while pruning) is not taken to."""
    from forest_files.custody.viewkey import bound_paths, view_ready

    remembered = bound_paths(view)
    if remembered is not None and remembered[1]:
        return BoundPaths(remembered[0], False, True)
    if view_ready(view):
        if remembered is not None:  # the sealed view said a contest may be there: asked
            return BoundPaths(remembered[0], False, False)  # where said (staged_contests.py)
        known = bindmap.paths_of(bindmap.view_record(str(view)), view.stem)
        if known is None:
            return BoundPaths(None, False, False)
        from forest_files.check.contests import of_view

        free = not of_view(view, [])  # asked of the sealed view once, remembered
        _remember(view, known, contest_free=free)
        return BoundPaths(known, False, free)
    if remembered is not None:  # its view gone: only the one a replay builds answers
        return BoundPaths(remembered[0], True, False)
    else:  # a map left beside no view says nothing of contests: the segments do
        from forest_files.custody import path_scan
        from forest_files.custody.sources import segment_bytes_at
        from forest_files.ledger.acts import LedgerError

        try:
            scanned = path_scan.scan(
                segment_bytes_at(root, source, keep_index_file=keep_index_file)
            )
        except LedgerError:
            return BoundPaths(None, False, False)  # the replay reports it
        if scanned.forked:
            return BoundPaths(scanned.paths, True, False)  # the view a replay builds answers
        _remember(view, scanned.paths, contest_free=True)
        return BoundPaths(scanned.paths, False, True)


def _remember(view: Path, paths: set[str], *, contest_free: bool) -> None:
    from forest_files.custody.viewkey import write_bound_paths
    from forest_files.kernel.state import ensure_dir

    try:
        ensure_dir(view.parent)
        write_bound_paths(view, paths, contest_free=contest_free)
    except OSError:
        pass  # only a slower next hook


__all__ = ["BoundPaths", "bound_paths_of", "view_map"]
