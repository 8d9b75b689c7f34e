"""The public rooting gate: ``root_to_ground``.

Stores: one adoption record (through ``ForestStore._root``).
Refuses (``BoundsRefused``, before any work): words, a signature, a hash or
``source_verbatim`` that is not a str. Refuses (``CeremonyRefusal``): blank
signature, missing adopting words, praise-only words ("enthusiasm is not
root"), unknown entries, a body hash other than the one shown, a
``source_verbatim`` that differs from the stored body. The store's own
refusals (sealed, superseded, already ground, race loser) surface as
``ForestError``; ``CeremonyRefusal`` is one too.
Returns: the rooted entry id (Forest 0.4's contract).
Test: tests/store/test_store_hostile.py
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from forest_files.kernel.errors import CeremonyRefusal
from forest_files.praise import is_praise, refuse_praise
from forest_files.store import args
from forest_files.store.ceremonies import texts

if TYPE_CHECKING:
    from forest_files.store.forest import ForestStore

__all__ = ["CeremonyRefusal", "is_praise", "root_to_ground"]


def root_to_ground(
    store: ForestStore,
    *,
    entry_id: int,
    adopting_words: str,
    adopting_signature: str,
    expected_body_hash: str,
    source_verbatim: str | None = None,
) -> int:
    """Root ``entry_id`` exactly as displayed: compare-and-root on its body hash."""
    texts(
        "root_to_ground",
        adopting_words=adopting_words,
        adopting_signature=adopting_signature,
        expected_body_hash=expected_body_hash,
    )
    args.text("root_to_ground", "source_verbatim", source_verbatim, "entry_body", optional=True)
    if not isinstance(adopting_signature, str) or not adopting_signature.strip():
        raise CeremonyRefusal("root without a speaker signature refused")
    if not isinstance(adopting_words, str) or not adopting_words.strip():
        raise CeremonyRefusal("missing adopting words: say what is adopted, and sign it")
    refuse_praise(adopting_words)
    row = store.get(entry_id) if isinstance(entry_id, int) else None
    if row is None:
        raise CeremonyRefusal(f"unknown entry {entry_id}")
    if row["body_hash"] != expected_body_hash:
        raise CeremonyRefusal(
            f"body_hash mismatch for entry {entry_id}: expected {expected_body_hash}, "
            f"stored {row['body_hash']}; re-read the entry and root what you were shown"
        )
    if source_verbatim is not None and row["body"].strip() != source_verbatim.strip():
        raise CeremonyRefusal(
            "body must be verbatim: the stored body differs from the source words, so rooting "
            "it would put unsigned words in the authority-holder's mouth"
        )
    store.root(
        entry_id=entry_id,
        quote=adopting_words.strip(),
        adopting_signature=adopting_signature.strip(),
        expected_body_hash=expected_body_hash,
    )
    return entry_id
