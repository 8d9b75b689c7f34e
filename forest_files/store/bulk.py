"""Bulk import-and-root: thousands of new entries written and rooted in one pass.

Stores: for each body an ``import`` entry (origin: one existing entry,
``derived_from``) and its adoption record (``adopts``): ``rows.adopt``'s rows,
the ones ``write`` (without scrub) then ``root_to_ground`` store for it, with
the same content ids; inserted with ``executemany``, their bodies indexed in one
FTS5 batch.
The batch is one act of adoption, so its entries share one creation time
(each keeps its own nonce, so content ids stay distinct).
Refuses, before anything is written: what those two calls refuse for a new
entry — blank signatures or adopting words, praise for words, a blank body,
an unknown origin, meta that is not JSON; ``items`` that is not a list of
(body, meta) pairs with a str body and a mapping (or None) meta, an ``origin``
that is not an int, a signature or words that are not a str
(``BoundsRefused``, store/args.py: these raised a bare ``ValueError`` or
``TypeError``, or were refused as blank); ``insert_adoptions`` called directly: plans
that are not a list of ``Adoption``, a plan's body, signature, words or speaker that
is not a str, meta not a mapping, origin not an int (``BoundsRefused`` naming
``plans[n].field``: a list body was "empty"). The status gates of a root (sealed,
superseded, contested, already ground) cannot apply to an entry this call
creates; one query afterwards confirms every new entry is ground.
Returns: ``Adopted`` (local ids and the inserted rows, so a caller can describe
them without reading them back).
Test: tests/custody/test_bulk_adopt.py, tests/store/test_face_arguments.py,
tests/store/test_write_buckets_and_plans.py
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from forest_files.kernel import bounds
from forest_files.kernel.errors import CeremonyRefusal, ForestError
from forest_files.praise import refuse_praise
from forest_files.store import args, queries, rows
from forest_files.store.ceremonies import texts
from forest_files.store.clock import utc_now
from forest_files.store.connection import guarded
from forest_files.store.lookup import check_id
from forest_files.store.rows import Row, Stamp
from forest_files.store.writing import WriteMixin


class Adopted(NamedTuple):
    """One imported entry and the record that roots it."""

    entry_id: int
    entry: Row
    record_id: int
    record: Row


class Adoption(NamedTuple):
    """One import and its adoption record, with the stamps an act declares for them."""

    body: str
    meta: Mapping[str, Any]
    origin: int
    signature: str
    words: str
    speaker: str
    entry_stamp: Stamp
    record_stamp: Stamp
    # ``hash_body(body)`` when the caller has it already (an act's declared hash, checked
    # against the body it read): the body is then not hashed a second time.
    body_hash: str | None = None
    # The meta passed ``bounds.check_meta`` already (an act's record, judged when the act
    # was decoded or built): the row's check does not judge it again.
    meta_judged: bool = False


def _items(items: object) -> list[tuple[str, Mapping[str, Any]]]:
    """``import_and_root``'s items, each a (str body, mapping or None meta) pair (a
    mapping that is not JSON is the row's check to refuse; ``[]`` was taken as ``{}``)."""
    given = args.collection("import_and_root", "items", items, "[('text', {})]")
    checked: list[tuple[str, Mapping[str, Any]]] = []
    for n, item in enumerate(given):
        body, meta = args.pair("import_and_root", f"items[{n}]", item, "('text', {})")
        text = args.text("import_and_root", f"items[{n}][0]", body, "'text'")
        checked.append((text, args.mapping("import_and_root", f"items[{n}][1]", meta)))
    return checked


