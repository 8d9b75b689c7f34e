"""The custody store: Forest 0.4's ops contract over one SQLite file.

Stores: entries, edges, the retrieval log and meta (see forest_files/schema.sql).
Refuses: everything listed in the headers of the modules of this package.
Returns: ``ForestStore`` and ``Trail``.
Test: tests/test_store_*.py

The two names are loaded on first use, so a door that needs only a module of the
package (the SQL of ``queries``) does not pay for the whole store: the hook
explaining a finding imports ``forest_files.store.queries`` and nothing else.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from forest_files.store.forest import ForestStore
    from forest_files.store.walk import Trail

__all__ = ["ForestStore", "Trail"]


def __getattr__(name: str) -> object:
    if name == "ForestStore":
        from forest_files.store.forest import ForestStore

        return ForestStore
    if name == "Trail":
        from forest_files.store.walk import Trail

        return Trail
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
