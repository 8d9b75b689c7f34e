"""The entry record's one-pass check (act_records.entry_fast) accepts exactly what the full
parse accepts, and a record it declines is refused with the full parse's own words.

Test: forest_files/ledger/kinds.py (EntryRecord.parse, _Reader.text/hex64),
forest_files/ledger/fault.py (is_hex64).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from forest_files.kernel import bounds
from forest_files.ledger import kinds
from forest_files.ledger.act_records import entry_fast
from forest_files.ledger.fault import LedgerError, is_hex64
from tests.helpers.acts import act_object, sample_act


def _entry() -> dict[str, Any]:
    return copy.deepcopy(act_object(sample_act("adopt"))["entry"])


def _full(value: dict[str, Any]) -> kinds.EntryRecord:
    """The full parse alone (the fast path bypassed: a non-dict Mapping is not taken)."""
    from types import MappingProxyType

    return kinds.EntryRecord.parse(MappingProxyType(value), act_id="a" * 64, key="entry")


class _Str(str):
    """A str subclass: the fast path declines it, the full parse decides."""


HOSTILE: list[tuple[str, object]] = [
    ("scope", ""),
    ("scope", " \t\u2003"),  # blank in every whitespace class
    ("bucket", "x" * (kinds.MAX_TEXT + 1)),
    ("signature", 7),
    ("created_at", None),
    ("content_id", "A" * 64),
    ("content_id", "a" * 63),
    ("content_id", "a" * 64 + "\n"),
    ("body_hash", "g" * 64),
    ("source", 3),
    ("source", "s" * (kinds.MAX_TEXT + 1)),
    ("nonce", ["n"]),
    ("nonce", "n" * (kinds.MAX_TEXT + 1)),
    ("meta", []),
    ("meta", {"k": float("nan")}),
    ("meta", {"k": 1 << (bounds.MAX_META_INT_BITS + 1)}),
    ("origins", {}),
    ("origins", [["b" * 64]]),
    ("origins", [["B" * 64, "derived_from"]]),
    ("origins", [["b" * 64, 1]]),
    ("origins", [("b" * 64, "derived_from")]),
    ("origins", [["b" * 64, "derived_from"]] * (bounds.MAX_ACT_ORIGINS + 1)),
]


@pytest.mark.parametrize(("key", "value"), HOSTILE)
def test_entry_fast_hostile_field_refused(key: str, value: object) -> None:
    """Each bad field: the fast path declines it and both ways refuse with one message."""
    entry = _entry()
    entry[key] = value
    assert entry_fast(kinds.EntryRecord, entry) is None
    with pytest.raises(LedgerError) as fast:
        kinds.EntryRecord.parse(entry, act_id="a" * 64, key="entry")
    with pytest.raises(LedgerError) as full:
        _full(entry)
    assert str(fast.value) == str(full.value)


@pytest.mark.parametrize(
    ("key", "value"),
    [("source", ""), ("nonce", ""), ("source", "s" * kinds.MAX_TEXT), ("meta", {})],
)
def test_entry_fast_edge_values_accepted(key: str, value: object) -> None:
    """Values on the bounds (blank source and nonce allowed, text at MAX_TEXT, no
    meta): both ways make the same record."""
    entry = _entry()
    entry[key] = value
    fast = entry_fast(kinds.EntryRecord, entry)
    assert fast is not None
    assert fast == _full(entry)
    assert fast == kinds.EntryRecord.parse(entry, act_id="a" * 64, key="entry")


def test_entry_fast_str_subclass_left_to_full_parse_accepted() -> None:
    """A str subclass is not taken by the one-pass check; the full parse decides."""
    entry = _entry()
    entry["scope"] = _Str(entry["scope"])
    assert entry_fast(kinds.EntryRecord, entry) is None
    assert kinds.EntryRecord.parse(entry, act_id="a" * 64, key="entry") == _full(entry)


def test_is_hex64_lengths_and_cases_refused() -> None:
    assert is_hex64("0" * 64)
    for bad in ("0" * 63, "0" * 65, "A" * 64, "0" * 63 + "\n", b"0" * 64, None, 64):
        assert not is_hex64(bad)
