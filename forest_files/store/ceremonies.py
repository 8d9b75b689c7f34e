"""Ceremonies: the only acts that change status (root, supersede, seal, unseal).

Stores: adoption, sealing and unsealing records with their ceremony edges;
superseding entries with both a ``supersedes`` and a ``derived_from`` edge: the
rows of forest_files/store/rows.py, the ones an act declares. ``supersede_beside``
and ``seal_beside`` write the same rows without the status gate, for the ledger
applier (a merged branch superseded or sealed the same entry too).
Refuses, before any work (store/args.py, ``BoundsRefused`` naming the argument):
words, a signature or a hash that is not a str, a ``bucket`` that is not a str or
None. Refuses (under BEGIN IMMEDIATE, so the loser of a race is refused, never
silently last-write-wins): roots without hash, words or signature; roots of
unknown, ceremony, sealed, superseded, contested or already-ground entries;
hash mismatches; supersessions of what is not current ground, into a
ceremony bucket or a pair, or of a body other than the one shown
(``expected_body_hash``); sealing twice; unsealing what is not sealed.
The state refusals are ``InvalidTransition``; an unknown id is ``NotFound``,
another scope's id ``ScopeMismatch`` (records take the store's scope).
Returns: record ids (root, seal, unseal) or the new entry id (supersede).
Replay passes ``stamp`` (created_at, nonce) so re-applied acts keep their ids.
Test: tests/store/test_store_hostile.py, tests/store/test_store_races.py
"""

from __future__ import annotations

from forest_files.kernel import bounds
from forest_files.kernel.errors import ForestError, InvalidTransition, Refusal
from forest_files.kernel.vocab import BUCKETS, RESERVED_BUCKETS, ROOT_BUCKET
from forest_files.praise import refuse_praise
from forest_files.scrub import ScrubFn, default_scrub
from forest_files.store import args, rows
from forest_files.store.base import StoreBase, new_stamp
from forest_files.store.connection import guarded
from forest_files.store.rows import Stamp

# How a refusal says to pass each text a ceremony takes (store/args.py ``text``).
_EXAMPLES = {
    "quote": "'in your own words'",
    "adopting_words": "'I have read this and adopt it'",
    "adopting_signature": "'author'",
    "signature": "'author'",
    "expected_body_hash": "hash_body(body)",
}

# The buckets a supersession may write (a pair needs scroll evidence; ceremonies their own act).
_SUCCESSOR_BUCKETS = BUCKETS - RESERVED_BUCKETS - {ROOT_BUCKET}


def _blank(value: object) -> bool:
    return not isinstance(value, str) or not value.strip()


def texts(what: str, **fields: object) -> None:
    """Refuse any of ``fields`` that is neither a str nor None, naming it (0.4 called a
    list given as a signature unsigned, as words missing). None is left to the
    ceremony's own blank check, which refuses it as 0.4 did (a signature not given is
    a missing signature, and its refusal class is the one 0.4 callers catch)."""
    for field, value in fields.items():
        if value is not None:
            args.text(what, field, value, _EXAMPLES[field])


