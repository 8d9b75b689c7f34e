"""The applier's state and the rules every act kind shares (custody/apply.py's base).

``ApplyRules`` holds one store, its body reader, the bodies a recorded erase
removed and the caches of one replay; the per-kind rooms (apply_adopt.py,
apply_entries.py, apply_bindings.py, apply_governance.py) take it explicitly and
``Applier`` (apply.py) adds the entry points.

Stores: an entry an act declares, one at a time (``insert_declared``); nothing
else (the kinds' rooms write their rows).
Refuses (``LedgerError`` naming the act, or a live command's ``ForestError``):
an act of another project; a body missing or not hashing to its ``body_hash`` (text a
``HashedBodies`` reader returned was hashed as bytes there: apply_bodies.py);
a declared content id other than the one the store produced, or than its
record's own fields hash to; a content id not
in the index; a ceremony record naming anything but its entry, or carrying a
source or meta; an act whose dependencies do not reach the act that made what
it names; an act any text of which a recorded erase tombstoned; an entry of
another scope than the index's.
Returns: ``Applied``; a body's text; content ids and local ids; the paths an
entry's chain was ever bound to.
Test: tests/custody/test_applier_props.py, tests/ledger/test_ledger_kinds.py,
tests/governance/test_authority_derived.py
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from forest_files.custody import applied as book
from forest_files.custody import bindings, tombscan, tombstone
from forest_files.custody.apply_bodies import HashedBodies
from forest_files.kernel.errors import ForestError
from forest_files.kernel.hashing import ENTRY_FIELDS, hash_body
from forest_files.kernel.vocab import CEREMONY_BUCKETS
from forest_files.ledger.acts import Act, LedgerError
from forest_files.ledger.kinds import EntryRecord
from forest_files.ledger.record import recompute_id
from forest_files.store.entryrow import ERASED_MARK, Row
from forest_files.store.forest import ForestStore

BodyReader = Callable[[str], str | None]
# The entry a ceremony record adopts, seals or unseals (its status edge's target).
_NAMED_BY_RECORD = (
    "SELECT to_id FROM edges WHERE from_id = ? AND kind IN ('adopts', 'seals', 'unseals')"
)


@dataclass(frozen=True)
class Applied:
    act: Act
    produced: tuple[str, ...]
    paths: frozenset[str]


def project_of(store: ForestStore) -> str | None:
    """The project id of the index's anchor (None for a store without one)."""
    row = store.conn.execute(
        "SELECT meta_json FROM entries WHERE bucket = 'anchor' ORDER BY id LIMIT 1"
    ).fetchone()
    if row is None:
        return None
    project = json.loads(row[0] or "{}").get("project_id")
    return project if isinstance(project, str) else None


def chain_of(store: ForestStore, entry_id: int) -> int:
    row = store.require(entry_id, "chain")
    return int(row["chain_root"] or entry_id)


