"""The top-level schema.sql is a byte-identical copy of the packaged one.

Stores: nothing.
Refuses: nothing; fails when the two files differ.
Returns: nothing.
Test: this file.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RESYNC = "cp forest_files/schema.sql schema.sql"


def test_schema_copy_matches_packaged_schema_accepted() -> None:
    packaged = ROOT / "forest_files" / "schema.sql"
    copy = ROOT / "schema.sql"
    assert copy.exists(), f"schema.sql is missing at the repository root; run: {RESYNC}"
    assert copy.read_bytes() == packaged.read_bytes(), (
        "schema.sql differs from forest_files/schema.sql (the packaged one is the "
        f"source of truth); re-sync from the repository root with: {RESYNC}"
    )
