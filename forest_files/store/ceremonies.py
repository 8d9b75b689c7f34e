"""Ceremonies: the only acts that change status (root, supersede, seal, unseal).

Stores: adoption, sealing and unsealing records with their ceremony edges;
superseding entries with both a ``supersedes`` and a ``derived_from`` edge.
Refuses (under BEGIN IMMEDIATE, so the loser of a race is refused, never
silently last-write-wins): roots without hash, words or signature; roots of
unknown, ceremony, sealed, superseded, contested or already-ground entries;
hash mismatches; supersessions of what is not current ground, into a
ceremony bucket or a pair, or of a body other than the one shown
(``expected_body_hash``); sealing twice; unsealing what is not sealed.
The state refusals are ``InvalidTransition``; an unknown id is ``NotFound``,
another scope's id ``ScopeMismatch`` (records take the store's scope).
Returns: record ids (root, seal, unseal) or the new entry id (supersede).
Replay passes ``stamp`` (created_at, nonce) so re-applied acts keep their ids.
Test: tests/test_store_hostile.py, tests/test_store_races.py
"""

from __future__ import annotations

from forest_files.kernel import bounds
from forest_files.kernel.errors import ForestError, InvalidTransition, Refusal
from forest_files.kernel.vocab import RESERVED_BUCKETS, ROOT_BUCKET
from forest_files.praise import refuse_praise
from forest_files.scrub import ScrubFn, default_scrub
from forest_files.store.base import StoreBase
from forest_files.store.connection import guarded

# (created_at, nonce): a replayed act's own stamp, so its content ids come out the same.
Stamp = tuple[str, str]


def _blank(value: object) -> bool:
    return not isinstance(value, str) or not value.strip()


