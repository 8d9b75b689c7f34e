"""Hashes and canonical bytes: the identities that every clone agrees on.

Stores: nothing.
Refuses: bodies that cannot be encoded as UTF-8 (lone surrogates) with a
``ForestError``; NaN/Infinity in canonical JSON.
Returns: lowercase hex SHA-256 strings and canonical JSON bytes.
Test: tests/kernel/test_hashing.py
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from forest_files.kernel.errors import ForestError

CONTENT_ID_VERSION = 1


def hash_body(body: str) -> str:
    """Lowercase hex SHA-256 of ``body`` encoded as UTF-8 (Forest 0.4's rule)."""
    try:
        data = body.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ForestError(
            f"body is not valid Unicode text (unpaired surrogate at index {exc.start}); "
            "pass text that encodes as UTF-8"
        ) from None
    return hashlib.sha256(data).hexdigest()


_ENCODER: Any = None  # one json.JSONEncoder, made on first use


def canonical_json(obj: Any) -> str:
    """The one canonical encoding: sorted keys, compact, UTF-8, no NaN."""
    global _ENCODER
    if _ENCODER is None:
        import json  # lazily: a check that only hashes file bytes never needs it

        # One encoder for every call: ``json.dumps`` with options builds a new one
        # each time, which bulk adoption (several encodings per act) paid 10,000s of times.
        _ENCODER = json.JSONEncoder(
            sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
        )
    try:
        return str(_ENCODER.encode(obj))
    except ValueError as exc:
        raise ForestError(f"value cannot be encoded canonically: {exc}") from None


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def entry_content_id(
    *,
    scope: str,
    created_at: str,
    jurisdiction: str,
    bucket: str,
    source: str | None,
    signature: str,
    body_hash: str,
    meta: Mapping[str, Any],
    nonce: str,
    origins: Sequence[tuple[str, str]],
) -> str:
    """Content id of an entry: SHA-256 of the canonical JSON of its immutable fields.

    The body enters only through its hash, so a later audited erasure of the
    body keeps the id. ``origins`` are the (content id, edge kind) pairs
    written with the entry; they are sorted, so their order never matters.
    """
    record = {
        "v": CONTENT_ID_VERSION,
        "scope": scope,
        "created_at": created_at,
        "jurisdiction": jurisdiction,
        "bucket": bucket,
        "source": source,
        "signature": signature,
        "body_hash": body_hash,
        "meta": dict(meta),
        "nonce": nonce,
        "origins": sorted([list(o) for o in origins]),
    }
    return sha256_text(canonical_json(record))