class ApplyRules:
    """One applier's state and shared rules; ``erased``: body hashes a recorded erase removed."""

    def __init__(
        self,
        store: ForestStore,
        read: BodyReader,
        erased: frozenset[str] = frozenset(),
        *,
        live: bool = False,
    ) -> None:
        self.store = store
        self.read = read
        self.erased = erased
        self.project = project_of(store)
        # A live command's act is refused as a refusal (exit 1), a ledger's as a fault.
        self.live = live
        self._words: dict[str, str] = {}  # adopting words read and checked once
        self._ids: dict[str, int] = {}
        self.tombs: dict[str, frozenset[str]] | None = None  # loaded on first use

    # -- shared rules ---------------------------------------------------------------
    def fail(self, act: Act, reason: str, code: str = "refused") -> ForestError:
        if self.live:
            return ForestError(f"{act.kind} refused: {reason}")
        return LedgerError(f"act {act.id} ({act.kind}): {reason}", act_id=act.id, code=code)

    def body(self, act: Act, record: EntryRecord) -> str | None:
        """The record's body, or None when a recorded erasure removed it."""
        text = self._words.get(record.body_hash)
        if text is not None:
            return text
        text = self.read(record.body_hash)
        if text is None:
            if record.body_hash in self.erased:
                return None
            raise self.fail(act, f"body {record.body_hash} is missing", "body-missing")
        # A ``HashedBodies`` reader hashed the bytes this text strictly decodes from
        # and matched them to this very hash (apply_bodies.py): not hashed again.
        proven = isinstance(self.read, HashedBodies)
        if not proven and hash_body(text) != record.body_hash:
            raise self.fail(act, f"body {record.body_hash} does not hash to it", "body-hash")
        if record.bucket == "adoption_record":  # one adoption's words serve many entries
            self._words[record.body_hash] = text
        return text

    def check_id(self, act: Act, local_id: int, record: EntryRecord) -> str:
        return self.same(act, self.store.content_id(local_id), record)

    def same(self, act: Act, produced: str, record: EntryRecord) -> str:
        if produced != record.content_id:
            raise self.fail(
                act,
                f"declares entry {record.content_id} but the store produced {produced} "
                "(forged or edited act)",
                "id-mismatch",
            )
        # A supersede's or resolve's entry is built by the store, not from the record:
        # a field edited with its content id kept would pass the check above unread.
        if recompute_id(record) != record.content_id:
            raise self.fail(
                act,
                f"declares entry {record.content_id}, which its own fields do not hash to "
                "(forged or edited act)",
                "id-mismatch",
            )
        return produced

    def same_row(self, act: Act, row: Row, record: EntryRecord) -> str:
        """``same`` for a row the store built from ``record``'s own fields. When every
        field the content id hashes is the record's (its meta a flat object of strings,
        compared by type and value), the row's content id is what the record's fields
        hash to, so its match with the declared id proves both and the record is not
        hashed again (an adopt replay's two entries per act); else ``same``."""
        if row.content_id == record.content_id and _hashed_alike(row, record):
            return row.content_id
        return self.same(act, row.content_id, record)

    def local(self, act: Act, content_id: str, key: str) -> int:
        known = self._ids.get(content_id)  # entries are never deleted: ids stay put
        if known is not None:
            return known
        found = self.store.id_for_content(content_id)
        if found is None:
            raise self.fail(act, f"{key} {content_id} is not in the index (missing dependency?)")
        if len(self._ids) < 4096:
            self._ids[content_id] = found
        return found

    def scope(self, act: Act) -> None:
        if self.project is None or act.scope != self.project:
            from forest_files.kernel.shellword import command_text, git_step

            checkout = command_text(git_step("checkout", "HEAD", "--", "forest.toml"))
            raise self.fail(
                act,
                f"belongs to project {act.scope!r}, not this repository's "
                f"{self.project!r} (forest.toml [project] id): if forest.toml's id was "
                f"changed, put the committed one back ({checkout}); "
                "if the act's segment was copied in from another project, remove it",
                "scope",
            )

    def record_of(self, act: Act, record: EntryRecord, entry_cid: str, kind: str) -> None:
        """An adoption (or sealing) record names exactly its entry and nothing else."""
        if record.origins != ((entry_cid, kind),) or record.jurisdiction != "home":
            raise self.fail(act, f"its record must name exactly {entry_cid} ({kind})")
        if record.source is not None or record.meta:
            raise self.fail(act, "its record carries no source and no meta")

    def made_within(self, act: Act, content_id: str, what: str) -> None:
        """Refuse an act whose dependencies do not reach the act that made ``content_id``
        (replay orders by deps: without it the act could come first on another clone)."""
        producer = book.creator_act(self.store, content_id)
        if producer is not None and not book.ancestors_among(self.store, act, {producer}):
            raise self.fail(act, f"its dependencies do not include the act that made its {what}")

    def refuse_tombstoned(self, act: Act) -> None:
        """Refuse an act any text of which (a body, its words, signature, file name,
        selector, any field: tombscan.py) holds a line, a token or the body an erase
        act in its dependency closure tombstoned (live commands depend on every such
        erase: repository.py). An act made before it saw the erase is applied; the
        gate reports it (erased-content)."""
        if self.tombs is None:
            self.tombs = tombstone.load(self.store)
        if not self.tombs:
            return

        def seen(acts: frozenset[str]) -> frozenset[str]:
            return frozenset(book.ancestors_among(self.store, act, set(acts)))

        hit = tombscan.first_hit(self.tombs, self.project or "", act, self._text_of, seen)
        if hit is None:
            return
        if self.live:
            raise tombscan.TombstoneHit(f"{act.kind} refused: {tombscan.describe(hit)}", hit)
        raise self.fail(act, tombscan.describe(hit))

    def _text_of(self, body_hash: str) -> str | None:
        """A body's text for the tombstone scan (None when absent: the kind's own
        rules refuse a missing body)."""
        text = self._words.get(body_hash)
        return text if text is not None else self.read(body_hash)

    def paths_of_entry(self, entry_id: int) -> frozenset[str]:
        """Every path the entry's chain was ever bound to (a retired binding keeps its
        paths); for a ceremony record (adopting words, a sealing or unsealing record),
        those of the entry it names. Empty: the act is judged as a path only ``**``
        matches (config.holders_for)."""
        row = self.store.require(entry_id, "chain")
        if row["bucket"] not in CEREMONY_BUCKETS:
            return bindings.chain_paths_ever(self.store, int(row["chain_root"] or entry_id))
        named = self.store.conn.execute(_NAMED_BY_RECORD, (entry_id,)).fetchall()
        paths: set[str] = set()
        for (target,) in named:
            if int(target) != entry_id:
                paths |= self.paths_of_entry(int(target))
        return frozenset(paths)

    def insert_declared(
        self, act: Act, rec: EntryRecord, origins: list[tuple[int, str]], *, ceremony: bool
    ) -> int:
        """Insert the entry ``rec`` declares, one at a time; a body a recorded erasure
        removed is kept as the marker, under its hash."""
        if rec.scope != self.store.scope:  # a batch of adopts meets this in its content id
            raise self.fail(
                act,
                f"its entry's scope {rec.scope!r} is not the index's {self.store.scope!r}; "
                "an act of this repository writes entries of that scope only",
                "scope",
            )
        text = self.body(act, rec)
        return self.store.insert_entry(
            body=ERASED_MARK if text is None else text,
            erased_body_hash=rec.body_hash if text is None else None,
            jurisdiction=rec.jurisdiction,
            bucket=rec.bucket,
            signature=rec.signature,
            source=rec.source,
            meta=rec.meta,
            origins=origins,
            ceremony=ceremony,
            created_at=rec.created_at,
            nonce=rec.nonce,
            scope_of=rec.scope,
        )


def _hashed_alike(row: Row, record: EntryRecord) -> bool:
    """Every field ``entry_content_id`` hashes (kernel/hashing.py ``ENTRY_FIELDS``) is
    the same in ``row`` and ``record``, of the same type (origins as it sorts them);
    False when unsure (a meta key or value not a string)."""
    meta = record.meta
    if not all(type(k) is str and type(v) is str for k, v in meta.items()):
        return False
    for name in ENTRY_FIELDS:
        mine, theirs = getattr(row, name), getattr(record, name)
        if name == "origins":
            theirs = tuple(sorted(theirs))
        elif name == "meta":
            theirs = dict(theirs)
        if type(mine) is not type(theirs) or mine != theirs:
            return False
    return True
