"""The field list the adopt replay compares (custody/apply_rules.py ``same_row``) is the
list ``entry_content_id`` hashes: a field added to the hash and not to the list would let a
record differing in it be taken on the row's content id unhashed."""

from __future__ import annotations

import inspect

from forest_files.kernel.hashing import ENTRY_FIELDS, entry_content_id


def test_entry_fields_are_what_the_content_id_hashes_accepted() -> None:
    hashed = set(inspect.signature(entry_content_id).parameters)
    assert set(ENTRY_FIELDS) == hashed
    assert len(ENTRY_FIELDS) == len(hashed)
