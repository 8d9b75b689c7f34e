"""Building a cached custody view: from the nearest earlier view plus the new acts,
or from scratch.

A view (session.py) is the ledger of one source (the git index, a commit)
replayed into a throwaway store. Consecutive ledgers mostly share their acts:
the staged ledger of a commit that records a supersession is HEAD's plus one
segment. So a new view starts, when it can, as a copy of a cached view whose
applied acts are all in the new ledger and that was built under the same
``forest.toml``; only the missing acts are replayed, exactly as ``forest sync``
brings the working tree's index in step. Anything unexpected on that path
falls back to the full replay, so the result never depends on which path ran.

Stores: ``.forest/cache/views/<fingerprint>.db`` and ``<fingerprint>.cfg`` (the
SHA-256 of the forest.toml text it was built under); at most ``MAX_VIEWS``
views are kept, with their side files.
Refuses: whatever replay refuses (a forged or damaged ledger at that source).
Returns: how the view was built ("incremental" or "full"); it is in place then.
Test: tests/test_viewbuild.py
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path

from forest_files.errors import ForestError
from forest_files.files import bindmap
from forest_files.ledger.acts import Act, topo_order
from forest_files.ledger.replay import BodyReader, replay
from forest_files.ledger.sources import config_from, config_text_from, read_ledger_from
from forest_files.store.forest import ForestStore

MAX_VIEWS = 6
_CFG = ".cfg"


def build_view(root: Path, source: str, keep_index_file: bool, target: Path) -> str:
    """Build the view of ``source``'s ledger at ``target``; returns how ("incremental"
    from an earlier view, or "full")."""
    cfg = config_from(root, source, keep_index_file=keep_index_file)
    cfg_key = hashlib.sha256(
        (config_text_from(root, source, keep_index_file=keep_index_file) or "").encode()
    ).hexdigest()
    snapshot, reader = read_ledger_from(root, source, keep_index_file=keep_index_file)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=".view-", suffix=".db", dir=target.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    tmp.unlink()
    try:
        built = _from_nearest(target.parent, cfg_key, snapshot.acts, reader, tmp)
        if not built:
            _discard(tmp)
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
    _prune(target.parent)
    return "incremental" if built else "full"


def _from_nearest(
    folder: Path, cfg_key: str, acts: Mapping[str, Act], reader: BodyReader, tmp: Path
) -> bool:
    """Copy the newest usable view to ``tmp`` and replay the acts it lacks; False if
    no view is usable or the incremental path meets anything unexpected."""
    for view in _newest_first(folder.glob("*.db")):
        try:
            if view.with_suffix(_CFG).read_text(encoding="ascii") != cfg_key:
                continue
            applied = _applied(view)
        except (OSError, UnicodeDecodeError, sqlite3.Error):
            continue
        if not applied <= acts.keys():
            continue  # it holds acts this ledger lacks (another branch)
        try:
            _copy(view, tmp)
            store = ForestStore(tmp)
            try:
                fresh = {i: a for i, a in acts.items() if i not in applied}
                outside = {d for a in fresh.values() for d in a.deps if d not in fresh}
                order = topo_order(fresh.values(), satisfied={d for d in outside if d in applied})
                replay(store, order, reader)
                _settle(store)
            finally:
                store.close()
            return True
        except (ForestError, sqlite3.Error, OSError):
            _discard(tmp)
            return False  # the full replay decides (and reports what it refuses)
    return False


def _applied(view: Path) -> set[str]:
    conn = sqlite3.connect(f"{view.as_uri()}?mode=ro", uri=True)
    try:
        return {str(r[0]) for r in conn.execute("SELECT act_id FROM ledger_applied")}
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
        for side in (".bound", _CFG):
            old.with_suffix(side).unlink(missing_ok=True)
        Path(bindmap.view_record(str(old))).unlink(missing_ok=True)
    for old in _newest_first(folder.glob("*.alias"))[MAX_VIEWS * 8 :]:
        old.unlink(missing_ok=True)  # an alias of a pruned view only costs a rebuild
