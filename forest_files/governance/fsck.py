"""``forest fsck``: the index and the local stores, checked read-only, body-free.

Checks: SQLite's ``integrity_check`` and ``foreign_key_check`` of the index,
``.git/forest/local.db`` and ``.git/forest/audit.db``; every table, view, index and
trigger of ``schema.sql`` present in the index with the same SQL, and nothing
else there but the cache tables ``schema.sql`` lists (their indexes too) and
SQLite's own; every body re-hashed, every ``[erased]`` body backed by an
erasure row; every edge's kind in the vocabulary and its ends present; every
entry in one scope; ledger ↔ index (every act of the working tree's ledger
applied, nothing applied that the ledger lacks; every erase act's tombstone
rows present; then the index proof every door runs before it believes the index,
custody/indexproof.py ``index_faults``: an ``index-proof`` fault for each row that
decides a verdict and departs from the ledger, edge rows lost say); ``local.db``
and ``audit.db`` against the schema their scripts make
(store/localdb.py ``lacking``: a table, index or trigger gone names the command
whose opening makes it again, a column cut or a damaged file the ``mv`` that moves
it aside); the audit log present and
holding records while the index holds applied acts (``audit-missing``,
``audit-emptied``: every sync, rebuild and recorded act leaves a record). A symlink
or anything but a regular file where one of these files (or its ``-wal``, ``-shm``,
``-journal``) belongs is a ``linked`` fault, never opened, its detail the line every
other command refuses it with (kernel/state.py ``refuse_linked_file``: the ``rm --``,
``rm -r --`` for a folder, that removes it; ``forest rebuild`` refuses it too).

Stores: nothing (every file opened read-only, store/connection.py ``read_only``, which
leaves no ``-wal``/``-shm`` file it made; nothing is synced or repaired — ``forest
rebuild`` repairs the index).
Refuses: nothing; a fault is reported, never raised.
Returns: ``FsckReport`` (fault codes, object names, row ids, act ids — never text;
a fault's ``fix`` is the command that fixes it where that is not ``forest rebuild``).
Test: tests/custody/test_fsck.py, tests/doors/test_printed_where_typed.py
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from forest_files.custody import auditsql, indexproof, proposals_sql, tombstone
from forest_files.kernel.errors import ForestError
from forest_files.kernel.hashing import hash_body
from forest_files.kernel.paths import AUDIT_DB_NAME, INDEX_NAME, LEDGER_DIR, LOCAL_DB_NAME
from forest_files.kernel.shellword import forest_text
from forest_files.kernel.state import linked_file, shared_dir, worktree_dir
from forest_files.kernel.vocab import EdgeKind
from forest_files.ledger.acts import LedgerError
from forest_files.ledger.kinds import EraseAct
from forest_files.ledger.segments import read_ledger
from forest_files.store.connection import damaged, read_only
from forest_files.store.forest import ForestStore, load_schema_sql
from forest_files.store.gate import cache_tables
from forest_files.store.localdb import lacking, move_aside

_INTERNAL = ("sqlite_", "entries_fts_")
_ERASED = "[erased]"


@dataclass(frozen=True)
class FsckFault:
    code: str
    where: str  # a file, object name, row id or act id
    detail: str
    fix: str | None = None  # the command that fixes it, when it is not `forest rebuild`


@dataclass(frozen=True)
class FsckReport:
    faults: tuple[FsckFault, ...]
    checked: dict[str, int]

    @property
    def ok(self) -> bool:
        return not self.faults


def _objects(conn: sqlite3.Connection) -> dict[tuple[str, str], tuple[str, str | None]]:
    rows = conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall()
    return {
        (str(t), str(n)): (str(tbl), s) for t, n, tbl, s in rows if not str(n).startswith(_INTERNAL)
    }


def _schema_faults(conn: sqlite3.Connection, name: str) -> list[FsckFault]:
    schema = load_schema_sql()
    with closing(sqlite3.connect(":memory:")) as ref:
        ref.executescript(schema)
        want = _objects(ref)
    have = _objects(conn)
    cache = cache_tables(schema)
    out = []
    for key, (_tbl, sql) in sorted(want.items()):
        if key not in have:
            out.append(FsckFault("schema-missing", f"{name}: {key[0]} {key[1]}", "absent"))
        elif have[key][1] != sql:
            out.append(
                FsckFault("schema-differs", f"{name}: {key[0]} {key[1]}", "not schema.sql's")
            )
    for key, (tbl, _sql) in sorted(have.items()):
        if key not in want and key[1] not in cache and tbl not in cache:
            out.append(FsckFault("schema-extra", f"{name}: {key[0]} {key[1]}", "not in schema.sql"))
    return out


def _sqlite_faults(conn: sqlite3.Connection, name: str) -> list[FsckFault]:
    out = []
    result = [str(r[0]) for r in conn.execute("PRAGMA integrity_check").fetchall()]
    if result != ["ok"]:
        out.append(FsckFault("integrity", name, f"{len(result)} problem(s) reported by SQLite"))
    for table, rowid, parent, _fk in conn.execute("PRAGMA foreign_key_check").fetchall():
        out.append(FsckFault("foreign-key", f"{name}: {table} row {rowid}", f"no {parent} row"))
    return out


def _row_faults(conn: sqlite3.Connection) -> tuple[list[FsckFault], int]:
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


def _ledger_faults(conn: sqlite3.Connection, ledger_dir: Path, project: str) -> list[FsckFault]:
    try:
        acts = read_ledger(ledger_dir).acts
    except LedgerError as exc:
        return [FsckFault("ledger", exc.segment or LEDGER_DIR, exc.code)]
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
    return out


def _proof_faults(conn: sqlite3.Connection, ledger_dir: Path) -> list[FsckFault]:
    """What the index proof every door runs finds (custody/indexproof.py): a row that
    decides a verdict and departs from the ledger. Each door rebuilds such an index."""
    conn.row_factory = sqlite3.Row  # the proof reads rows by column name
    try:
        found = indexproof.index_faults(ForestStore.over(conn), ledger_dir)
    except (sqlite3.Error, ForestError) as exc:
        found = [f"its bindings cannot be read ({type(exc).__name__})"]
    finally:
        conn.row_factory = None
    rebuild = forest_text("rebuild")
    why = f"every door's index proof rebuilds such an index; `{rebuild}` does it now"
    return [FsckFault("index-proof", INDEX_NAME, f"{d}; {why}", rebuild) for d in found]


def _local_faults(path: Path, rel: str) -> list[FsckFault]:
    """``local.db`` or ``audit.db`` against the schema its script makes (localdb
    ``lacking``), each fault with what fixes it: the command whose opening makes a
    lost table, index or trigger again, or the move that sets a file aside."""
    script, command = (
        (auditsql.SCHEMA, "audit")
        if rel == AUDIT_DB_NAME
        else (proposals_sql.SCHEMA[0], "proposals")
    )
    aside = f"move it aside (`{move_aside(path)}`); the next command starts a new one"
    try:
        with read_only(path) as conn:
            out = _sqlite_faults(conn, rel)
            found = lacking(conn, script)
    except sqlite3.DatabaseError as exc:
        why = "damaged or not a SQLite database" if damaged(exc) else type(exc).__name__
        return [FsckFault("integrity", rel, f"{why}; {aside}", move_aside(path))]
    remake = forest_text(command)
    remade = f"`{remake}` makes it again"
    out += [
        FsckFault(
            "schema-missing",
            f"{rel}: table {t}",
            f"absent; {remade}, empty (what it held is lost)",
            remake,
        )
        for t in found.tables
    ]
    out += [
        FsckFault("schema-missing", f"{rel}: {kind} {n}", f"absent; {remade}", remake)
        for kind, n in found.objects
    ]
    out += [
        FsckFault(
            "schema-cut",
            f"{rel}: table {t}",
            f"no column {', '.join(cut)}; {aside}",
            move_aside(path),
        )
        for t, cut in found.columns
    ]
    return out


def _applied_count(conn: sqlite3.Connection) -> int:
    try:
        return int(conn.execute("SELECT count(*) FROM ledger_applied").fetchone()[0])
    except sqlite3.Error:
        return 0  # no ledger tables: reported by _ledger_faults


def _audit_presence_faults(path: Path, applied: int) -> list[FsckFault]:
    """Every sync, rebuild and recorded act leaves an audit record: an index that
    applied acts beside an audit log that is missing or holds no record lost them."""
    if applied == 0:
        return []
    fix = (
        f"while the index holds {applied} applied act(s); its records are lost (restore "
        f"it from a backup, or run `{forest_text('rebuild')}`, which starts a new log)"
    )
    if not path.exists():
        return [FsckFault("audit-missing", AUDIT_DB_NAME, f"absent {fix}", forest_text("rebuild"))]
    try:
        with read_only(path) as conn:
            rows = int(conn.execute("SELECT count(*) FROM audit").fetchone()[0])
    except sqlite3.Error as exc:  # an emptied file is a database without the table
        if damaged(exc):
            return []  # a damaged file: its integrity fault says what to do
        rows = 0
    if rows == 0:
        rebuild = forest_text("rebuild")
        return [FsckFault("audit-emptied", AUDIT_DB_NAME, f"holds no record {fix}", rebuild)]
    return []


def _linked(path: Path, name: str) -> list[FsckFault]:
    """A ``linked`` fault for a symlink or non-file at ``path`` or beside it, with
    the line (and removal) every command that opens it refuses it with."""
    found = linked_file(path, name, sqlite=True)
    return [] if found is None else [FsckFault("linked", name, *found)]


def fsck(root: Path, project: str) -> FsckReport:
    """Check the repository's index and local stores (see the module docstring)."""
    faults: list[FsckFault] = []
    checked: dict[str, int] = {}
    index = worktree_dir(root) / INDEX_NAME
    linked = {
        name: _linked(folder / name, name)
        for folder, name in (
            (index.parent, INDEX_NAME),
            (shared_dir(root), LOCAL_DB_NAME),
            (shared_dir(root), AUDIT_DB_NAME),
        )
    }
    faults += [f for found in linked.values() for f in found]
    if linked[INDEX_NAME]:
        return FsckReport(tuple(faults), checked)
    if not index.exists():
        missing = FsckFault("missing", INDEX_NAME, f"no index; run `{forest_text('sync')}`")
        return FsckReport((missing, *faults), checked)
    try:
        with read_only(index) as conn:
            faults += _sqlite_faults(conn, INDEX_NAME)
            faults += _schema_faults(conn, INDEX_NAME)
            rows, checked["entries"] = _row_faults(conn)
            faults += rows
            ledger = _ledger_faults(conn, root / LEDGER_DIR, project)
            # The proof judges an index in step with the ledger, as every door's does
            # after its sync; one behind or ahead is a fault above already.
            faults += ledger or _proof_faults(conn, root / LEDGER_DIR)
            applied = _applied_count(conn)
        if not linked[AUDIT_DB_NAME]:
            faults += _audit_presence_faults(shared_dir(root) / AUDIT_DB_NAME, applied)
    except sqlite3.DatabaseError as exc:
        faults.append(FsckFault("integrity", INDEX_NAME, f"SQLite: {type(exc).__name__}"))
    for rel in (LOCAL_DB_NAME, AUDIT_DB_NAME):
        if (shared_dir(root) / rel).exists() and not linked[rel]:
            faults += _local_faults(shared_dir(root) / rel, rel)
    return FsckReport(tuple(faults), checked)
