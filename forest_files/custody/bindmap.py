"""Every live binding with the ground of its chain, kept beside the index it came from.

A check needs each live binding and its chain's ground. Derived from an index
(folding binding events, querying live heads) that costs about a third of a
second at 10,000 bindings; a binding map keeps the result in one ``marshal``
record, valid exactly as long as its index cannot have changed:

* the working tree's index ``.git/forest/woods.db``: ``.git/forest/woods.db.bindmap-<tag>``
  (git-ignored with the index), keyed by the ledger's stat (verdict.ledger_key)
  taken before the sync that brought the index in step, and written only when no
  segment's mtime reaches the stamp taken with that key (git's racy-clean rule);
* a cached custody view (session.py): ``<view>.bindmap-<tag>``. A view is never
  changed once built and its name is the ledger's fingerprint, so its map needs
  no other key.

Stores: those records (temporary file, then rename).
Refuses: nothing. A missing, corrupt, foreign-version or stale record is a miss.
Returns: ``BindMap`` (bindings in the store's order, grounds by entry id) or None.
Test: tests/custody/test_bindmap.py
"""

from __future__ import annotations

import marshal
import os
import sys
from collections.abc import Iterable
from operator import attrgetter

from forest_files.kernel import cache
from forest_files.kernel.paths import INDEX_NAME
from forest_files.kernel.state import worktree_path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from forest_files.custody.bindings import Binding
    from forest_files.custody.ground import Ground
    from forest_files.custody.verdict import LedgerKey
    from forest_files.store.forest import ForestStore

FORMAT = 5  # 2: no file hash (a ledger-recorded hash is no evidence; check.py); 3: status rows;
# 4: a sealed ground a forget erased is marked (custody/ground.py); 5: status rows are two
# columns, selector and ground (no path: ``forest status`` never prints it)
_SUFFIX = f".bindmap-{sys.implementation.cache_tag}"
_KIND = "bindmap"
_FIELDS = (
    "bind_act",
    "path",
    "selector",
    "excludes",
    "normalisation",
    "hash_algo",
    "section_hash",
    "entry_id",
    "bound_by",
    "retired",
    "contested",
)
_ROW = len(_FIELDS) + 1  # a saved row: the fields, then the ground
# Where a saved row holds these: named, so a reordered _FIELDS cannot silently
# group or report by another field.
_ACT, _PATH, _SELECTOR, _ENTRY = (
    _FIELDS.index(f) for f in ("bind_act", "path", "selector", "entry_id")
)


class BindMap:
    """Live bindings in the store's order, and their chains' grounds by entry id. A
    plain class, not a NamedTuple: ``forest status`` would import typing for it."""

    __slots__ = ("bindings", "grounds")

    def __init__(self, bindings: list[Binding], grounds: dict[int, Ground]) -> None:
        self.bindings = bindings
        self.grounds = grounds

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BindMap):
            return NotImplemented
        return self.bindings == other.bindings and self.grounds == other.grounds

    __hash__ = None  # type: ignore[assignment]  # mutable lists inside, as before


def derive(store: ForestStore) -> BindMap:
    """The map of ``store`` as it is now (the slow way a record saves)."""
    from forest_files.custody.bindings import all_bindings

    return of_bindings(store, all_bindings(store))


def of_bindings(store: ForestStore, bindings: list[Binding]) -> BindMap:
    """The map of ``bindings`` (all live bindings of ``store``), as a saved map
    holds them: the same map however it was found."""
    from forest_files.custody.ground import ground_map

    return BindMap(bindings, ground_map(store, bindings))


def worktree_record(root: str) -> str:
    return os.path.join(worktree_path(root, create=False), INDEX_NAME + _SUFFIX)


def view_record(view: str) -> str:
    return view + _SUFFIX


def _version() -> str:
    from forest_files import __version__

    return __version__


def save(record: str, key: LedgerKey | str, bmap: BindMap) -> None:
    """Each path's bindings (with their grounds) marshalled apart, so a hook judging
    one staged file unpacks one entry, not ten thousand."""
    by_path: dict[str, list[Any]] = {}  # rows of str, int, bool, tuple and None
    fields, ground_of = attrgetter(*_FIELDS), bmap.grounds.get  # one call a binding
    for b in bmap.bindings:  # one pass: the paths' order is the order they are met in
        row = (*fields(b), ground_of(b.entry_id))
        rows = by_path.get(row[_PATH])
        if rows is None:
            by_path[row[_PATH]] = [row]
        else:
            rows.append(row)
    packed = {path: marshal.dumps(tuple(rows)) for path, rows in by_path.items()}
    order = tuple(by_path)
    doc = (FORMAT, _version(), key, _FIELDS, order, packed, _status_rows(order, by_path))
    cache.write(record, _KIND, doc)  # a map that cannot be written: a slower next check


