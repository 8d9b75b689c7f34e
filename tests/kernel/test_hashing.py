"""Hashes and canonical bytes are stable and refuse what cannot be encoded."""

from __future__ import annotations

import hashlib

import pytest

from forest_files import ForestError, hash_body
from forest_files.kernel.hashing import canonical_json, entry_content_id


def _cid(**over: object) -> str:
    fields: dict[str, object] = {
        "scope": "default",
        "created_at": "2026-01-01T00:00:00.000Z",
        "jurisdiction": "home",
        "bucket": "note",
        "source": None,
        "signature": "a",
        "body_hash": "0" * 64,
        "meta": {},
        "nonce": "n",
        "origins": [("c" * 64, "derived_from")],
    }
    fields.update(over)
    return entry_content_id(**fields)  # type: ignore[arg-type]


def test_hash_body_is_sha256_of_utf8_accepted() -> None:
    assert hash_body("Elias") == hashlib.sha256(b"Elias").hexdigest()


def test_hash_body_lone_surrogate_refused() -> None:
    with pytest.raises(ForestError, match="surrogate"):
        hash_body("a\ud800b")


def test_canonical_json_nan_refused() -> None:
    with pytest.raises(ForestError, match="canonical"):
        canonical_json({"x": float("nan")})


def test_canonical_json_is_key_order_independent_accepted() -> None:
    assert (
        canonical_json({"b": 1, "a": "é"})
        == canonical_json({"a": "é", "b": 1})
        == '{"a":"é","b":1}'
    )


def test_content_id_origin_order_does_not_matter_accepted() -> None:
    o1 = [("a" * 64, "cites"), ("b" * 64, "derived_from")]
    assert _cid(origins=o1) == _cid(origins=list(reversed(o1)))


def test_content_id_changes_with_every_field_detected() -> None:
    base = _cid()
    for key, value in (
        ("scope", "other"),
        ("created_at", "2026-01-01T00:00:00.001Z"),
        ("signature", "b"),
        ("body_hash", "1" * 64),
        ("nonce", "m"),
        ("meta", {"k": 1}),
        ("bucket", "draft"),
        ("source", "x"),
    ):
        assert _cid(**{key: value}) != base, key
