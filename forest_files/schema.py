"""Where the schema lives: packaged (what ``init_schema`` runs) and top-level.

Stores: nothing.
Refuses: nothing.
Returns: the packaged SQL text and the repository copy's path (they are
byte-identical; tests/face/test_schema_sync.py proves it).
Test: tests/face/test_schema_sync.py
"""

from __future__ import annotations

from pathlib import Path

from forest_files.store.forest import load_schema_sql
from forest_files.store.gate import FOREST_CONTRACT_VERSION, FOREST_FILES_SCHEMA

__all__ = ["FOREST_CONTRACT_VERSION", "FOREST_FILES_SCHEMA", "dev_schema_path", "load_schema_sql"]


def dev_schema_path() -> Path:
    """The top-level ``schema.sql`` of a source checkout."""
    return Path(__file__).resolve().parents[1] / "schema.sql"
