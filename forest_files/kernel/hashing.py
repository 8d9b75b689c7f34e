"""Hashes and canonical bytes: the identities that every clone agrees on.

Stores: nothing.
Refuses: bodies that cannot be encoded as UTF-8 (lone surrogates) with a
``ForestError``, and an entry whose fields hold one (``BoundsRefused`` naming the
field: kernel/bounds.py ``not_unicode``); NaN/Infinity in canonical JSON.
Returns: lowercase hex SHA-256 strings and canonical JSON bytes.
Test: tests/kernel/test_hashing.py, tests/kernel/test_canonical_codec.py

The canonical form is the json module's (sorted keys, compact, UTF-8, no NaN).
A compiled codec (msgspec, imported on first use) produces the same bytes much
faster, and is trusted only where it provably agrees (``canonical_object``):
every character escapes the same way in both (the property test walks them
all), keys sort by code point in both and integers print alike, but floats do
not (``1e+16`` against ``1e16``), so any line holding a float, and anything the
compiled codec refuses or prints otherwise, is left to the json module.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from forest_files.kernel.bounds import not_unicode, unicode_fault
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
    data = canonical_bytes(obj)
    if data is not None and canonical_object(data) == obj:
        # The compiled codec's bytes are canonical JSON of a value equal to ``obj``
        # with no float in it: the json module's text for ``obj`` (see the header).
        return data.decode("utf-8")
    return reference_json(obj)


def reference_json(obj: Any) -> str:
    """``canonical_json`` by the json module alone: the definition of the form."""
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


class _FloatSeen(Exception):
    """A JSON float: the compiled codec prints some unlike the json module."""


def _refuse_float(text: str) -> Any:
    raise _FloatSeen


# Deeper nesting than this many brackets is left to the json module, whose own
# recursion limit (near 1,000 frames) decides it: the compiled codec's may differ.
_MAX_BRACKETS = 512
_CODEC: Any = None  # (decoder, encoder) of msgspec, made on first use


def _codec() -> Any:
    global _CODEC
    if _CODEC is None:
        import msgspec  # lazily: ~10 ms, paid only by a command that reads the ledger

        _CODEC = (
            msgspec.json.Decoder(float_hook=_refuse_float).decode,
            msgspec.json.Encoder(order="sorted").encode,
        )
    return _CODEC


def canonical_object(line: bytes) -> dict[str, Any] | None:
    """The JSON object ``line`` holds when ``line`` is exactly its canonical encoding;
    None when the compiled codec cannot vouch for that (not canonical, not an object,
    not JSON, a float, deep nesting, not UTF-8): the json module decides those."""
    if line.count(b"[") + line.count(b"{") > _MAX_BRACKETS:
        return None
    decode, encode = _codec()
    try:
        obj = decode(line)
        if type(obj) is not dict or encode(obj) != line:
            return None
    except Exception:  # msgspec.DecodeError, _FloatSeen, RecursionError: not vouched for
        return None
    return obj


def canonical_bytes(obj: Any) -> bytes | None:
    """The compiled codec's sorted compact encoding of ``obj`` (None when it refuses):
    canonical only once ``canonical_object`` of it gives back a value equal to ``obj``."""
    try:
        return bytes(_codec()[1](obj))
    except Exception:  # TypeError, UnicodeEncodeError, ValueError: left to the json module
        return None


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# The fields ``entry_content_id`` hashes, by name (custody/apply_rules.py compares a row
# built from a record with the record field by field on this list before it takes the
# row's content id as the record's: tests/kernel/test_hashing_fields.py keeps the two
# the same).
ENTRY_FIELDS = (
    "scope", "created_at", "jurisdiction", "bucket", "source", "signature", "body_hash",
    "meta", "nonce", "origins",
)  # fmt: skip


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
    try:
        return sha256_text(canonical_json(record))
    except UnicodeEncodeError as exc:  # a lone surrogate: refused, naming the field
        fault = unicode_fault({k: v for k, v in record.items() if k != "v"}, "entry")
        raise not_unicode(*(fault or ("entry", exc.start))) from None
