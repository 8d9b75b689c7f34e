"""What each ceremony writes: its rows, as pure functions of its inputs, with their content ids.

Root, supersede (a sibling supersede too), resolve, seal, unseal and adopt are
defined here once. The store's ceremonies insert these rows; the planner
(custody/plan.py) describes the same rows in an act before anything is
inserted; the applier (custody/apply.py) applies an act through the store's
ceremonies and compares the ids they produce with the ones the act declares,
which only an edited or forged act can fail.

Stores: nothing (no clock, no randomness: a caller gives every stamp).
Refuses (``ForestError``): a supersession into a ceremony bucket or a pair; a new
body other than the one shown (``expected_body_hash``); given ``max_body_bytes``
(the store's bound; the planner leaves it out, the applier's store call judges
the same rows), every row first as the store's insert refuses it
(``entryrow.check``).
Returns: ``Row`` values (forest_files/store/entryrow.py: the columns an entry is
inserted with, its origins as ``Link`` values, its content id); ``Made`` (a new
entry and the record that adopts it).
Test: tests/store/test_store_rows.py, tests/custody/test_applier_equivalence.py,
tests/ledger/test_ledger_format_doc.py (the ledger vectors' content ids)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from forest_files.kernel.errors import ForestError
from forest_files.kernel.hashing import hash_body
from forest_files.kernel.vocab import RESERVED_BUCKETS, ROOT_BUCKET

# The row type and its refusals (explicit re-exports: callers name them ``rows.…``).
from forest_files.store.entryrow import ERASED_MARK as ERASED_MARK
from forest_files.store.entryrow import Link as Link
from forest_files.store.entryrow import Row as Row
from forest_files.store.entryrow import Stamp as Stamp
from forest_files.store.entryrow import Subject as Subject
from forest_files.store.entryrow import check as check
from forest_files.store.entryrow import entry_row as entry_row

# The hashes of a ceremony's body and words a recorded erasure removed (None: present).
Erased = tuple[str | None, str | None]


class Made(NamedTuple):
    """The rows of a ceremony that writes a new entry: it, then its adoption record."""

    entry: Row
    record: Row


# -- the ceremonies ------------------------------------------------------------------------
def adoption_record(
    subject: Link,
    *,
    scope: str,
    words: str,
    speaker: str,
    stamp: Stamp,
    words_hash: str | None = None,
    max_body_bytes: int | None = None,
) -> Row:
    """The record that adopts ``subject`` (a ``Link`` of kind ``adopts``): the words,
    stripped, signed by the speaker, stripped."""
    return entry_row(
        max_body_bytes=max_body_bytes,
        scope=scope,
        stamp=stamp,
        jurisdiction="home",
        bucket="adoption_record",
        source=None,
        signature=speaker.strip(),
        body=words.strip(),
        links=(subject,),
        body_hash=words_hash,
    )


def root(
    target: Subject, *, words: str, speaker: str, stamp: Stamp, max_body_bytes: int | None = None
) -> Row:
    """Root ``target`` in place: one adoption record."""
    return adoption_record(
        Link(target.id, target.content_id, "adopts"),
        scope=target.scope,
        words=words,
        speaker=speaker,
        stamp=stamp,
        max_body_bytes=max_body_bytes,
    )


def successor_bucket(old_bucket: str, requested: str | None) -> str:
    """The bucket a supersession of an entry in ``old_bucket`` writes."""
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


def check_expected(body: str, expected_body_hash: str | None) -> None:
    """Refuse a new body whose hash is not the one shown."""
    if expected_body_hash is None:
        return
    actual = hash_body(body)
    if actual != expected_body_hash:
        raise ForestError(
            f"supersede: body_hash mismatch for the new body (expected "
            f"{expected_body_hash}, stored {actual}); re-read what was shown and "
            "supersede exactly that (note: scrub runs first)"
        )


def supersede(
    old: Subject,
    *,
    body: str,
    words: str,
    speaker: str,
    signature: str,
    bucket: str | None,
    stamp: Stamp,
    record_stamp: Stamp | None = None,
    expected_body_hash: str | None = None,
    max_body_bytes: int | None = None,
    erased: Erased = (None, None),
) -> Made:
    """Correct ground ``old``: a new entry that ``supersedes`` and is ``derived_from``
    it, on its chain, and the record adopting it (``record_stamp``: the entry's
    stamp unless given; an act's entry and record share one). ``erased``: the
    hashes of the body and the words when a recorded erasure removed them (each
    given as the marker)."""
    new_bucket = successor_bucket(old.bucket, bucket)
    if erased[0] is None:
        check_expected(body, expected_body_hash)
    entry = entry_row(
        max_body_bytes=max_body_bytes,
        scope=old.scope,
        stamp=stamp,
        jurisdiction=old.jurisdiction,
        bucket=new_bucket,
        source=old.source,
        signature=signature.strip(),
        body=body,
        links=(
            Link(old.id, old.content_id, "supersedes"),
            Link(old.id, old.content_id, "derived_from"),
        ),
        chain_root=old.chain,
        erased_body_hash=erased[0],
    )
    record = adoption_record(
        Link(None, entry.content_id, "adopts"),
        scope=old.scope,
        words=words,
        speaker=speaker,
        stamp=record_stamp or stamp,
        words_hash=erased[1],
        max_body_bytes=max_body_bytes,
    )
    return Made(entry, record)


def resolve(
    heads: Sequence[tuple[int, str]],
    pick: Subject,
    *,
    words: str,
    speaker: str,
    stamp: Stamp,
    record_stamp: Stamp | None = None,
    max_body_bytes: int | None = None,
    erased: Erased = (None, None),
) -> Made:
    """End a contest: a new entry with ``pick``'s text that ``supersedes`` every head
    (``(id, content id)`` pairs) and is ``derived_from`` the pick, signed by the
    speaker, and the record adopting it (``erased``: as in ``supersede``; the
    pick's body is then the marker)."""
    links = [Link(head, cid, "supersedes") for head, cid in heads]
    links.append(Link(pick.id, pick.content_id, "derived_from"))
    entry = entry_row(
        max_body_bytes=max_body_bytes,
        scope=pick.scope,
        stamp=stamp,
        jurisdiction=pick.jurisdiction,
        bucket=pick.bucket,
        source=pick.source,
        signature=speaker.strip(),
        body=pick.body,
        links=links,
        chain_root=pick.chain,
        erased_body_hash=erased[0],
    )
    record = adoption_record(
        Link(None, entry.content_id, "adopts"),
        scope=pick.scope,
        words=words,
        speaker=speaker,
        stamp=record_stamp or stamp,
        words_hash=erased[1],
        max_body_bytes=max_body_bytes,
    )
    return Made(entry, record)


def seal(
    target: Subject,
    *,
    quote: str,
    signature: str,
    stamp: Stamp,
    sealing: bool,
    max_body_bytes: int | None = None,
) -> Row:
    """The sealing (``sealing`` False: unsealing) record of ``target``: the quote and
    the signature as given."""
    return entry_row(
        max_body_bytes=max_body_bytes,
        scope=target.scope,
        stamp=stamp,
        jurisdiction="home",
        bucket="sealing_record" if sealing else "unsealing_record",
        source=None,
        signature=signature,
        body=quote,
        links=(Link(target.id, target.content_id, "seals" if sealing else "unseals"),),
    )


def adopt(
    origin: tuple[int, str],
    *,
    scope: str,
    body: str,
    meta: Mapping[str, Any] | None,
    signature: str,
    words: str,
    speaker: str,
    stamp: Stamp,
    record_stamp: Stamp,
    words_hash: str | None = None,
    body_hash: str | None = None,
    max_body_bytes: int | None = None,
    meta_judged: bool = False,
    record_judged: bool = False,
) -> Made:
    """Import ``body`` as an ``import`` entry ``derived_from`` ``origin`` (its id and
    content id) and root it: the entry and its adoption record. ``words_hash`` and
    ``body_hash``: ``hash_body`` of the words and the body, when the caller has them;
    ``meta_judged``: the meta passed ``bounds.check_meta`` already; ``record_judged``:
    a record of these words by this speaker passed ``check`` under ``max_body_bytes``
    already (a record's check reads nothing else), so this one is not judged again."""
    entry = entry_row(
        max_body_bytes=max_body_bytes,
        ceremony=False,
        scope=scope,
        stamp=stamp,
        jurisdiction="home",
        bucket="import",
        source=None,
        signature=signature,
        body=body,
        meta=meta,
        links=(Link(origin[0], origin[1], "derived_from"),),
        body_hash=body_hash,
        meta_judged=meta_judged,
    )
    record = adoption_record(
        Link(None, entry.content_id, "adopts"),
        scope=scope,
        words=words,
        speaker=speaker,
        stamp=record_stamp,
        words_hash=words_hash,
        max_body_bytes=None if record_judged else max_body_bytes,
    )
    return Made(entry, record)
