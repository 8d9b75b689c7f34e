"""Every live binding with the ground of its chain, kept beside the index it came from.

A check needs each live binding and its chain's ground. Derived from an index
(folding binding events, querying live heads) that costs about a third of a
second at 10,000 bindings; a binding map keeps the result in one ``marshal``
record, valid exactly as long as its index cannot have changed:

* the working tree's index ``.forest/woods.db``: ``.forest/woods.db.bindmap-<tag>``
  (git-ignored with the index), keyed by the ledger's stat (verdict.ledger_key)
  taken before the sync that brought the index in step, and written only when no
  segment's mtime reaches the stamp taken with that key (git's racy-clean rule);
* a cached custody view (session.py): ``<view>.bindmap-<tag>``. A view is never
  changed once built and its name is the ledger's fingerprint, so its map needs
  no other key.

Stores: those records (temporary file, then rename).
Refuses: nothing. A missing, corrupt, foreign-version or stale record is a miss.
Returns: ``BindMap`` (bindings in the store's order, grounds by entry id) or None.
Test: tests/test_bindmap.py
"""

from __future__ import annotations

import contextlib
import marshal
import os
import sys
from typing import NamedTuple

from forest_files.files.check import Ground, ground_map
from forest_files.files.verdict import LedgerKey
from forest_files.ledger.bindings import Binding

TYPE_CHECKING = False
if TYPE_CHECKING:
    from forest_files.store.forest import ForestStore

FORMAT = 1
_SUFFIX = f".bindmap-{sys.implementation.cache_tag}"
_FIELDS = (
    "bind_act",
    "path",
    "selector",
    "excludes",
    "normalisation",
    "hash_algo",
    "section_hash",
    "file_hash",
    "entry_id",
    "bound_by",
    "retired",
    "contested",
)


class BindMap(NamedTuple):
    bindings: list[Binding]
    grounds: dict[int, Ground]


def derive(store: ForestStore) -> BindMap:
    """The map of ``store`` as it is now (the slow way a record saves)."""
    from forest_files.ledger.bindings import all_bindings

    bindings = all_bindings(store)
    return BindMap(bindings, ground_map(store, bindings))


def worktree_record(root: str) -> str:
    return os.path.join(root, ".forest", "woods.db" + _SUFFIX)


def view_record(view: str) -> str:
    return view + _SUFFIX


def _version() -> str:
    from forest_files import __version__

    return __version__


def save(record: str, key: LedgerKey | str, bmap: BindMap) -> None:
    rows = tuple(tuple(getattr(b, f) for f in _FIELDS) for b in bmap.bindings)
    grounds = tuple((k, *v) for k, v in sorted(bmap.grounds.items()))
    doc = (FORMAT, _version(), key, _FIELDS, rows, grounds)
    tmp = f"{record}.{os.getpid()}.tmp"
    try:
        with open(tmp, "wb") as fh:
            fh.write(marshal.dumps(doc))
        os.replace(tmp, record)
    except (OSError, ValueError):
        forget(tmp)  # a map that cannot be written is only a slower next check


def forget(record: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(record)


def load(record: str, key: LedgerKey | str) -> BindMap | None:
    """The map saved under ``key`` at ``record``, or None."""
    try:
        with open(record, "rb") as fh:
            doc = marshal.loads(fh.read())
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if not isinstance(doc, tuple) or len(doc) != 6 or doc[0] != FORMAT:
        return None
    _, version, saved_key, fields, rows, grounds = doc
    if version != _version() or fields != _FIELDS or saved_key != key:
        return None
    try:
        bindings = [Binding(*row) for row in rows]
        ground_of: dict[int, Ground] = {g[0]: (g[1], g[2], g[3]) for g in grounds}
    except (TypeError, IndexError):
        return None
    return BindMap(bindings, ground_of)
