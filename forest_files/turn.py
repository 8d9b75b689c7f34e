"""The heartbeat: one conversation turn = one scroll record + one pair, together.

Stores: a scroll record (fsynced) and a ``pair`` entry pointing at it.
Refuses: whatever ``Scroll.append`` and ``write_pair`` refuse; a user or
assistant text that is not a str (``BoundsRefused``, store/args.py: 0.4 raised a
bare ``TypeError``) and a turn whose scrubbed body would be empty are refused
before the scroll is touched.
Returns: the pair id. If the pair cannot be written, the scroll record is
truncated away under the scroll's lock, so no record is left without its pair.
Test: tests/face/test_turn.py
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from forest_files.kernel.errors import ForestError
from forest_files.kernel.hashing import hash_body
from forest_files.scrub import ScrubFn, default_scrub
from forest_files.store.writing import turn_texts

if TYPE_CHECKING:
    from forest_files.scroll import Scroll
    from forest_files.store.forest import ForestStore


def commit_turn(
    store: ForestStore,
    scroll: Scroll,
    user_text: str,
    assistant_text: str = "",
    *,
    previous_pair_id: int | None = None,
    scrub: ScrubFn | None = default_scrub,
) -> int:
    """Append the exact head to the scroll and write its pair, atomically."""
    turn_texts("commit_turn", user_text, assistant_text)
    head = f"USER: {user_text}\nASSISTANT: {assistant_text}"
    body = f"USER:\n{user_text}\n\nASSISTANT:\n{assistant_text}".strip()
    if scrub is not None and not scrub(body).strip():
        raise ForestError("empty body refused: the scrubbed turn has no text")
    with scroll.reserve() as slot:
        offset = slot.append(head)
        pointer = {"path": str(scroll.path), "offset": offset, "hash": hash_body(head)}
        return store.write_pair(
            user_text,
            assistant_text,
            previous_pair_id=previous_pair_id,
            scroll_ptr=pointer,
            scrub=scrub,
        )
