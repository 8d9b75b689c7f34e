"""Packet shapes: bounded, jurisdiction-first previews that never carry a body.

Stores: nothing.
Refuses: an ``excerpt_len`` that is not an int in 1..MAX_EXCERPT_LEN ("excerpt_len").
Returns: scrap dicts (keys in order: jurisdiction, id, excerpt, bucket,
signature), the Forest packet contract. A sealed entry's excerpt is the
marker ``[sealed]``, never its text. Recall packets add one key after Forest's
five, ``trust`` (``with_trust``): the derived level (store/trust.py), never a
value a caller supplied.
Test: tests/store/test_store_hostile.py
"""

from __future__ import annotations

import sqlite3
from typing import Any

from forest_files.kernel import bounds
from forest_files.kernel.errors import ForestError

DEFAULT_EXCERPT = 160
MAX_EXCERPT_LEN = bounds.MAX_EXCERPT_LEN
SEALED_MARK = "[sealed]"
ELLIPSIS = "\u2026"
TRUST_KEY = "trust"


def check_excerpt_len(excerpt_len: object) -> int:
    if isinstance(excerpt_len, bool) or not isinstance(excerpt_len, int) or excerpt_len <= 0:
        raise ForestError(
            "recall and around require a positive excerpt_len (a bounded preview); "
            "read() gives a full body"
        )
    if excerpt_len > MAX_EXCERPT_LEN:
        raise ForestError(
            f"excerpt_len={excerpt_len} is over the bound {MAX_EXCERPT_LEN}; previews are "
            "bounded — use open/around/step/read for a full body"
        )
    return excerpt_len


def excerpt(body: str, excerpt_len: int) -> str:
    if len(body) <= excerpt_len:
        return body
    return body[:excerpt_len] + ELLIPSIS


def scrap(row: sqlite3.Row, excerpt_len: int, *, sealed: bool = False) -> dict[str, Any]:
    """The standard preview of one entry."""
    return {
        "jurisdiction": row["jurisdiction"],
        "id": row["id"],
        "excerpt": SEALED_MARK if sealed else excerpt(row["body"], excerpt_len),
        "bucket": row["bucket"],
        "signature": row["signature"],
    }


def with_trust(packet: dict[str, Any], level: str) -> dict[str, Any]:
    """``packet`` with the store's derived ``trust`` level (replacing any given one)."""
    packet.pop(TRUST_KEY, None)
    packet[TRUST_KEY] = level
    return packet


def strip_bodies(value: Any) -> Any:
    """Remove every key named ``body`` at any depth (audit packets)."""
    if isinstance(value, dict):
        return {k: strip_bodies(v) for k, v in value.items() if k != "body"}
    if isinstance(value, list):
        return [strip_bodies(v) for v in value]
    return value