class CeremonyMixin(StoreBase):
    @guarded
    def root(
        self,
        *,
        entry_id: int,
        quote: str,
        adopting_signature: str,
        expected_body_hash: str,
        stamp: Stamp | None = None,
    ) -> int:
        """Root an entry in place: one adoption record that ``adopts`` it (the ceremony
        behind ``root_to_ground``)."""
        texts(
            "root",
            quote=quote,
            adopting_signature=adopting_signature,
            expected_body_hash=expected_body_hash,
        )
        if _blank(expected_body_hash):
            raise ForestError("root: expected_body_hash required (hash of the body shown)")
        if _blank(quote):
            raise ForestError("root without adopting words refused")
        if _blank(adopting_signature):
            raise ForestError("root without a speaker signature refused")
        bounds.check_text("adopting words", quote, bounds.MAX_WORDS_CHARS, lines=True)
        with self.atomic():
            row = self.require(entry_id, "root")
            if row["bucket"] in RESERVED_BUCKETS:
                raise Refusal("root: cannot root a ceremony record")
            self._refuse_unrootable(entry_id)
            if row["body_hash"] != expected_body_hash:
                raise ForestError(
                    f"root: body_hash mismatch for entry {entry_id} (expected "
                    f"{expected_body_hash}, stored {row['body_hash']}); re-read the entry and "
                    "root exactly what was shown"
                )
            made = rows.root(
                rows.Subject.of(row),
                words=quote,
                speaker=adopting_signature,
                stamp=stamp or new_stamp(),
                max_body_bytes=self.max_body_bytes,
            )
            (record,) = self._insert_rows([made])
            if not self._ground(entry_id):
                raise ForestError(f"root postcondition failed: entry {entry_id} is not ground")
        return record

    # Forest 0.4's name for the rooting ceremony (its own tests call it directly).
    _root = root

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
        return self._supersede(
            old_id, new_body, adopting_words, adopting_signature, signature, bucket, scrub,
            expected_body_hash, stamp, beside=False,
        )  # fmt: skip

    @guarded
    def supersede_beside(
        self,
        *,
        old_id: int,
        new_body: str,
        adopting_words: str,
        adopting_signature: str,
        signature: str,
        bucket: str | None,
        stamp: Stamp,
    ) -> int:
        """A second successor of one ground (a merged branch superseded it too): the
        rows of ``supersede`` without its "is current ground" gate, for the ledger
        applier; the chain is contested afterwards. The body is taken as given."""
        return self._supersede(
            old_id, new_body, adopting_words, adopting_signature, signature, bucket, None,
            None, stamp, beside=True,
        )  # fmt: skip

    def _supersede(
        self,
        old_id: int,
        new_body: str,
        adopting_words: str,
        adopting_signature: str,
        signature: str,
        bucket: str | None,
        scrub: ScrubFn | None,
        expected_body_hash: str | None,
        stamp: Stamp | None,
        *,
        beside: bool,
    ) -> int:
        texts(
            "supersede",
            adopting_words=adopting_words,
            adopting_signature=adopting_signature,
            signature=signature,
        )
        args.text(
            "supersede",
            "expected_body_hash",
            expected_body_hash,
            "hash_body(new_body)",
            optional=True,
        )
        if bucket is not None:
            args.name("supersede", "bucket", bucket, _SUCCESSOR_BUCKETS)
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
            old = self.require(old_id, "supersede")
            if not beside and not self._ground(old_id):
                raise InvalidTransition(
                    f"entry {old_id} is not current ground; only ground can be superseded"
                )
            made = rows.supersede(
                rows.Subject.of(old),
                body=body,
                words=adopting_words,
                speaker=adopting_signature,
                signature=signature,
                bucket=bucket,
                stamp=stamp or new_stamp(),
                record_stamp=stamp or new_stamp(),
                expected_body_hash=expected_body_hash,
                max_body_bytes=self.max_body_bytes,
            )
            new_id = self._insert_rows(made)[0]
            if not beside and (self._ground(old_id) or not self._ground(new_id)):
                raise ForestError(f"supersede postcondition failed: {old_id} -> {new_id}")
        return new_id

    @guarded
    def seal(
        self, *, entry_id: int, quote: str, signature: str = "author", stamp: Stamp | None = None
    ) -> int:
        """Seal an entry: its body leaves every retrieval path until unsealed."""
        return self._seal(entry_id, quote, signature, stamp, sealing=True, beside=False)

    @guarded
    def unseal(
        self, *, entry_id: int, quote: str, signature: str = "author", stamp: Stamp | None = None
    ) -> int:
        return self._seal(entry_id, quote, signature, stamp, sealing=False, beside=False)

    @guarded
    def seal_beside(
        self, *, entry_id: int, quote: str, signature: str, stamp: Stamp, sealing: bool
    ) -> int:
        """The sealing (or unsealing) record of a change a merged branch made too: the
        record ``seal``/``unseal`` writes, beside the other one, without their status
        gate (for the ledger applier)."""
        return self._seal(entry_id, quote, signature, stamp, sealing=sealing, beside=True)

    def _seal(
        self,
        entry_id: int,
        quote: str,
        signature: str,
        stamp: Stamp | None,
        *,
        sealing: bool,
        beside: bool,
    ) -> int:
        texts("seal" if sealing else "unseal", quote=quote, signature=signature)
        with self.atomic():
            row = self.require(entry_id, "seal" if sealing else "unseal")
            if not beside and self._sealed(entry_id) == sealing:
                state = "already sealed" if sealing else "not sealed"
                raise InvalidTransition(f"entry {entry_id} is {state}")
            made = rows.seal(
                rows.Subject.of(row),
                quote=quote,
                signature=signature,
                stamp=stamp or new_stamp(),
                sealing=sealing,
                max_body_bytes=self.max_body_bytes,
            )
            return self._insert_rows([made])[0]
