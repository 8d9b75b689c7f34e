"""Old views pruned: at most ``MAX_VIEWS`` views kept in ``.git/forest/views``, with
their side files (custody/viewbuild.py builds them).

The folder is opened from the git directory with no link followed (kernel/held.py
``hold``), and each file listed, dated and removed in that descriptor: root
pruning the views of a repository another user owns never removes a file through a
folder that user swapped for a link (to a folder of root's databases, say).
Stores: nothing (removes the oldest views, their ``.bound``, ``.seal``, binding-map
record and older formats' side files; aliases and orphan ``.bound`` files past
``MAX_VIEWS * 8``).
Refuses: nothing (a folder swapped for a link, or gone: nothing removed).
Returns: nothing.
Test: tests/custody/test_viewbuild.py, tests/doors/test_hostile_owner_state.py
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from forest_files.custody import bindmap
from forest_files.kernel.held import HeldFolder, hold

MAX_VIEWS = 6
# Side files of older view formats, pruned with their view.
_LEGACY_SIDES = (".segments", ".cfg", ".manifest")


def prune(folder: Path) -> None:
    """Old views removed, in ``folder`` opened from the git directory with no link
    followed (kernel/held.py ``hold``): a views folder its owner swapped for a link (to
    root's databases) is never pruned through; nothing is removed then."""
    try:
        held = hold(folder)
    except OSError:
        return  # swapped, or gone: the next build prunes
    with held:
        _prune_at(held)


def _newest_first(at: HeldFolder, names: Iterable[str]) -> list[str]:
    stamped = []
    for name in names:
        try:
            stamped.append((at.stat(name).st_mtime_ns, name))
        except OSError:
            continue  # pruned by another process meanwhile
    return [n for _, n in sorted(stamped, reverse=True)]


def _prune_at(at: HeldFolder) -> None:
    listed = at.listdir()
    for old in _newest_first(at, (n for n in listed if n.endswith(".db")))[MAX_VIEWS:]:
        # What is said of the view first, the view last: a crash between leaves a view
        # to rebuild or prune again, never a record of paths with no view beside it.
        for side in (".bound", ".seal", *_LEGACY_SIDES):
            at.unlink(old.removesuffix(".db") + side, missing_ok=True)
        at.unlink(bindmap.view_record(old), missing_ok=True)
        at.unlink(old, missing_ok=True)
    names = at.listdir()
    for old in _newest_first(at, (n for n in names if n.endswith(".alias")))[MAX_VIEWS * 8 :]:
        at.unlink(old, missing_ok=True)  # an alias of a pruned view only costs a rebuild
    # Bound paths a hook remembered for a view never built (check/staged.py).
    orphans = [
        n for n in names if n.endswith(".bound") and n.removesuffix(".bound") + ".db" not in names
    ]
    for old in _newest_first(at, orphans)[MAX_VIEWS * 8 :]:
        at.unlink(old, missing_ok=True)
