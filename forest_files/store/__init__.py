"""The custody store: Forest 0.4's ops contract over one SQLite file.

Stores: entries, edges, the retrieval log and meta (see forest_files/schema.sql).
Refuses: everything listed in the headers of the modules of this package.
Returns: ``ForestStore`` and ``Trail``.
Test: tests/test_store_*.py
"""

from forest_files.store.forest import ForestStore
from forest_files.store.walk import Trail

__all__ = ["ForestStore", "Trail"]
