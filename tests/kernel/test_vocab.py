"""The closed vocabularies are defined once: schema.sql's CHECK lists match the enums."""

from __future__ import annotations

import re

from forest_files.kernel.vocab import BUCKETS, EDGE_KINDS, JURISDICTIONS
from forest_files.schema import load_schema_sql


def _check_list(sql: str, column: str) -> set[str]:
    match = re.search(rf"CHECK \({column} IN \((.*?)\)\)", sql, re.S)
    assert match, f"no CHECK list for {column}"
    return set(re.findall(r"'([a-z_]+)'", match.group(1)))


def test_schema_bucket_check_matches_enum_accepted() -> None:
    assert _check_list(load_schema_sql(), "bucket") == set(BUCKETS)


def test_schema_edge_kind_check_matches_enum_accepted() -> None:
    assert _check_list(load_schema_sql(), "kind") == set(EDGE_KINDS)


def test_schema_jurisdiction_check_matches_enum_accepted() -> None:
    assert _check_list(load_schema_sql(), "jurisdiction") == set(JURISDICTIONS)
