"""Audit packets: who adopted what, from which origins — previews only.

Stores: nothing (audit signatures are echoed back, not recorded).
Refuses: a blank ``adopting_signature``; ``walk_back`` of an entry that is not
current ground; unknown entries (``NotFound``); another scope's entries
(``ScopeMismatch``); unbounded ``excerpt_len``. Origins of another scope are
left out of a packet.
Returns: dicts with keys in Forest's order (entry, is_ground, adoption,
origins, scroll_ptr, audit_signature; the report adds status, body_hash,
note). No ``body`` key at any depth, and a sealed entry or origin shows the
``[sealed]`` marker instead of any text.
Test: tests/store/test_store_hostile.py
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from forest_files.kernel.errors import ForestError, NotFound, Refusal
from forest_files.store import queries
from forest_files.store.base import StoreBase
from forest_files.store.connection import guarded
from forest_files.store.lookup import check_id
from forest_files.store.packets import DEFAULT_EXCERPT, check_excerpt_len, scrap, strip_bodies

REPORT_NOTE = (
    "previews only: excerpts, hashes and status. Do not paste this packet into a "
    "model's context as truth; read a body through open/around/step/read."
)


class AuditMixin(StoreBase):
    def _preview(self, row: sqlite3.Row, excerpt_len: int) -> dict[str, Any]:
        return scrap(row, excerpt_len, sealed=self._sealed(int(row["id"])))

    def _authority_packet(
        self, row: sqlite3.Row, signature: str, excerpt_len: int
    ) -> dict[str, Any]:
        entry_id = int(row["id"])
        adoption_row = self.conn.execute(queries.LATEST_ADOPTION, (entry_id, self.scope)).fetchone()
        origins = []
        for origin in self.conn.execute(queries.OUTGOING_EDGES, (entry_id, self.scope)).fetchall():
            item = self._preview(origin, excerpt_len)
            item["edge_kind"] = origin["edge_kind"]
            origins.append(item)
        try:
            meta = json.loads(row["meta_json"] or "{}")
        except ValueError:
            meta = {}
        packet: dict[str, Any] = {
            "entry": self._preview(row, excerpt_len),
            "is_ground": self._ground(entry_id),
            "adoption": None if adoption_row is None else self._preview(adoption_row, excerpt_len),
            "origins": origins,
            "scroll_ptr": meta.get("scroll_ptr") if isinstance(meta, dict) else None,
            "audit_signature": signature.strip(),
        }
        return packet

    @guarded
    def walk_back(self, entry_id: int, *, adopting_signature: str) -> dict[str, Any]:
        """The authority trail of a ground entry."""
        if not isinstance(adopting_signature, str) or not adopting_signature.strip():
            raise ForestError("walk_back: adopting_signature required")
        row = self._visible(check_id("walk_back", entry_id))
        if row is None:
            self.in_scope(entry_id, "walk_back")  # ScopeMismatch if it is elsewhere
            raise NotFound(f"walk_back: unknown entry {entry_id} is not current ground")
        if not self._ground(entry_id):
            raise Refusal(f"walk_back: entry {entry_id} is not current ground")
        packet = self._authority_packet(row, adopting_signature, DEFAULT_EXCERPT)
        result: dict[str, Any] = strip_bodies(packet)
        return result

    @guarded
    def authority_report(
        self, entry_id: int, *, adopting_signature: str, excerpt_len: int = DEFAULT_EXCERPT
    ) -> dict[str, Any]:
        """Status, hash and trail of any entry (ground or not)."""
        if not isinstance(adopting_signature, str) or not adopting_signature.strip():
            raise ForestError("authority_report: adopting_signature required")
        row = self.require(entry_id, "authority_report")
        check_excerpt_len(excerpt_len)
        packet = self._authority_packet(row, adopting_signature, excerpt_len)
        packet["status"] = {
            "is_ground": self._ground(entry_id),
            "is_sealed": self._sealed(entry_id),
            "is_superseded": self._is_superseded(entry_id),
        }
        packet["body_hash"] = row["body_hash"]
        packet["note"] = REPORT_NOTE
        result: dict[str, Any] = strip_bodies(packet)
        return result
