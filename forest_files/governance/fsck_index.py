"""``forest fsck``'s checks of the index's rows: each against its own fields, and against
the ledger the index was synced from.

Checks: every body re-hashed, every ``[erased]`` body backed by an erasure row, every
edge's kind in the vocabulary, every entry in one scope (``row_faults``); every act of
the ledger applied, nothing applied that the ledger lacks, every erase act's tombstone
rows present, every erased row's body removed by an erase act of the ledger
(``ledger_faults``: ``erased-not-in-ledger``); then, for an index in step with the ledger
(``proven``): every entry row held to the record an act of the ledger writes it with
(ledger/act_refs.py ``entry_records``; the anchor to the project's,
store/anchor.py ``anchor_content_id``), its content id recomputed from the row's own
fields with that record's origins, and every recorded entry present (``content-id``:
``forest log`` looks an act's words up by content id), and each ground's latest adoption
record in the index the one the ledger declares (``content-id``: a door names who
adopted it from that record); and the index proof every door
runs before it believes the index, and every binding's chain as ``forest log
TARGET`` proves the one it shows (custody/indexproof.py ``index_faults``:
``index-proof``).

Stores: nothing (the caller's connection is read-only).
Refuses: nothing; a fault is reported, never raised.
Returns: ``FsckFault`` lists (codes, row ids, content ids, act ids — never text).
Test: tests/custody/test_fsck.py, tests/custody/test_fsck_content_ids.py,
tests/governance/test_fsck_chains.py, tests/governance/test_fsck_adoption_edges.py,
tests/governance/test_fsck_promise.py
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from forest_files.custody import adoptions, indexproof, tombstone
from forest_files.kernel.errors import ForestError
from forest_files.kernel.hashing import hash_body
from forest_files.kernel.paths import INDEX_NAME
from forest_files.kernel.shellword import forest_text
from forest_files.kernel.vocab import EdgeKind
from forest_files.ledger.kinds import EntryRecord, EraseAct, entry_records
from forest_files.ledger.record import recompute_id, record_of_row
from forest_files.store.anchor import anchor_content_id
from forest_files.store.forest import ForestStore

if TYPE_CHECKING:
    from forest_files.ledger.acts import Act
    from forest_files.ledger.segments import LedgerSnapshot

_ERASED = "[erased]"


@dataclass(frozen=True)
class FsckFault:
    code: str
    where: str  # a file, object name, row id or act id
    detail: str
    fix: str | None = None  # the command that fixes it, when it is not `forest rebuild`


def row_faults(conn: sqlite3.Connection) -> tuple[list[FsckFault], int]:
    out = []
    erased = {int(r[0]) for r in conn.execute("SELECT entry_id FROM erasures")}
    count = 0
    for entry_id, body, body_hash in conn.execute("SELECT id, body, body_hash FROM entries"):
        count += 1
        if body == _ERASED:
            if entry_id not in erased:
                out.append(FsckFault("erased-unrecorded", f"entry row {entry_id}", "no erasure"))
        elif hash_body(str(body)) != body_hash:
            out.append(FsckFault("body-hash", f"entry row {entry_id}", "body does not hash to it"))
    kinds = {k.value for k in EdgeKind}
    for edge_id, kind in conn.execute("SELECT id, kind FROM edges"):
        if kind not in kinds:
            out.append(FsckFault("edge-kind", f"edge row {edge_id}", "kind not in the vocabulary"))
    scopes = [str(r[0]) for r in conn.execute("SELECT DISTINCT scope FROM entries")]
    if len(scopes) > 1:
        out.append(FsckFault("scope", "entries", f"{len(scopes)} scopes in one index"))
    return out, count


def ledger_faults(
    conn: sqlite3.Connection, acts: Mapping[str, Act], project: str
) -> list[FsckFault]:
    try:
        applied = {str(r[0]) for r in conn.execute("SELECT act_id FROM ledger_applied")}
        tombs = {(str(f), str(a)) for f, a in conn.execute("SELECT * FROM tombstone_lines")}
    except sqlite3.Error:
        return [FsckFault("ledger", "ledger_applied", "the index holds no ledger tables")]
    out = [
        FsckFault("not-applied", a, "an act of the ledger the index lacks")
        for a in sorted(acts.keys() - applied)
    ]
    out += [
        FsckFault("not-in-ledger", a, "applied, but the ledger lacks it")
        for a in sorted(applied - acts.keys())
    ]
    for act in acts.values():
        p = act.payload
        if isinstance(p, EraseAct) and act.id in applied:
            marks = (*(p.lines or ()), *(p.tokens or ()))
            want = {*marks, tombstone.body_mark(project, p.body_hash)}
            if not {(fp, act.id) for fp in want} <= tombs:
                out.append(FsckFault("tombstone", act.id, "its tombstone rows are missing"))
    return out + _unerased(conn, acts)


def _unerased(conn: sqlite3.Connection, acts: Mapping[str, Act]) -> list[FsckFault]:
    """Each entry row erased (its body the marker, or an ``erasures`` row) whose body
    hash no erase act of the ledger removes: an erasure the ledger never made, which a
    door would take for a forget (its words shown ``[erased]``, the body file deleted)."""
    erased = {a.payload.body_hash for a in acts.values() if isinstance(a.payload, EraseAct)}
    rows = conn.execute(
        "SELECT id, body_hash FROM entries WHERE body = ? OR id IN (SELECT entry_id FROM erasures)"
        " ORDER BY id",
        (_ERASED,),
    )
    why = "erased, but no erase act of the ledger removes its body"
    return [
        FsckFault("erased-not-in-ledger", f"entry row {i}", why)
        for i, body_hash in rows
        if body_hash not in erased
    ]


def proven(
    conn: sqlite3.Connection, snapshot: LedgerSnapshot, ledger_dir: Path, project: str
) -> list[FsckFault]:
    """The rows of an index in step with ``snapshot`` held to it: ``content_faults``,
    the index proof (``proof_faults``), and where the proof finds nothing (every door
    rebuilds such an index before it names an adopter), ``adoption_faults`` of each
    ground whose declared record no content fault names already (a row deleted or its
    content id changed): an edge moved beside another row's damage is named too."""
    conn.row_factory = sqlite3.Row  # the store's readers take rows by column name
    try:
        store = ForestStore.over(conn)
        found = content_faults(store, snapshot, project)
        proof = proof_faults(store, ledger_dir)
        if proof:
            return found + proof
        named = {f.where for f in found}
        declared = adoptions.declared_in(snapshot.acts.values())
        moved = adoption_faults(store, snapshot)
        return found + [f for f in moved if declared[f.where].content_id not in named]
    finally:
        conn.row_factory = None


