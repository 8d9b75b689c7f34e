"""Building a cached custody view: from the nearest earlier view plus the new acts,
or from scratch.

A view (session.py) is the ledger of one source (the git index, a commit)
replayed into a throwaway store. Consecutive ledgers mostly share their acts:
the staged ledger of a commit that records a supersession is HEAD's plus one
segment. So a new view starts, when it can, as a copy of a cached view built
under the same ``forest.toml`` whose inputs are all in the new source **with
the same content**: every segment it applied, by git blob id (a segment kept
under its name but reordered, appended to or truncated is another blob), and
every body its acts reference, by blob id — or absent, if it was absent (an
erased body) — listed, never read. Only the acts of the new segments are
replayed, exactly as ``forest sync`` brings the working tree's index in step.
Anything else — a changed or missing segment, a missing or changed body, an
unexpected error — falls back to the full replay, which fails closed on a
damaged segment or a missing body; so the result never depends on which path
ran, and a source the full replay refuses is refused every time.

Stores: ``.git/forest/views/<fingerprint>.db``, ``<fingerprint>.cfg`` (the
SHA-256 of the forest.toml text it was built under) and
``<fingerprint>.manifest`` (``MANIFEST_VERSION``: the view it was extended from,
each segment file it holds with its blob id, each referenced body with its blob
id or ``-``); at most ``MAX_VIEWS`` views are kept, with their side files
(viewprune.py); each built in a temporary file made, renamed in and removed in one
descriptor of the views folder (viewtemp.py).
Refuses: whatever replay refuses (a forged or damaged ledger at that source).
Returns: how the view was built ("incremental" or "full"); it is in place then (what
it was built from, and ``built_from``: viewmanifest.py). With ``derive``, also what it
said of the built store while still open: after the replay wrote and verified every row
it holds (or applied the new acts to the copy of a sealed view), before the store is
closed, renamed and sealed, so it is what the sealed view holds, without a cold reopen.
Test: tests/custody/test_viewbuild.py, tests/doors/test_hooks.py,
tests/doors/test_hostile_owner_views.py
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar, overload

from forest_files import gitio
from forest_files.custody.ledger_conversion import with_conversion
from forest_files.custody.replay import replay
from forest_files.custody.sources import (
    LedgerBlobs,
    SourceConfig,
    body_reader,
    ledger_blobs,
    snapshot_of,
    source_config,
)
from forest_files.custody.viewkey import seal_view
from forest_files.custody.viewmanifest import Manifest, manifest_rows, sealed_manifest
from forest_files.custody.viewprune import prune
from forest_files.custody.viewtemp import ViewTemp
from forest_files.kernel.errors import ForestError
from forest_files.kernel.state import ensure_dir
from forest_files.ledger.act_order import topo_order
from forest_files.ledger.act_refs import body_refs
from forest_files.ledger.acts import Act, LedgerError, is_hex64
from forest_files.store.dbfile import open_db
from forest_files.store.forest import ForestStore

T = TypeVar("T")


@overload
def build_view(
    root: Path, source: str, keep_index_file: bool, target: Path, read: SourceConfig | None = None
) -> str: ...


@overload
def build_view(
    root: Path,
    source: str,
    keep_index_file: bool,
    target: Path,
    read: SourceConfig | None = None,
    *,
    derive: Callable[[ForestStore], T],
) -> tuple[str, T]: ...


def build_view(
    root: Path,
    source: str,
    keep_index_file: bool,
    target: Path,
    read: SourceConfig | None = None,
    *,
    derive: Callable[[ForestStore], T] | None = None,
) -> str | tuple[str, T]:
    """Build the view of ``source``'s ledger at ``target``; returns how ("incremental"
    from an earlier view, or "full"). ``read``: forest.toml at ``source`` as the caller
    read it (else read here, once). ``derive``: asked of the built store before it is
    closed and sealed (the module: what the sealed view holds); returned with how."""
    if read is None:
        read = source_config(root, source, keep_index_file=keep_index_file)
    cfg = read.config
    cfg_key = hashlib.sha256(read.text.encode()).hexdigest()
    where = ledger_blobs(root, source, keep_index_file=keep_index_file)
    ensure_dir(target.parent)
    said: list[T] = []  # what ``derive`` said of the store the manifest describes
    ask = None if derive is None else (lambda store: said.append(derive(store)))
    try:
        with ViewTemp(target) as temp:  # made, renamed, removed in one folder descriptor
            manifest = _from_nearest(root, target.parent, cfg_key, where, temp, ask)
            if manifest is None:
                temp.discard()
                said.clear()
                manifest = _full(root, cfg.project_id, where, temp.db, ask)
            built = temp.place()  # root's, in another user's git directory: theirs
    except LedgerError as exc:  # a rule that rewrites ledger files: named, with the fix
        named = with_conversion(root, exc)
        named.source = source  # not the working tree's ledger, which `forest verify` reads
        raise named from exc
    seal_view(target, (cfg_key, manifest_rows(manifest)), built)
    prune(target.parent)
    how = "full" if manifest.parent is None else "incremental"
    return how if derive is None else (how, said[-1])


_Ask = Callable[[ForestStore], None] | None


def _full(root: Path, project_id: str, where: LedgerBlobs, tmp: Path, ask: _Ask) -> Manifest:
    """Replay every act of ``where`` into a new store at ``tmp`` (from the very
    listing the manifest records, so the two cannot disagree)."""
    data = gitio.cat_blobs(root, [*where.segments.values(), *where.bodies.values()])
    snapshot = snapshot_of({name: data[blob] for name, blob in where.segments.items()})
    reader = body_reader({h: data[blob] for h, blob in where.bodies.items()})
    store = ForestStore(tmp)
    try:
        _private(store)
        store.init_schema()
        store.drop_text_index()  # a view is judged, never searched
        store.ensure_anchor(project_id)
        named: set[str] = set()  # the bodies the acts name, found as replay walks them
        replay(store, snapshot.ordered(), reader, known=snapshot.acts, named=named)
        _settle(store)
        if ask is not None:
            ask(store)  # every row replayed and verified here, the file still private
    finally:
        store.close()
    return Manifest(dict(where.segments), _referenced(named, where))


def _referenced(named: Iterable[str], where: LedgerBlobs) -> dict[str, str | None]:
    """Each body hash of ``named`` (those acts name), with its blob id in ``where``
    (None: absent). A hash that is no hash can be no body file: it is absent in every
    source."""
    return {h: where.bodies.get(h) for h in named if is_hex64(h)}


def _named(acts: Iterable[Act]) -> set[str]:
    """Every body hash ``acts`` name."""
    return {h for a in acts for h in body_refs(a.payload)}


def _from_nearest(
    root: Path, folder: Path, cfg_key: str, where: LedgerBlobs, temp: ViewTemp, ask: _Ask
) -> Manifest | None:
    """Copy the newest usable view to ``tmp`` and replay only the acts of the segments
    it lacks (those alone are read and decoded); its manifest, or None if no view is
    usable or the incremental path meets anything unexpected."""
    for view in _newest_first(folder.glob("*.db")):
        sealed = sealed_manifest(view)
        if sealed is None or sealed[0] != cfg_key:
            continue
        held = sealed[1]
        if not held.holds(where):
            continue  # another branch's ledger, or its content differs here
        try:
            return _extend(root, view, held, where, temp.db, ask)
        except (ForestError, sqlite3.Error, OSError):
            temp.discard()
            return None  # the full replay decides (and reports what it refuses)
    return None


def _extend(
    root: Path, view: Path, held: Manifest, where: LedgerBlobs, tmp: Path, ask: _Ask
) -> Manifest | None:
    """``view`` copied to ``tmp`` with the acts of the segments it lacks applied."""
    new = sorted(set(where.segments) - set(held.segments))
    data = gitio.cat_blobs(root, [where.segments[n] for n in new])
    acts = snapshot_of({n: data[where.segments[n]] for n in new}).acts
    applied = _applied(view, {d for a in acts.values() for d in a.deps} | set(acts))
    fresh = {i: a for i, a in acts.items() if i not in applied}
    outside = {d for a in fresh.values() for d in a.deps if d not in fresh}
    if not outside <= applied:
        return None  # a dependency the view does not hold: the full replay decides
    referenced = _referenced(_named(fresh.values()), where)  # one walk: read and kept
    wanted = {h for h, blob in referenced.items() if blob is not None}
    bodies = gitio.cat_blobs(root, [where.bodies[h] for h in wanted])
    reader = body_reader({h: bodies[where.bodies[h]] for h in wanted})
    _copy(view, tmp)
    store = ForestStore(tmp)
    try:
        _private(store)
        replay(store, topo_order(fresh.values(), satisfied=outside), reader)
        _settle(store)
        if ask is not None:
            ask(store)  # the sealed view's rows (copied) with the new acts applied here
    finally:
        store.close()
    return Manifest(
        {**held.segments, **{n: where.segments[n] for n in new}},
        {**held.bodies, **referenced},
        parent=view.stem,
    )


def _applied(view: Path, ids: set[str]) -> set[str]:
    """Which of ``ids`` the view has applied."""
    conn = open_db(view, "mode=ro")
    try:
        wanted = sorted(ids)
        found: set[str] = set()
        for start in range(0, len(wanted), 500):
            chunk = wanted[start : start + 500]
            marks = ",".join("?" * len(chunk))
            query = f"SELECT act_id FROM ledger_applied WHERE act_id IN ({marks})"
            found.update(str(r[0]) for r in conn.execute(query, chunk))
        return found
    finally:
        conn.close()


def _copy(view: Path, tmp: Path) -> None:
    """A consistent copy through SQLite's backup API (a reader may hold the view)."""
    source = open_db(view, "mode=ro")
    dest = open_db(tmp)
    try:
        dest.execute("PRAGMA synchronous = OFF")  # a private file until its rename
        source.backup(dest)
    finally:
        dest.close()
        source.close()


def _private(store: ForestStore) -> None:
    """Build a view as the private file it is until its rename: the rollback journal in
    memory (a refused act still rolls back) and no fsync. A crash leaves a temporary
    file no reader finds; a view is believed only through its seal (viewkey.py),
    written after the rename, like every cache record (kernel/cache.py: atomic
    rename, no fsync)."""
    store.conn.execute("PRAGMA journal_mode = MEMORY")
    store.conn.execute("PRAGMA synchronous = OFF")


def _settle(store: ForestStore) -> None:
    """Leave the view in WAL mode, the mode every reader opens it in, while the build's
    connection still writes without fsync (the header changes here, not in a reader):
    so the file renamed into place is the one readers find, sealed with no reopen."""
    store.conn.execute("PRAGMA journal_mode = WAL")


def _newest_first(paths: Iterable[Path]) -> list[Path]:
    stamped = []
    for path in paths:
        try:
            stamped.append((path.stat().st_mtime_ns, path))
        except OSError:
            continue  # pruned by another process meanwhile
    return [p for _, p in sorted(stamped, reverse=True)]