def _plans(plans: object) -> list[Adoption]:
    """``insert_adoptions``' plans, each an ``Adoption`` whose texts are strs (a words
    or speaker of None left to the blank checks, as ``import_and_root``'s), its meta a
    mapping or None and its origin an int: a list body was called "empty", a list of
    words raised ``TypeError`` (unhashable)."""
    what = "insert_adoptions"
    given = args.collection(what, "plans", plans, "[Adoption(...)]")
    for n, plan in enumerate(given):
        if not isinstance(plan, Adoption):
            kind = type(plan).__name__
            raise bounds.BoundsRefused(f"{what}: plans[{n}]", f"must be an Adoption, not {kind}")
        args.text(what, f"plans[{n}].body", plan.body, "'text'")
        for field in ("signature", "words", "speaker"):
            if getattr(plan, field) is not None:
                args.text(what, f"plans[{n}].{field}", getattr(plan, field), "'author'")
        args.mapping(what, f"plans[{n}].meta", plan.meta)
        check_id(f"{what}: plans[{n}].origin", plan.origin)
    return given


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
        texts(
            "import_and_root",
            signature=signature,
            adopting_words=adopting_words,
            adopting_signature=adopting_signature,
        )
        items = _items(items)
        check_id("import_and_root: origin", origin)
        # One creation time for the batch (it is one act of adoption) and one read
        # of the system's randomness for every nonce.
        stamp = utc_now()
        salts = secrets.token_bytes(16 * len(items)).hex()
        plans = [
            Adoption(
                body=body,
                meta=meta,
                origin=origin,
                signature=signature,
                words=adopting_words,
                speaker=adopting_signature,
                entry_stamp=(stamp, salts[32 * pos : 32 * pos + 16]),
                record_stamp=(stamp, salts[32 * pos + 16 : 32 * pos + 32]),
            )
            for pos, (body, meta) in enumerate(items)
        ]
        return self.insert_adoptions(plans)

    @guarded
    def insert_adoptions(self, plans: Sequence[Adoption]) -> list[Adopted]:
        """Insert every planned import with its adoption record; all or nothing.

        The words are judged once per distinct text (blank, praise), every row is
        validated before any is written, one FTS5 batch indexes the bodies.
        """
        plans = _plans(plans)
        for words in {p.words for p in plans}:
            if not isinstance(words, str) or not words.strip():
                raise CeremonyRefusal("missing adopting words: say what is adopted, and sign it")
            refuse_praise(words)
        for plan in plans:
            if not isinstance(plan.speaker, str) or not plan.speaker.strip():
                raise CeremonyRefusal("root without a speaker signature refused")
        words_hash: dict[str, str] = {}  # one adopting text for many records: hashed once
        judged: set[tuple[str, str]] = set()  # and each (words, speaker) record judged once
        with self.atomic(), self.deferred_text_index():
            known = self._origin_content_ids(sorted({(p.origin, "derived_from") for p in plans}))
            first = int(self.conn.execute(queries.MAX_ENTRY_ID).fetchone()[0]) + 1
            made: list[Adopted] = []
            for pos, plan in enumerate(plans):
                entry, record = rows.adopt(
                    (plan.origin, known[plan.origin]),
                    scope=self.scope,
                    body=plan.body,
                    meta=plan.meta,
                    signature=plan.signature,
                    words=plan.words,
                    speaker=plan.speaker,
                    stamp=plan.entry_stamp,
                    record_stamp=plan.record_stamp,
                    words_hash=words_hash.get(plan.words),
                    body_hash=plan.body_hash,
                    meta_judged=plan.meta_judged,
                    record_judged=(plan.words, plan.speaker) in judged,
                    max_body_bytes=self.max_body_bytes,
                )
                words_hash[plan.words] = record.body_hash
                judged.add((plan.words, plan.speaker))
                made.append(Adopted(first + 2 * pos, entry, first + 2 * pos + 1, record))
            values = [(a.entry_id, *a.entry.values()) for a in made]
            values += [(a.record_id, *a.record.values()) for a in made]
            values.sort()
            self.conn.executemany(queries.INSERT_ENTRY_WITH_ID, values)
            edges = [
                (a.entry_id, link.id, link.kind, a.entry.created_at)
                for a in made
                for link in a.entry.links
            ]
            edges += [  # the record's link names its entry (``rows.Link`` id None)
                (a.record_id, a.entry_id, link.kind, a.record.created_at)
                for a in made
                for link in a.record.links
            ]
            edges.sort()
            self.conn.executemany(queries.INSERT_EDGE, edges)
            rooted = self.conn.execute(queries.ROOTED_IMPORTS_FROM, (first,)).fetchone()[0]
            if rooted != len(made):
                raise ForestError(f"bulk root postcondition failed: {rooted} of {len(made)}")
        return made
