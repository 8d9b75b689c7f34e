"""Every path forest-files keeps inside a repository, named once.

Stores: nothing (names only; standard library, so the hook's fast path may
import it for nothing).
Refuses: nothing.
Returns: repository-relative names, with ``/`` separators.
Test: tests/test_paths.py
"""

from __future__ import annotations

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


def segment_file(stem: str) -> str:
    """The committed file of the segment named ``stem`` (its sha256)."""
    return f"{LEDGER_DIR}/{SEGMENTS}/{stem}.jsonl"


GITIGNORE_LINES = (f"{INDEX_NAME}*", "cache/")  # .forest/.gitignore
GITATTRIBUTES_LINE = f"{LEDGER_DIR}/** -text"
