"""Bulk import-and-root: thousands of new entries written and rooted in one pass.

Stores: for each body an ``import`` entry (origin: one existing entry,
``derived_from``) and its adoption record (``adopts``): the rows ``write``
(without scrub) then ``root_to_ground`` store for it, with the same content
ids; inserted with ``executemany``, their bodies indexed in one FTS5 batch.
The batch is one act of adoption, so its entries share one creation time
(each keeps its own nonce, so content ids stay distinct).
Refuses, before anything is written: what those two calls refuse for a new
entry — blank signatures or adopting words, praise for words, a blank body,
an unknown origin, meta that is not JSON. The status gates of a root (sealed,
superseded, contested, already ground) cannot apply to an entry this call
creates; one query afterwards confirms every new entry is ground.
Returns: ``Adopted`` (local ids and the inserted rows, so a caller can describe
them without reading them back).
Test: tests/test_bulk_adopt.py
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from forest_files.errors import CeremonyRefusal, ForestError
from forest_files.praise import refuse_praise
from forest_files.store import queries
from forest_files.store.base import EntryRow, utc_now
from forest_files.store.connection import guarded
from forest_files.store.writing import WriteMixin


class Adopted(NamedTuple):
    """One imported entry and the record that roots it."""

    entry_id: int
    entry: EntryRow
    record_id: int
    record: EntryRow


class BulkMixin(WriteMixin):
    @guarded
    def import_and_root(
        self,
        items: Sequence[tuple[str, Mapping[str, Any]]],
        *,
        origin: int,
        signature: str,
        adopting_words: str,
        adopting_signature: str,
    ) -> list[Adopted]:
        """Write each (body, meta) as an ``import`` entry derived from ``origin`` and
        root it with ``adopting_words``; all or nothing."""
        if not isinstance(adopting_signature, str) or not adopting_signature.strip():
            raise CeremonyRefusal("root without a speaker signature refused")
        if not isinstance(adopting_words, str) or not adopting_words.strip():
            raise CeremonyRefusal("missing adopting words: say what is adopted, and sign it")
        refuse_praise(adopting_words)
        quote, speaker = adopting_words.strip(), adopting_signature.strip()
        # One creation time for the batch (it is one act of adoption) and one read
        # of the system's randomness for every nonce.
        stamp = utc_now()
        salts = secrets.token_bytes(16 * len(items)).hex()
        with self.atomic(), self.deferred_text_index():
            known = self._origin_content_ids([(origin, "derived_from")])
            first = int(self.conn.execute(queries.MAX_ENTRY_ID).fetchone()[0]) + 1
            made: list[Adopted] = []
            for pos, (body, meta) in enumerate(items):
                entry_id, record_id = first + 2 * pos, first + 2 * pos + 1
                entry, _ = self._entry_row(
                    body=body,
                    jurisdiction="home",
                    bucket="import",
                    signature=signature,
                    source=None,
                    meta=meta,
                    origins=[(origin, "derived_from")],
                    ceremony=False,
                    created_at=stamp,
                    nonce=salts[32 * pos : 32 * pos + 16],
                    known=known,
                )
                record, _ = self._entry_row(
                    body=quote,
                    jurisdiction="home",
                    bucket="adoption_record",
                    signature=speaker,
                    source=None,
                    meta=None,
                    origins=[(entry_id, "adopts")],
                    ceremony=True,
                    scope_of=entry.scope,
                    created_at=stamp,
                    nonce=salts[32 * pos + 16 : 32 * pos + 32],
                    known={entry_id: entry.content_id},
                )
                made.append(Adopted(entry_id, entry, record_id, record))
            rows = [(a.entry_id, *a.entry.values()) for a in made]
            rows += [(a.record_id, *a.record.values()) for a in made]
            rows.sort()
            self.conn.executemany(queries.INSERT_ENTRY_WITH_ID, rows)
            edges = [(a.entry_id, origin, "derived_from", a.entry.created_at) for a in made]
            edges += [(a.record_id, a.entry_id, "adopts", a.record.created_at) for a in made]
            edges.sort()
            self.conn.executemany(queries.INSERT_EDGE, edges)
            rooted = self.conn.execute(queries.ROOTED_IMPORTS_FROM, (first,)).fetchone()[0]
            if rooted != len(made):
                raise ForestError(f"bulk root postcondition failed: {rooted} of {len(made)}")
        return made