class CeremonyMixin(StoreBase):
    @guarded
    def _root(
        self,
        *,
        entry_id: int,
        quote: str,
        adopting_signature: str,
        expected_body_hash: str,
        stamp: Stamp | None = None,
    ) -> int:
        """Root an entry in place: one adoption record that ``adopts`` it."""
        if _blank(expected_body_hash):
            raise ForestError("root: expected_body_hash required (hash of the body shown)")
        if _blank(quote):
            raise ForestError("root without adopting words refused")
        if _blank(adopting_signature):
            raise ForestError("root without a speaker signature refused")
        bounds.check_text("adopting words", quote, bounds.MAX_WORDS_CHARS, lines=True)
        with self.atomic():
            row = self._require(entry_id, "root")
            if row["bucket"] in RESERVED_BUCKETS:
                raise Refusal("root: cannot root a ceremony record")
            self._refuse_unrootable(entry_id)
            if row["body_hash"] != expected_body_hash:
                raise ForestError(
                    f"root: body_hash mismatch for entry {entry_id} (expected "
                    f"{expected_body_hash}, stored {row['body_hash']}); re-read the entry and "
                    "root exactly what was shown"
                )
            record = self._insert_entry(
                body=quote.strip(),
                jurisdiction="home",
                bucket="adoption_record",
                signature=adopting_signature.strip(),
                origins=[(entry_id, "adopts")],
                ceremony=True,
                created_at=None if stamp is None else stamp[0],
                nonce=None if stamp is None else stamp[1],
            )
            if not self._ground(entry_id):
                raise ForestError(f"root postcondition failed: entry {entry_id} is not ground")
        return record

    def _refuse_unrootable(self, entry_id: int) -> None:
        if self._sealed(entry_id):
            raise InvalidTransition(f"entry {entry_id} is sealed; cannot root a sealed entry")
        if self._is_superseded(entry_id):
            raise InvalidTransition(
                f"entry {entry_id} is superseded; cannot root a superseded entry"
            )
        if self._contested(entry_id):
            raise InvalidTransition(f"entry {entry_id} is contested; resolve it instead of rooting")
        if self._is_live_head(entry_id):
            raise InvalidTransition(f"entry {entry_id} is already current ground")

    @guarded
    def supersede(
        self,
        *,
        old_id: int,
        new_body: str,
        adopting_words: str,
        adopting_signature: str = "author",
        signature: str = "author",
        bucket: str | None = None,
        scrub: ScrubFn | None = default_scrub,
        expected_body_hash: str | None = None,
        stamp: Stamp | None = None,
    ) -> int:
        """Correct ground: new entry + ``supersedes`` + adoption, in one transaction."""
        if _blank(adopting_words):
            raise ForestError("supersession without adopting words refused")
        refuse_praise(adopting_words)
        bounds.check_text("adopting words", adopting_words, bounds.MAX_WORDS_CHARS, lines=True)
        if _blank(adopting_signature) or _blank(signature):
            raise ForestError("supersede: unsigned insert refused (give both signatures)")
        if not isinstance(new_body, str):
            raise ForestError(f"supersede: new_body must be a string; got {type(new_body)}")
        body = scrub(new_body) if scrub is not None else new_body
        with self.atomic():
            old = self._require(old_id, "supersede")
            if not self._ground(old_id):
                raise InvalidTransition(
                    f"entry {old_id} is not current ground; only ground can be superseded"
                )
            new_bucket = self._successor_bucket(old["bucket"], bucket)
            self._check_expected(body, expected_body_hash)
            new_id = self._insert_entry(
                body=body,
                jurisdiction=old["jurisdiction"],
                bucket=new_bucket,
                signature=signature.strip(),
                source=old["source"],
                origins=[(old_id, "supersedes"), (old_id, "derived_from")],
                ceremony=True,
                created_at=None if stamp is None else stamp[0],
                nonce=None if stamp is None else stamp[1],
                chain_root=old["chain_root"] or old_id,
            )
            self._insert_entry(
                body=adopting_words.strip(),
                jurisdiction="home",
                bucket="adoption_record",
                signature=adopting_signature.strip(),
                origins=[(new_id, "adopts")],
                ceremony=True,
                created_at=None if stamp is None else stamp[0],
                nonce=None if stamp is None else stamp[1],
            )
            if self._ground(old_id) or not self._ground(new_id):
                raise ForestError(f"supersede postcondition failed: {old_id} -> {new_id}")
        return new_id

    @staticmethod
    def _successor_bucket(old_bucket: str, requested: str | None) -> str:
        if requested is not None and requested in RESERVED_BUCKETS:
            raise ForestError(
                f"supersede: new body cannot use ceremony bucket '{requested}'; "
                "use a regular content bucket"
            )
        if requested == ROOT_BUCKET:
            raise ForestError(
                "supersede: a pair is conversation evidence and needs its own scroll_ptr; "
                "supersede into a content bucket such as 'note'"
            )
        if requested is not None:
            return requested
        # A pair's successor is a note: new words carry no scroll evidence.
        return "note" if old_bucket in RESERVED_BUCKETS | {ROOT_BUCKET} else old_bucket

    @staticmethod
    def _check_expected(body: str, expected_body_hash: str | None) -> None:
        if expected_body_hash is None:
            return
        from forest_files.kernel.hashing import hash_body

        actual = hash_body(body)
        if actual != expected_body_hash:
            raise ForestError(
                f"supersede: body_hash mismatch for the new body (expected "
                f"{expected_body_hash}, stored {actual}); re-read what was shown and "
                "supersede exactly that (note: scrub runs first)"
            )

    @guarded
    def seal(
        self, *, entry_id: int, quote: str, signature: str = "author", stamp: Stamp | None = None
    ) -> int:
        """Seal an entry: its body leaves every retrieval path until unsealed."""
        with self.atomic():
            self._require(entry_id, "seal")
            if self._sealed(entry_id):
                raise InvalidTransition(f"entry {entry_id} is already sealed")
            return self._insert_entry(
                body=quote,
                jurisdiction="home",
                bucket="sealing_record",
                signature=signature,
                origins=[(entry_id, "seals")],
                ceremony=True,
                created_at=None if stamp is None else stamp[0],
                nonce=None if stamp is None else stamp[1],
            )

    @guarded
    def unseal(
        self, *, entry_id: int, quote: str, signature: str = "author", stamp: Stamp | None = None
    ) -> int:
        with self.atomic():
            self._require(entry_id, "unseal")
            if not self._sealed(entry_id):
                raise InvalidTransition(f"entry {entry_id} is not sealed")
            return self._insert_entry(
                body=quote,
                jurisdiction="home",
                bucket="unsealing_record",
                signature=signature,
                origins=[(entry_id, "unseals")],
                ceremony=True,
                created_at=None if stamp is None else stamp[0],
                nonce=None if stamp is None else stamp[1],
            )
