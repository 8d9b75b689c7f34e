"""Every path forest-files keeps inside a repository, named once.

Stores: nothing (names only; standard library, so the hook's fast path may
import it for nothing).
Refuses: nothing.
Returns: repository-relative names, with ``/`` separators.
Test: tests/test_paths.py
"""

from __future__ import annotations

CONFIG_NAME = "forest.toml"  # at the repository's root: custody's settings, governed
FOREST_DIR = ".forest"
LEDGER_DIR = f"{FOREST_DIR}/ledger"  # committed: segments and bodies
LEDGER_PREFIX = f"{LEDGER_DIR}/"
SEGMENTS = "segments"  # under LEDGER_DIR
BODIES = "bodies"  # under LEDGER_DIR
INDEX_NAME = "woods.db"  # the local index, under FOREST_DIR (never committed)
INDEX = f"{FOREST_DIR}/{INDEX_NAME}"
CACHE_DIR = f"{FOREST_DIR}/cache"  # never committed
VIEWS_DIR = f"{CACHE_DIR}/views"
CAPTURES_DIR = f"{CACHE_DIR}/captures"
TMP_DIR = f"{CACHE_DIR}/tmp"  # every ledger file is written here first, then renamed in
LOCAL_DB_NAME = "local.db"  # proposals: local, never committed, kept across rebuild
LOCAL_DB = f"{FOREST_DIR}/{LOCAL_DB_NAME}"
WATCH_PID = f"{CACHE_DIR}/watch.pid"  # the running watcher's pid (advice; the lock decides)
WATCH_LOCK = f"{CACHE_DIR}/watch.lock"  # flock held for a watcher's lifetime
WATCH_LOG = f"{CACHE_DIR}/watch.log"  # rotating; paths, selectors, hashes — never text
WATCH_STATE = f"{CACHE_DIR}/watch.json"  # what `forest watch status` shows


def segment_file(stem: str) -> str:
    """The committed file of the segment named ``stem`` (its sha256)."""
    return f"{LEDGER_DIR}/{SEGMENTS}/{stem}.jsonl"


GITATTRIBUTES_LINE = f"{LEDGER_DIR}/** -text"
AUDIT_DB_NAME = "audit.db"  # the local audit log: append-only, never committed, kept across rebuild
AUDIT_DB = f"{FOREST_DIR}/{AUDIT_DB_NAME}"
# .forest/.gitignore: nothing local is ever committed
GITIGNORE_LINES = (f"{INDEX_NAME}*", "cache/", f"{LOCAL_DB_NAME}*", f"{AUDIT_DB_NAME}*")
