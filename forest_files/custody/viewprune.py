"""Old views pruned: at most ``MAX_VIEWS`` views kept in ``.git/forest/views``, with
their side files (custody/viewbuild.py builds them).

The folder is opened from the git directory with no link followed (kernel/paths.py
``open_folder``), and each file listed, dated and removed in that descriptor: root
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

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from forest_files.custody import bindmap
from forest_files.kernel.paths import open_folder

MAX_VIEWS = 6
# Side files of older view formats, pruned with their view.
_LEGACY_SIDES = (".segments", ".cfg", ".manifest")


# Listed, dated and removed in the folder's descriptor where the system allows (POSIX)
_BY_FD = os.listdir in os.supports_fd and {os.stat, os.unlink} <= os.supports_dir_fd


def prune(folder: Path) -> None:
    """Old views removed, in ``folder`` opened from the git directory with no link
    followed (kernel/paths.py ``open_folder``): a views folder its owner swapped for a
    link (to root's databases) is never pruned through; nothing is removed then."""
    if not _BY_FD:  # not POSIX: by name, as ever
        _prune_at(str(folder))
        return
    try:
        at = open_folder(str(folder))
    except OSError:
        return  # swapped, or gone: the next build prunes
    try:
        _prune_at(at)
    finally:
        os.close(at)


def _in(at: int | str, name: str) -> dict[str, Any]:
    """``name`` in the folder ``at`` (a descriptor, or a path) as ``os`` arguments."""
    if isinstance(at, str):
        return {"path": os.path.join(at, name), "dir_fd": None}
    return {"path": name, "dir_fd": at}


def _drop(at: int | str, name: str) -> None:
    try:  # noqa: SIM105  (as unlink(missing_ok=True))
        os.unlink(**_in(at, name))
    except FileNotFoundError:
        pass


def _newest_first(at: int | str, names: Iterable[str]) -> list[str]:
    stamped = []
    for name in names:
        try:
            stamped.append((os.stat(**_in(at, name), follow_symlinks=False).st_mtime_ns, name))
        except OSError:
            continue  # pruned by another process meanwhile
    return [n for _, n in sorted(stamped, reverse=True)]


def _prune_at(at: int | str) -> None:
    for old in _newest_first(at, (n for n in os.listdir(at) if n.endswith(".db")))[MAX_VIEWS:]:
        # What is said of the view first, the view last: a crash between leaves a view
        # to rebuild or prune again, never a record of paths with no view beside it.
        for side in (".bound", ".seal", *_LEGACY_SIDES):
            _drop(at, old.removesuffix(".db") + side)
        _drop(at, bindmap.view_record(old))
        _drop(at, old)
    names = os.listdir(at)
    for old in _newest_first(at, (n for n in names if n.endswith(".alias")))[MAX_VIEWS * 8 :]:
        _drop(at, old)  # an alias of a pruned view only costs a rebuild
    # Bound paths a hook remembered for a view never built (check/staged.py).
    orphans = [
        n for n in names if n.endswith(".bound") and n.removesuffix(".bound") + ".db" not in names
    ]
    for old in _newest_first(at, orphans)[MAX_VIEWS * 8 :]:
        _drop(at, old)
