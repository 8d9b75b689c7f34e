"""One applier per act kind: the only code that turns an act into index rows.

A live command builds its act (``plan``), applies it here inside its
transaction and then writes the segment; replay applies the acts of a ledger
here too. There is no second implementation of any act, so a hand-written
act is refused exactly where the live command would be refused.

Stores: the entries, edges and binding events each act makes, the act's
bookkeeping (``applied``) and the bound paths it touched.
Refuses (``LedgerError`` naming the act, never a body): an act of another
project (its ``scope`` is not the anchor's project id); a body missing or not
hashing to its ``body_hash``; declared content ids other than the ones the
store produces (forged or edited fields); entries of a shape the kind never
makes (an adopt of anything but a fresh import from one origin, a ceremony
bucket in a write, a record whose origins are not its entry); praise-only or
blank words and blank signatures; a supersession, resolve, seal or unseal of
an entry whose status at the act's dependencies does not allow it; a binding
whose section hash is not its entry's body hash or whose selector does not
name its path; a rebind to text that was not ground at its dependencies (or,
with a supersede part, a part that is not a valid supersession of the
binding's own chain by the rebind's signer, to the rebind's hash); a
rebind or retire of a binding retired at its dependencies; an erase of a body
that live ground holds at its dependencies;
any act any text of which (bodies, words, signatures, file names, selectors,
every field: custody/tombscan.py) holds a line, a token or the body an erase
act in its dependency closure tombstoned (``erased-content``; the erase
records its tombstone lines and tokens).
An act whose body or words a recorded erase removed replays with an erased
body (erased_acts.py): content ids, hashes and edges kept, the text the marker.
Returns: ``Applied`` (the content ids made and the bound paths touched: what
authority is judged over, derived from state, never from the act's own words —
an act on a chain touches every path the chain was ever bound to, retired or
moved; an act on adopting words or a sealing record, the chain it names; an act
touching none is judged as a path only ``**`` matches).
Test: tests/ledger/test_ledger_kinds.py, tests/governance/test_authority_derived.py,
tests/ledger/test_ledger_equivalence.py
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import assert_never

from forest_files.custody import applied as book
from forest_files.custody import bindings, erased_acts, tombscan, tombstone
from forest_files.kernel.errors import ForestError, StoreBusy, StoreCorruption
from forest_files.kernel.hashing import hash_body
from forest_files.kernel.vocab import CEREMONY_BUCKETS, RESERVED_BUCKETS, ROOT_BUCKET
from forest_files.ledger.acts import Act, LedgerError
from forest_files.ledger.kinds import (
    AdoptAct,
    BindSpec,
    EntryRecord,
    EraseAct,
    RebindAct,
    ResolveAct,
    RetireAct,
    SealAct,
    SupersedeAct,
    WriteAct,
)
from forest_files.store.base import check_kinds
from forest_files.store.bulk import Adoption
from forest_files.store.entryrow import ERASED_MARK
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


class Applier:
    """Applies acts to one store; ``erased``: body hashes a recorded erase removed."""

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
        self._tombs: dict[str, frozenset[str]] | None = None  # loaded on first use

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
        if hash_body(text) != record.body_hash:
            raise self.fail(act, f"body {record.body_hash} does not hash to it", "body-hash")
        if record.bucket == "adoption_record":  # one adoption's words serve many entries
            self._words[record.body_hash] = text
        return text

    def check_id(self, act: Act, local_id: int, record: EntryRecord) -> str:
        return self._same(act, self.store.content_id(local_id), record)

    def _same(self, act: Act, produced: str, record: EntryRecord) -> str:
        if produced != record.content_id:
            raise self.fail(
                act,
                f"declares entry {record.content_id} but the store produced {produced} "
                "(forged or edited act)",
                "id-mismatch",
            )
        return produced

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

    def _scope(self, act: Act) -> None:
        if self.project is None or act.scope != self.project:
            raise self.fail(
                act,
                f"belongs to project {act.scope!r}, not this repository's "
                f"{self.project!r} (forest.toml [project] id)",
                "scope",
            )

    def _record_of(self, act: Act, record: EntryRecord, entry_cid: str, kind: str) -> None:
        """An adoption (or sealing) record names exactly its entry and nothing else."""
        if record.origins != ((entry_cid, kind),) or record.jurisdiction != "home":
            raise self.fail(act, f"its record must name exactly {entry_cid} ({kind})")
        if record.source is not None or record.meta:
            raise self.fail(act, "its record carries no source and no meta")

    def _made_within(self, act: Act, content_id: str, what: str) -> None:
        """Refuse an act whose dependencies do not reach the act that made ``content_id``
        (replay orders by deps: without it the act could come first on another clone)."""
        producer = book.creator_act(self.store, content_id)
        if producer is not None and not book.ancestors_among(self.store, act, {producer}):
            raise self.fail(act, f"its dependencies do not include the act that made its {what}")

    def _refuse_tombstoned(self, act: Act) -> None:
        """Refuse an act any text of which (a body, its words, signature, file name,
        selector, any field: tombscan.py) holds a line, a token or the body an erase
        act in its dependency closure tombstoned (live commands depend on every such
        erase: repository.py). An act made before it saw the erase is applied; the
        gate reports it (erased-content)."""
        if self._tombs is None:
            self._tombs = tombstone.load(self.store)
        if not self._tombs:
            return

        def seen(acts: frozenset[str]) -> frozenset[str]:
            return frozenset(book.ancestors_among(self.store, act, set(acts)))

        hit = tombscan.first_hit(self._tombs, self.project or "", act, self._text_of, seen)
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

    def _paths_of_entry(self, entry_id: int) -> frozenset[str]:
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
                paths |= self._paths_of_entry(int(target))
        return frozenset(paths)

    # -- entry points ---------------------------------------------------------------
    def apply(self, act: Act) -> Applied:
        """Apply one act and its bookkeeping (call inside a transaction)."""
        return self.apply_many([act])[0]

    def apply_many(self, acts: Sequence[Act]) -> list[Applied]:
        """Apply acts in the given (dependency) order; consecutive adopts in one batch."""
        out: list[Applied] = []
        run: list[tuple[Act, AdoptAct]] = []
        made_in_run: set[str] = set()
        for act in acts:
            p = act.payload
            if isinstance(p, AdoptAct):
                origins = p.entry.origins
                # Needs the run inserted and marked first: its origin is made in the
                # run, or it depends on an act of the run (one whose body was erased is
                # marked only after the batch's bookkeeping).
                if (origins and origins[0][0] in made_in_run) or made_in_run.intersection(act.deps):
                    out += self._adopts(run)
                    run, made_in_run = [], set()
                run.append((act, p))
                made_in_run.update((p.entry.content_id, act.id))
                continue
            if run:
                out += self._adopts(run)
                run, made_in_run = [], set()
            out.append(self._one(act))
        if run:
            out += self._adopts(run)
        return out

    def _one(self, act: Act) -> Applied:
        self._scope(act)
        try:
            self._refuse_tombstoned(act)
            produced, paths = self._dispatch(act)
        except (StoreBusy, StoreCorruption):
            raise
        except ForestError as exc:
            if self.live or isinstance(exc, LedgerError):
                raise
            raise self.fail(act, f"refused: {exc}") from None
        book.mark_applied(self.store, act.id, produced, deps=act.deps)
        book.record_paths(self.store, [(act.id, paths)])
        return Applied(act, tuple(produced), paths)

    def _dispatch(self, act: Act) -> tuple[list[str], frozenset[str]]:
        p = act.payload
        if isinstance(p, WriteAct):
            return self._write(act, p), frozenset()
        if isinstance(p, SupersedeAct):
            return self._supersede(act, p)
        if isinstance(p, ResolveAct):
            return self._resolve(act, p)
        if isinstance(p, SealAct):  # an UnsealAct too
            return self._seal(act, p)
        if isinstance(p, RebindAct):
            return self._rebind(act, p)
        if isinstance(p, RetireAct):
            return [], self._retire(act, p)
        if isinstance(p, EraseAct):
            return [], self._erase(act, p)
        if isinstance(p, AdoptAct):
            raise self.fail(act, "adopts are applied in batches")
        assert_never(p)  # every kind of ``kinds.Payload`` has its applier above

    # -- adopt ------------------------------------------------------------------------
    def _adopts(self, acts: Sequence[tuple[Act, AdoptAct]]) -> list[Applied]:
        plans: list[Adoption] = []
        checked: list[tuple[Act, AdoptAct]] = []
        for act, p in acts:
            self._scope(act)
            try:
                plan = self._adopt_plan(act, p)
            except (LedgerError, StoreBusy, StoreCorruption):
                raise
            except ForestError as exc:
                if self.live:
                    raise
                raise self.fail(act, f"refused: {exc}") from None
            if plan is None:  # an erased body: the one-entry path keeps the marker
                continue
            plans.append(plan)
            checked.append((act, p))
        try:
            made = self.store.insert_adoptions(plans) if plans else []
        except (StoreBusy, StoreCorruption):
            raise
        except ForestError as exc:
            if self.live:
                raise
            raise self.fail(acts[0][0], f"refused: {exc}") from None
        results: dict[str, Applied] = {}
        binds: list[tuple[str, BindSpec, int, str, str]] = []
        marks: list[tuple[Act, list[str]]] = []
        for (act, p), new in zip(checked, made, strict=True):
            # The rows' content ids are the ones inserted (``rows.adopt``'s, the function
            # the planner describes them with), compared without reading them back.
            produced = [self._same(act, new.entry.content_id, p.entry)]
            produced.append(self._same(act, new.record.content_id, p.record))
            if p.binding is not None:
                binds.append(
                    (act.id, p.binding, new.entry_id, p.record.signature, p.record.created_at)
                )
            paths = frozenset() if p.binding is None else frozenset({p.binding.path})
            results[act.id] = Applied(act, tuple(produced), paths)
            marks.append((act, produced))
        bindings.apply_binds(self.store, binds)
        book.mark_applied_many(self.store, marks)
        book.record_paths(
            self.store, [(a.id, r.paths) for a, r in ((a, results[a.id]) for a, _ in marks)]
        )
        for act, p in acts:
            if act.id not in results:
                results[act.id] = self._adopt_erased(act, p)
        return [results[act.id] for act, _ in acts]

    def _adopt_plan(self, act: Act, p: AdoptAct) -> Adoption | None:
        entry, record = p.entry, p.record
        if entry.bucket != "import" or entry.jurisdiction != "home" or entry.source is not None:
            raise self.fail(act, "an adopt imports a fresh 'import' entry (home, no source)")
        if len(entry.origins) != 1 or entry.origins[0][1] != "derived_from":
            raise self.fail(act, "an adopted import has exactly one derived_from origin")
        if record.bucket != "adoption_record":
            raise self.fail(act, "an adopt's record is an adoption_record")
        self._record_of(act, record, entry.content_id, "adopts")
        origin = self.local(act, entry.origins[0][0], "origin")
        if p.binding is not None:
            self._check_spec(act, p.binding, entry.body_hash)
        body, words = self.body(act, entry), self.body(act, record)
        if body is None or words is None:
            return None
        self._refuse_tombstoned(act)
        return Adoption(
            body=body,
            meta=entry.meta,
            origin=origin,
            signature=entry.signature,
            words=words,
            speaker=record.signature,
            entry_stamp=entry.stamp,
            record_stamp=record.stamp,
        )

    def _check_spec(self, act: Act, spec: BindSpec, body_hash: str) -> None:
        from forest_files.text.selector import SelectorError, parse_selector

        if spec.section_hash != body_hash:
            raise self.fail(act, "the binding's section_hash is not the adopted body's hash")
        try:
            named = parse_selector(spec.selector).path
        except (SelectorError, ValueError) as exc:
            raise self.fail(act, f"the binding's selector is not valid: {exc}") from None
        if named != spec.path:
            raise self.fail(act, f"the binding's selector names {named}, not its path")

    def _insert_declared(
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

    def _adopt_erased(self, act: Act, p: AdoptAct) -> Applied:
        """An adopt whose body or words a recorded erasure removed: one entry at a time."""
        store = self.store
        origin = self.local(act, p.entry.origins[0][0], "origin")
        entry_id = self._insert_declared(act, p.entry, [(origin, "derived_from")], ceremony=False)
        record_id = self._insert_declared(act, p.record, [(entry_id, "adopts")], ceremony=True)
        produced = [self.check_id(act, entry_id, p.entry), self.check_id(act, record_id, p.record)]
        paths: frozenset[str] = frozenset()
        if p.binding is not None:
            bindings.apply_bind(
                store, act.id, p.binding, entry_id, by=p.record.signature, at=p.record.created_at
            )
            paths = frozenset({p.binding.path})
        book.mark_applied(store, act.id, produced, deps=act.deps)
        book.record_paths(store, [(act.id, paths)])
        return Applied(act, tuple(produced), paths)

    # -- write ------------------------------------------------------------------------
    def _write(self, act: Act, p: WriteAct) -> list[str]:
        rec = p.entry
        if rec.bucket in RESERVED_BUCKETS or rec.bucket in (ROOT_BUCKET, "anchor"):
            raise self.fail(act, f"bucket {rec.bucket!r} is never written by a write act")
        origins = check_kinds(
            [(self.local(act, cid, "origin"), kind) for cid, kind in rec.origins],
            allow_ceremony=False,
        )
        if not origins:
            raise self.fail(act, "orphan write: every entry needs an origin")
        new_id = self._insert_declared(act, rec, origins, ceremony=False)
        return [self.check_id(act, new_id, rec)]

    # -- supersede and resolve --------------------------------------------------------
    def _successor_shape(self, act: Act, entry: EntryRecord, record: EntryRecord) -> None:
        if entry.stamp != record.stamp:
            raise self.fail(act, "entry and record of one act must share a stamp")
        if record.bucket != "adoption_record":
            raise self.fail(act, "its record is an adoption_record")
        self._record_of(act, record, entry.content_id, "adopts")

    def _adoption_of(self, act: Act, entry_id: int, record: EntryRecord) -> str:
        from forest_files.custody.views import latest_record

        return self.check_id(act, latest_record(self.store, entry_id, "adopts"), record)

    def _supersede(self, act: Act, p: SupersedeAct) -> tuple[list[str], frozenset[str]]:
        store = self.store
        old = self.local(act, p.old, "old")
        self._successor_shape(act, p.entry, p.record)
        body, words = self.body(act, p.entry), self.body(act, p.record)
        if not book.status_at_deps(store, old, act).ground:
            raise self.fail(act, "supersedes an entry that was not ground at its dependencies")
        if self._rivals_at_deps(act, old):
            raise self.fail(
                act,
                "supersedes an entry that is not current ground: it is contested; "
                "resolve the contest first",
            )
        paths = self._paths_of_entry(old)
        if body is None or words is None:  # replayed after an erase: its text is gone
            new_id = erased_acts.supersede(store, old, p, body, words)
        elif store.is_ground(old):
            new_id = store.supersede(
                old_id=old,
                new_body=body,
                adopting_words=words,
                adopting_signature=p.record.signature,
                signature=p.entry.signature,
                bucket=p.entry.bucket,
                scrub=None,
                expected_body_hash=p.entry.body_hash,
                stamp=p.entry.stamp,
            )
        else:  # a merged branch superseded it too: a second successor, contested after
            new_id = store.supersede_beside(
                old_id=old,
                new_body=body,
                adopting_words=words,
                adopting_signature=p.record.signature,
                signature=p.entry.signature,
                bucket=p.entry.bucket,
                stamp=p.entry.stamp,
            )
        produced = [self.check_id(act, new_id, p.entry), self._adoption_of(act, new_id, p.record)]
        return produced, paths

    def _rivals_at_deps(self, act: Act, entry_id: int) -> list[int]:
        """Other live heads of the entry's chain, as seen from the act's dependencies."""
        chain = chain_of(self.store, entry_id)
        rows = self.store.conn.execute(
            "SELECT id FROM entries WHERE (id = ? OR chain_root = ?) AND id != ? "
            "AND bucket NOT IN ('adoption_record', 'sealing_record', 'unsealing_record')",
            (chain, chain, entry_id),
        ).fetchall()
        return [int(r[0]) for r in rows if book.status_at_deps(self.store, int(r[0]), act).ground]

    def _resolve(self, act: Act, p: ResolveAct) -> tuple[list[str], frozenset[str]]:
        store = self.store
        heads = [self.local(act, h, "head") for h in p.heads]
        pick = self.local(act, p.pick, "pick")
        self._successor_shape(act, p.entry, p.record)
        if pick not in heads:
            raise self.fail(act, "the pick is not one of the heads it resolves")
        if len({chain_of(store, h) for h in heads}) != 1:
            raise self.fail(act, "the heads it resolves are not of one supersession chain")
        if not all(book.status_at_deps(store, h, act).ground for h in heads):
            raise self.fail(act, "resolves a head that was not live at its dependencies")
        text, words = self.body(act, p.entry), self.body(act, p.record)
        picked = store.require(pick, "resolve")
        if text is None or words is None or str(picked["body"]) == ERASED_MARK:
            # replayed after an erase: the pick's hash stands for its text
            paths = self._paths_of_entry(pick)
            new_id = erased_acts.resolve(store, sorted(heads), pick, p, words)
            produced = [self.check_id(act, new_id, p.entry)]
            return [*produced, self._adoption_of(act, new_id, p.record)], paths
        if text != str(picked["body"]):
            raise self.fail(act, "the resolved text is not the picked head's text")
        paths = self._paths_of_entry(pick)
        new_id = store.resolve(
            contested_id=heads[0],
            pick_id=pick,
            adopting_words=words,
            adopting_signature=p.record.signature,
            stamp=p.entry.stamp,
            heads=sorted(heads),
        )
        produced = [self.check_id(act, new_id, p.entry), self._adoption_of(act, new_id, p.record)]
        return produced, paths

    # -- seal and unseal --------------------------------------------------------------
    def _seal(self, act: Act, p: SealAct) -> tuple[list[str], frozenset[str]]:
        store = self.store
        target = self.local(act, p.target, "target")
        self._made_within(act, p.target, "target")
        bucket = "sealing_record" if p.sealing else "unsealing_record"
        if p.record.bucket != bucket:
            raise self.fail(act, f"its record is a {bucket}")
        self._record_of(act, p.record, p.target, "seals" if p.sealing else "unseals")
        quote = self.body(act, p.record)
        if book.status_at_deps(store, target, act).sealed == p.sealing:
            state = "already sealed" if p.sealing else "not sealed"
            raise self.fail(act, f"target was {state} at its dependencies")
        if quote is None:  # replayed after an erase of its quote: the record, marked
            kind = "seals" if p.sealing else "unseals"
            record_id = self._insert_declared(act, p.record, [(target, kind)], ceremony=True)
        elif store.is_sealed(target) != p.sealing:
            ceremony = store.seal if p.sealing else store.unseal
            record_id = ceremony(
                entry_id=target, quote=quote, signature=p.record.signature, stamp=p.record.stamp
            )
        else:  # a merged branch made the same change: record it beside the other one
            record_id = store.seal_beside(
                entry_id=target,
                quote=quote,
                signature=p.record.signature,
                stamp=p.record.stamp,
                sealing=p.sealing,
            )
        return [self.check_id(act, record_id, p.record)], self._paths_of_entry(target)

    # -- bindings ---------------------------------------------------------------------
    def _binding(self, act: Act, bind_act: str) -> bindings.Binding:
        current = bindings.binding_of(self.store, bind_act, act_id=act.id)
        if not book.ancestors_among(self.store, act, {bind_act}):
            raise self.fail(act, f"its dependencies do not include binding {bind_act}")
        # Retired by a merged branch this act never saw: recorded beside it (the
        # binding stays retired); retired within its own history: refused.
        if current.retired and book.ancestors_among(self.store, act, self._retire_acts(bind_act)):
            raise self.fail(act, f"binding {bind_act} was retired at its dependencies")
        return current

    def _retire_acts(self, bind_act: str) -> set[str]:
        rows = self.store.conn.execute(
            "SELECT act_id FROM binding_events WHERE bind_act = ? AND kind = 'retire'",
            (bind_act,),
        ).fetchall()
        return {str(r[0]) for r in rows}

    def _rebind(self, act: Act, p: RebindAct) -> tuple[list[str], frozenset[str]]:
        from forest_files.text.selector import SelectorError, parse_selector

        current = self._binding(act, p.binding)
        try:
            named = parse_selector(p.selector).path
        except (SelectorError, ValueError) as exc:
            raise self.fail(act, f"its selector is not valid: {exc}") from None
        if named != p.path:
            raise self.fail(act, f"its selector names {named}, not its path")
        produced: list[str] = []
        paths = frozenset({current.path, p.path}) | self._paths_of_entry(current.entry_id)
        if p.supersede is None:
            if not self._ground_text_at_deps(act, current.entry_id, p.section_hash):
                raise self.fail(
                    act,
                    "its section_hash is not the binding's ground text at its dependencies "
                    "(a rebind moves ground; it never changes it — add a supersede part)",
                )
        else:
            produced, chain = self._rebind_supersede(act, p, current)
            paths |= chain
        bindings.apply_rebind(self.store, act.id, p, current)
        return produced, paths

    def _rebind_supersede(
        self, act: Act, p: RebindAct, current: bindings.Binding
    ) -> tuple[list[str], frozenset[str]]:
        """The supersession a moved-and-edited section's rebind carries: of the
        binding's own chain, adopted by the rebind's signer, judged as a supersede."""
        part = p.supersede
        assert part is not None
        if part.entry.body_hash != p.section_hash:
            raise self.fail(act, "its section_hash is not its supersede entry's body hash")
        if part.record.signature != p.by:
            raise self.fail(act, "its supersede part is adopted by someone other than its signer")
        old = self.local(act, part.old, "old")
        if chain_of(self.store, old) != chain_of(self.store, current.entry_id):
            raise self.fail(act, "it supersedes an entry of another chain than its binding's")
        return self._supersede(act, part)

    def _ground_text_at_deps(self, act: Act, entry_id: int, body_hash: str) -> bool:
        chain = chain_of(self.store, entry_id)
        rows = self.store.conn.execute(
            "SELECT id FROM entries WHERE (id = ? OR chain_root = ?) AND body_hash = ?",
            (chain, chain, body_hash),
        ).fetchall()
        return any(book.status_at_deps(self.store, int(r[0]), act).ground for r in rows)

    def _retire(self, act: Act, p: RetireAct) -> frozenset[str]:
        current = self._binding(act, p.binding)
        paths = self._paths_of_entry(current.entry_id) | {current.path}
        bindings.apply_retire(self.store, act.id, p, current)
        return paths

    # -- erase ------------------------------------------------------------------------
    def _erase(self, act: Act, p: EraseAct) -> frozenset[str]:
        store = self.store
        rows = store.conn.execute(
            "SELECT id FROM entries WHERE body_hash = ?", (p.body_hash,)
        ).fetchall()
        producers = {book.creator_act(store, store.content_id(int(r[0]))) for r in rows}
        if not book.ancestors_among(store, act, {a for a in producers if a is not None}):
            raise self.fail(act, "its dependencies made no entry holding the body it erases")
        paths: set[str] = set()
        for row in rows:
            entry_id = int(row[0])
            if book.status_at_deps(store, entry_id, act).ground:
                ground = store.content_id(entry_id)
                raise self.fail(
                    act,
                    f"erases the body of live ground {ground}; supersede or seal it first "
                    f"(forest seal {ground} --words '…')",
                )
            paths |= self._paths_of_entry(entry_id)
        for row in rows:
            store.erase_body(int(row[0]), signature=p.by, reason=p.reason, at=p.at)
        marks = (
            *(p.lines or ()),
            *(p.tokens or ()),
            tombstone.body_mark(self.project or "", p.body_hash),
        )
        tombstone.record(store, act.id, marks)
        if self._tombs is not None:
            for fp in marks:
                self._tombs[fp] = self._tombs.get(fp, frozenset()) | {act.id}
        return frozenset(paths)


def replay_erased(acts: Sequence[Act]) -> frozenset[str]:
    """Body hashes the erase acts among ``acts`` remove (their bodies may be absent)."""
    return frozenset(a.payload.body_hash for a in acts if isinstance(a.payload, EraseAct))
