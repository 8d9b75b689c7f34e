"""Body files read from bytes in hand, each checked against the hash it is asked by.

``HashedBodies`` is the reader custody/sources.py's ``body_reader`` makes (a view
build, a commit's or the index's ledger replayed): asked for a body hash, it hashes
the bytes held under that hash, refuses them when their SHA-256 is another, and
decodes them as strict UTF-8. Strict UTF-8 decodes only text that encodes back to
exactly the bytes it came from, so the text it returns hashes to the hash it was
asked by: the applier (apply_rules.py ``ApplyRules.body``) takes that from the
reader's type and does not hash the text again. Text from any other reader (the
working tree's body files, a caller's own function) is still hashed there.

Stores: nothing.
Refuses (``LedgerError``): bytes that do not hash to the hash asked (``body-hash``),
bytes that are not UTF-8 (``malformed``).
Returns: a body's text, or None when no bytes are held under that hash.
Test: tests/custody/test_body_hashes.py
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import final

from forest_files.ledger.segments import body_text


@final
class HashedBodies:
    """A body reader over bytes by body hash whose every text hashes to its key."""

    __slots__ = ("_blobs",)

    def __init__(self, blobs: Mapping[str, bytes]) -> None:
        self._blobs = blobs

    def __call__(self, body_hash: str) -> str | None:
        data = self._blobs.get(body_hash)
        if data is None:
            return None
        return body_text(body_hash, data)  # the one rule: ledger/segments.py


__all__ = ["HashedBodies"]
