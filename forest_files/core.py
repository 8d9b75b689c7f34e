"""Compatibility surface for code written against ``forest_memory.core``.

Stores: nothing.
Refuses: nothing.
Returns: re-exports of the store, its errors and helpers.
Test: tests/store/test_store_hostile.py
"""

from forest_files.kernel.errors import ForestError
from forest_files.kernel.hashing import hash_body
from forest_files.scrub import default_scrub
from forest_files.store.forest import ForestStore
from forest_files.store.recall import _plain_language_fts_query
from forest_files.store.walk import Trail
from forest_files.turn import commit_turn

__all__ = [
    "ForestError",
    "ForestStore",
    "Trail",
    "_plain_language_fts_query",
    "commit_turn",
    "default_scrub",
    "hash_body",
]