def _status_rows(order: tuple[str, ...], by_path: dict[str, list[Any]]) -> bytes | None:
    """The selector and the ground content id of every binding in load order, as two
    columns packed once for ``forest status`` (what its table prints; two tuples, not
    a tuple a binding); None when a binding has no single ground."""
    selectors: list[str] = []
    grounds: list[str] = []
    for path in order:
        for row in by_path[path]:
            ground = row[-1]
            if ground is None or ground[0] is None or ground[2]:
                return None
            selectors.append(row[_SELECTOR])
            grounds.append(ground[0])
    return marshal.dumps((tuple(selectors), tuple(grounds)))


def forget(record: str) -> None:
    cache.forget(record)


# A long-lived process (the watcher) loads the same record for every batch: decoded
# once per version of the file on disk (its stat).
_DECODED: dict[str, tuple[tuple[int, int, int, int], Any]] = {}


def load(
    record: str,
    key: LedgerKey | str,
    paths: Iterable[str] | None = None,
    *,
    under: tuple[str, ...] = (),
) -> BindMap | None:
    """The map saved under ``key`` at ``record`` (only ``paths``' bindings if given;
    only those at or under a path of ``under`` if that is given)."""
    doc = _doc(record, key)
    if doc is None:
        return None
    order, packed = doc[4], doc[5]
    wanted = order if paths is None else [p for p in dict.fromkeys(paths) if p in packed]
    if under:
        exact = [p for p in under if p in packed]
        if len(exact) == len(under):  # files (the common case): no scan of every path
            keep = set(exact)
            wanted = exact if paths is None else [p for p in wanted if p in keep]
        else:
            from forest_files.kernel.repopath import under as lies_under

            wanted = [p for p in wanted if any(lies_under(p, q) for q in under)]
    from forest_files.custody.bindings import made  # not needed by status_rows

    rows: list[Any] = []
    try:
        for path in wanted:
            rows += marshal.loads(packed[path])
        if any(len(row) != _ROW for row in rows):
            return None
        # Each row is Binding's fields in order (test_bindmap checks _FIELDS), then
        # its ground, which ``made`` leaves out.
        bindings = made(rows)
        grounds: dict[int, Ground] = {row[_ENTRY]: row[-1] for row in rows if row[-1] is not None}
    except (KeyError, TypeError, ValueError, EOFError, IndexError):
        return None
    return BindMap(bindings, grounds)


def paths_of(record: str, key: LedgerKey | str) -> set[str] | None:
    """Every path a binding of the map saved under ``key`` names, without unpacking
    any binding; None when the record is missing or stale."""
    doc = _doc(record, key)
    return None if doc is None else set(doc[4])


def status_rows(
    record: str, key: LedgerKey | str
) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """The selectors and the ground content ids of every binding of the map saved
    under ``key``, in load order, as two columns of one length, without unpacking any
    binding; None when the record is missing or stale, or a binding has no single
    ground."""
    doc = _doc(record, key)
    if doc is None or doc[6] is None:
        return None
    try:
        columns = marshal.loads(doc[6])
    except (EOFError, ValueError, TypeError):
        return None
    if not isinstance(columns, tuple) or len(columns) != 2:
        return None
    selectors, grounds = columns
    if not isinstance(selectors, tuple) or not isinstance(grounds, tuple):
        return None
    return (selectors, grounds) if len(selectors) == len(grounds) else None


def clean_rows(record: str, key: LedgerKey | str) -> list[tuple[str, ...]] | None:
    """(path, selector, bind act, ground content id, ground section hash) of every
    binding of the map saved under ``key``, in load order, unpacked as plain rows (no
    ``Binding``: ``forest status --json`` of a remembered clean verdict); None when
    the record is missing or stale, or a binding has no single ground (as
    ``status_rows``)."""
    doc = _doc(record, key)
    if doc is None:
        return None
    order, packed = doc[4], doc[5]
    rows: list[tuple[str, ...]] = []
    try:
        for path in order:
            for row in marshal.loads(packed[path]):
                ground = row[-1]
                if len(row) != _ROW or ground is None or ground[0] is None or ground[2]:
                    return None
                rows.append((row[_PATH], row[_SELECTOR], row[_ACT], ground[0], ground[1]))
    except (KeyError, TypeError, ValueError, EOFError, IndexError):
        return None
    return rows


def _doc(record: str, key: LedgerKey | str) -> tuple[Any, ...] | None:
    """The decoded record when it is of this format and version and saved under ``key``."""
    try:
        with cache.open_record(record) as fh:
            st = os.fstat(fh.fileno())
            stamp = (st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns)
            known = _DECODED.get(record)
            if known is not None and known[0] == stamp:
                doc = known[1]  # a tuple: nothing in it is ever changed
            else:
                doc = cache.decode(record, _KIND, fh.read())
                _DECODED[record] = (stamp, doc)
    except OSError:
        return None
    if not isinstance(doc, tuple) or len(doc) != 7 or doc[0] != FORMAT:
        return None
    _, version, saved_key, fields, order, packed, _status = doc
    if version != _version() or fields != _FIELDS or saved_key != key:
        return None
    if not isinstance(order, tuple) or not isinstance(packed, dict):
        return None
    return doc
