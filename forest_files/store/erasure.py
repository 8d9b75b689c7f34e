"""Audited erasure of a body: the one update the append-only law permits.

Stores: in one transaction, a one-shot ``erasure_permits`` row, a body-free
tombstone in ``erasures`` (who, when, why), and the body replaced by the
marker ``[erased]``; the permit is removed again. ``body_hash`` and
``content_id`` stay, so ancestry and the ledger still verify; a trigger takes
the old text out of the full-text index.
Refuses: an unknown entry, a blank or missing (None) signature or reason; a
signature or reason that is not a str, an ``at`` that is not a str or None
(``BoundsRefused``, store/args.py: a list raised ``AttributeError`` or reached
SQL, and a float, ``time.time()``, was recorded as the text ``1733.5``); erasing
twice is a no-op that returns the existing tombstone. ``insert_erased`` (a replayed
ceremony whose text an erasure removed) refuses rows none of which is erased.
Returns: None.
Test: tests/governance/test_erasure.py, tests/store/test_face_arguments.py

This is the store half of the governance feature (the recorded ``erase``
act replays through it). The public ``forget`` ceremony, with its scope and
retention rules, comes with the governance release.
"""

from __future__ import annotations

from collections.abc import Sequence

from forest_files.kernel.errors import ForestError
from forest_files.store import args
from forest_files.store.base import StoreBase
from forest_files.store.clock import utc_now
from forest_files.store.entryrow import ERASED_MARK as ERASED_MARK  # governance reads it here
from forest_files.store.entryrow import Row


class ErasureMixin(StoreBase):
    def insert_erased(self, made: Sequence[Row]) -> list[int]:
        """Insert a ceremony's rows whose body or words a recorded erasure removed
        (``rows.supersede``/``rows.resolve`` given ``erased``): the replay of an act
        whose text is gone, its content ids, hashes and edges kept. Call inside
        ``atomic``; the applier judged the act first."""
        if not any(r.body == ERASED_MARK for r in made):
            raise ForestError("insert_erased: no row of this ceremony is erased")
        return self._insert_rows(made)

    def erase_body(
        self, entry_id: int, *, signature: str, reason: str, at: str | None = None
    ) -> None:
        """Erase the entry's body; ``at``: the recorded act's time, as the act wrote it
        (replay keeps it; None: now)."""
        for field, value, example in (
            ("signature", signature, "'author'"),
            ("reason", reason, "'leaked key'"),
        ):
            if value is not None:  # None is a missing one, refused below with a blank one
                args.text("erase", field, value, example)
        args.text("erase", "at", at, "'2026-01-01T12:00:00.000Z'", optional=True)
        if not signature or not signature.strip() or not reason or not reason.strip():
            raise ForestError("erase: signature and reason are required (body-free tombstone)")
        with self.atomic():
            self.require(entry_id, "erase")
            done = self.conn.execute(
                "SELECT 1 FROM erasures WHERE entry_id = ?", (entry_id,)
            ).fetchone()
            if done is not None:
                return
            self.conn.execute("INSERT INTO erasure_permits (entry_id) VALUES (?)", (entry_id,))
            self.conn.execute(
                "INSERT INTO erasures (entry_id, created_at, signature, reason) "
                "VALUES (?, ?, ?, ?)",
                (entry_id, at or utc_now(), signature.strip(), reason.strip()),
            )
            self.conn.execute("UPDATE entries SET body = ? WHERE id = ?", (ERASED_MARK, entry_id))
            self.conn.execute("DELETE FROM erasure_permits WHERE entry_id = ?", (entry_id,))