def content_faults(store: ForestStore, snapshot: LedgerSnapshot, project: str) -> list[FsckFault]:
    """Each entry row as the record an act writes it with; each recorded entry present."""
    records = {
        r.content_id: r for act in snapshot.acts.values() for r in entry_records(act.payload)
    }
    out, seen = [], set()
    for row in store.conn.execute("SELECT * FROM entries ORDER BY id"):
        seen.add(row["content_id"])
        why = _row_fault(row, records, project)
        if why is not None:
            out.append(_fault(f"entry row {row['id']}", why))
    out += [
        _fault(cid, "an act of the ledger writes this entry; the index lacks it")
        for cid in sorted(records.keys() - seen)
    ]
    return out


def adoption_faults(store: ForestStore, snapshot: LedgerSnapshot) -> list[FsckFault]:
    """Each ground's latest adoption record in the index the one the ledger declares
    (custody/adoptions.py): an ``adopts`` edge moved or taken away changes no content id,
    yet a door naming who adopted the ground shows the ledger's, and says so."""
    why = "its latest adoption record in the index is not the one the ledger declares"
    return [
        _fault(ground, why)
        for ground in adoptions.undeclared_grounds(store.conn, snapshot.acts.values())
    ]


def _row_fault(row: sqlite3.Row, records: Mapping[str, EntryRecord], project: str) -> str | None:
    """Why ``row`` is not the entry its content id names (None: it is)."""
    cid = row["content_id"]
    record = records.get(str(cid))
    if cid is None:
        return "no content id"
    if record is not None:
        origins = record.origins
    elif row["bucket"] == "anchor" and cid == anchor_content_id(project, str(row["scope"])):
        origins = ()  # no act declares the anchor: every clone derives the same one
    else:
        return "no act of the ledger writes an entry of this content id"
    try:
        again = recompute_id(_as_record(row, origins))
    except (ForestError, ValueError, TypeError):  # meta that is not a JSON object, say
        again = None
    return None if again == cid else "its fields do not hash to its content id"


def _as_record(row: sqlite3.Row, origins: tuple[tuple[str, str], ...]) -> EntryRecord:
    """The record an act would carry of ``row``, given the origins its act records
    (the row holds none: its edges are the index proof's)."""
    return record_of_row(row, origins)


def _fault(where: str, why: str) -> FsckFault:
    rebuild = forest_text("rebuild")
    return FsckFault(
        "content-id", where, f"{why}; `{rebuild}` rebuilds it from the ledger", rebuild
    )


def proof_faults(store: ForestStore, ledger_dir: Path) -> list[FsckFault]:
    """What the index proof every door runs finds (custody/indexproof.py): a row that
    decides a verdict and departs from the ledger. Each door rebuilds such an index."""
    try:
        found = indexproof.index_faults(store, ledger_dir)
    except (sqlite3.Error, ForestError) as exc:
        found = [f"its bindings cannot be read ({type(exc).__name__})"]
    rebuild = forest_text("rebuild")
    why = f"every door's index proof rebuilds such an index; `{rebuild}` does it now"
    return [FsckFault("index-proof", INDEX_NAME, f"{d}; {why}", rebuild) for d in found]
