"""Building a cached custody view: from the nearest earlier view plus the new acts,
or from scratch.

A view (session.py) is the ledger of one source (the git index, a commit)
replayed into a throwaway store. Consecutive ledgers mostly share their acts:
the staged ledger of a commit that records a supersession is HEAD's plus one
segment. So a new view starts, when it can, as a copy of a cached view whose
segments are all in the new ledger and that was built under the same
``forest.toml``; only the acts of the new segments are replayed, exactly as
``forest sync`` brings the working tree's index in step. Anything unexpected on that path
falls back to the full replay, so the result never depends on which path ran.

Stores: ``.forest/cache/views/<fingerprint>.db``, ``<fingerprint>.cfg`` (the
SHA-256 of the forest.toml text it was built under) and ``<fingerprint>.segments``
(the segment files it holds, so only the new ones are read and decoded); at most
``MAX_VIEWS`` views are kept, with their side files.
Refuses: whatever replay refuses (a forged or damaged ledger at that source).
Returns: how the view was built ("incremental" or "full"); it is in place then.
Test: tests/test_viewbuild.py
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import tempfile
from collections.abc import Iterable
from pathlib import Path

from forest_files import gitio
from forest_files.errors import ForestError
from forest_files.files import bindmap
from forest_files.ledger.acts import body_hashes, topo_order
from forest_files.ledger.replay import replay
from forest_files.ledger.sources import (
    LedgerBlobs,
    body_reader,
    config_from,
    config_text_from,
    ledger_blobs,
    read_ledger_from,
    snapshot_of,
)
from forest_files.store.forest import ForestStore

MAX_VIEWS = 6
_CFG = ".cfg"
_SEGMENTS = ".segments"


def build_view(root: Path, source: str, keep_index_file: bool, target: Path) -> str:
    """Build the view of ``source``'s ledger at ``target``; returns how ("incremental"
    from an earlier view, or "full")."""
    cfg = config_from(root, source, keep_index_file=keep_index_file)
    cfg_key = hashlib.sha256(
        (config_text_from(root, source, keep_index_file=keep_index_file) or "").encode()
    ).hexdigest()
    where = ledger_blobs(root, source, keep_index_file=keep_index_file)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=".view-", suffix=".db", dir=target.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    tmp.unlink()
    try:
        built = _from_nearest(root, target.parent, cfg_key, where, tmp)
        if not built:
            _discard(tmp)
            snapshot, reader = read_ledger_from(root, source, keep_index_file=keep_index_file)
            store = ForestStore(tmp)
            try:
                store.init_schema()
                store.ensure_anchor(cfg.project_id)
                replay(store, snapshot.ordered(), reader, known=snapshot.acts)
                _settle(store)
            finally:
                store.close()
        os.replace(tmp, target)
    finally:
        _discard(tmp)
    target.with_suffix(_CFG).write_text(cfg_key, encoding="ascii")
    target.with_suffix(_SEGMENTS).write_text("\n".join(sorted(where.segments)), "ascii")
    _prune(target.parent)
    return "incremental" if built else "full"


def _from_nearest(root: Path, folder: Path, cfg_key: str, where: LedgerBlobs, tmp: Path) -> bool:
    """Copy the newest usable view to ``tmp`` and replay only the acts of the segments
    it lacks (those alone are read and decoded); False if no view is usable or the
    incremental path meets anything unexpected."""
    names = set(where.segments)
    for view in _newest_first(folder.glob("*.db")):
        try:
            if view.with_suffix(_CFG).read_text(encoding="ascii") != cfg_key:
                continue
            held = set(view.with_suffix(_SEGMENTS).read_text(encoding="ascii").split())
        except (OSError, UnicodeDecodeError):
            continue
        if not held <= names:
            continue  # it holds segments this ledger lacks (another branch)
        try:
            new = sorted(names - held)
            data = gitio.cat_blobs(root, [where.segments[n] for n in new])
            acts = snapshot_of({n: data[where.segments[n]] for n in new}).acts
            applied = _applied(view, {d for a in acts.values() for d in a.deps} | set(acts))
            fresh = {i: a for i, a in acts.items() if i not in applied}
            outside = {d for a in fresh.values() for d in a.deps if d not in fresh}
            if not outside <= applied:
                return False  # a dependency the view does not hold: the full replay decides
            wanted = {h for a in fresh.values() for h in body_hashes(a) if h in where.bodies}
            bodies = gitio.cat_blobs(root, [where.bodies[h] for h in wanted])
            reader = body_reader({h: bodies[where.bodies[h]] for h in wanted})
            _copy(view, tmp)
            store = ForestStore(tmp)
            try:
                replay(store, topo_order(fresh.values(), satisfied=outside), reader)
                _settle(store)
            finally:
                store.close()
            return True
        except (ForestError, sqlite3.Error, OSError):
            _discard(tmp)
            return False  # the full replay decides (and reports what it refuses)
    return False


def _applied(view: Path, ids: set[str]) -> set[str]:
    """Which of ``ids`` the view has applied."""
    conn = sqlite3.connect(f"{view.as_uri()}?mode=ro", uri=True)
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
    source = sqlite3.connect(f"{view.as_uri()}?mode=ro", uri=True)
    dest = sqlite3.connect(tmp)
    try:
        source.backup(dest)
    finally:
        dest.close()
        source.close()


def _settle(store: ForestStore) -> None:
    store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.conn.execute("PRAGMA journal_mode=DELETE")


def _discard(tmp: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(f"{tmp}{suffix}").unlink(missing_ok=True)


def _newest_first(paths: Iterable[Path]) -> list[Path]:
    stamped = []
    for path in paths:
        try:
            stamped.append((path.stat().st_mtime_ns, path))
        except OSError:
            continue  # pruned by another process meanwhile
    return [p for _, p in sorted(stamped, reverse=True)]


def _prune(folder: Path) -> None:
    for old in _newest_first(folder.glob("*.db"))[MAX_VIEWS:]:
        old.unlink(missing_ok=True)
        for side in (".bound", _CFG, _SEGMENTS):
            old.with_suffix(side).unlink(missing_ok=True)
        Path(bindmap.view_record(str(old))).unlink(missing_ok=True)
    for old in _newest_first(folder.glob("*.alias"))[MAX_VIEWS * 8 :]:
        old.unlink(missing_ok=True)  # an alias of a pruned view only costs a rebuild
