"""Resolve: the authority act that ends a contest between two live heads.

Stores: one new entry carrying the picked head's text, with a ``supersedes``
edge to every live head of the contested chain and a ``derived_from`` edge to
the pick, and one adoption record that ``adopts`` it — in one transaction.
Refuses: words or a signature that is not a str (``BoundsRefused`` naming it); an
entry that is not contested ("is not contested", ``InvalidTransition``), a pick
that is not a live head of the same chain, blank or praise-only words, a blank
signature, an unknown id (``NotFound``), another scope's id (``ScopeMismatch``).
Returns: the new ground entry's id.
Test: tests/custody/test_resolve.py
"""

from __future__ import annotations

from forest_files.kernel.errors import ForestError, InvalidTransition, Refusal
from forest_files.praise import refuse_praise
from forest_files.store import queries, rows
from forest_files.store.base import StoreBase, new_stamp
from forest_files.store.ceremonies import texts
from forest_files.store.connection import guarded
from forest_files.store.rows import Stamp


class ResolveMixin(StoreBase):
    def contest_heads(self, entry_id: int) -> list[int]:
        """The live heads of the chain ``entry_id`` belongs to (two or more when contested)."""
        self.require(entry_id, "resolve")
        row = self.conn.execute(queries.CHAIN_OF, (entry_id,)).fetchone()
        chain = int(row[0])
        members = self.conn.execute(queries.CHAIN_MEMBERS, (chain, chain, self.scope)).fetchall()
        return sorted(int(m[0]) for m in members if self._is_live_head(int(m[0])))

    @guarded
    def resolve(
        self,
        *,
        contested_id: int,
        pick_id: int,
        adopting_words: str,
        adopting_signature: str,
        stamp: Stamp | None = None,
        heads: list[int] | None = None,
    ) -> int:
        """Supersede every live head of a contested chain with the picked head's text.

        ``heads`` is given by replay (the heads the act names); live callers
        leave it out and the store takes the chain's live heads now. Replayed, the
        new entry may be contested (a merged branch superseded a head as well).
        """
        replay = heads is not None
        texts("resolve", adopting_words=adopting_words, adopting_signature=adopting_signature)
        if not isinstance(adopting_words, str) or not adopting_words.strip():
            raise ForestError("resolve without adopting words refused")
        refuse_praise(adopting_words)
        if not isinstance(adopting_signature, str) or not adopting_signature.strip():
            raise ForestError("resolve without a speaker signature refused")
        with self.atomic():
            if heads is None:
                self.require(contested_id, "resolve")
                if not self._contested(contested_id):
                    raise InvalidTransition(
                        f"entry {contested_id} is not contested; use supersede to change ground"
                    )
                heads = self.contest_heads(contested_id)
            pick = self.require(pick_id, "resolve")
            if pick_id not in heads:
                raise Refusal(
                    f"resolve: pick {pick_id} is not a live head of the contest (heads: {heads})"
                )
            cids = self._origin_content_ids([(h, "supersedes") for h in heads])
            made = rows.resolve(
                [(h, cids[h]) for h in heads],
                rows.Subject.of(pick),
                words=adopting_words,
                speaker=adopting_signature,
                stamp=stamp or new_stamp(),
                record_stamp=stamp or new_stamp(),
                max_body_bytes=self.max_body_bytes,
            )
            new_id = self._insert_rows(made)[0]
            # replayed, a merged branch may have superseded a head too: the chain is
            # contested again (as two merged supersedes are), so only the heads it
            # names must have ended
            if not self._ground(new_id) and (
                not replay or any(self._is_live_head(h) for h in heads)
            ):
                raise ForestError(f"resolve postcondition failed: entry {new_id} is not ground")
        return new_id
