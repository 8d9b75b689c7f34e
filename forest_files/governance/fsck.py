"""``forest fsck``: the index and the local stores, checked read-only, body-free.

Checks: SQLite's ``integrity_check`` and ``foreign_key_check`` of the index,
``.git/forest/local.db`` and ``.git/forest/audit.db``; every table, view, index and
trigger of ``schema.sql`` present in the index with the same SQL, and nothing else there
but the cache tables ``schema.sql`` lists (their indexes too) and SQLite's own; the
index's rows against their fields and the ledger (governance/fsck_index.py: bodies
re-hashed, erasures, edge kinds, one scope, every act applied and nothing else,
tombstones; then, in an index in step with the ledger, every entry row held to the
record its act writes, content id recomputed, and the index proof every door runs:
``content-id``, ``index-proof``); ``local.db`` and ``audit.db`` against the schema their
scripts make (store/localdb.py ``lacking``: a table, index or trigger gone names the
command whose opening makes it again, a column cut or a damaged file the ``mv`` that
moves it aside); the audit log present and holding records while the index holds
applied acts, and the records a killed recording owes it (governance/fsck_audit.py:
``audit-missing``, ``audit-emptied``, ``audit-owed``, ``audit-owed-foreign``). A
symlink or anything but a regular file where one of these files (or its ``-wal``,
``-shm``, ``-journal``) belongs is a ``linked`` fault, never opened, its
detail the line every other command refuses it with (kernel/state.py
``refuse_linked_file``: the ``rm --``, ``rm -r --`` for a folder, that removes it;
``forest rebuild`` refuses it too). One SQLite may not open for its mode or owner (or
its folder's) is an ``access`` fault, one it cannot read for want of room a
``no-space`` fault (governance/fsck_unread.py), never checked further, never called
damaged, never moved aside.

Stores: nothing (every file opened read-only, store/connection.py ``read_only``, which
leaves no ``-wal``/``-shm`` file it made; nothing is synced or repaired — ``forest
rebuild`` repairs the index).
Refuses: a store SQLite may not open on a read-only mount, or an index absent there (no
sync can make it), in the line every door says there (kernel/access.py ``mounted_read_only``):
``FsckReport.refused``, said after the faults found before it; any other is a fault.
Returns: ``FsckReport`` (fault codes, object names, row ids, act ids — never text;
a fault's ``fix`` is the command that fixes it where that is not ``forest rebuild``).
Test: tests/custody/test_fsck.py, tests/custody/test_fsck_content_ids.py,
tests/doors/test_printed_where_typed.py, tests/governance/test_fsck_access.py,
tests/governance/test_fsck_read_only_mount.py, tests/governance/test_fsck_no_index_read_only.py,
tests/governance/test_fsck_audit_owed.py
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from forest_files.custody import auditsql, proposals_sql
from forest_files.governance.fsck_audit import applied_count, owed_faults, presence_faults
from forest_files.governance.fsck_index import FsckFault, ledger_faults, proven, row_faults
from forest_files.governance.fsck_unread import access_fault, unread
from forest_files.kernel.access import mounted_read_only, on_read_only_mount
from forest_files.kernel.errors import ForestError
from forest_files.kernel.paths import AUDIT_DB_NAME, INDEX_NAME, LEDGER_DIR, LOCAL_DB_NAME
from forest_files.kernel.shellword import forest_text
from forest_files.kernel.state import linked_file, shared_dir, worktree_dir
from forest_files.ledger.acts import LedgerError
from forest_files.ledger.segments import read_ledger
from forest_files.store.connection import damaged, read_only
from forest_files.store.forest import load_schema_sql
from forest_files.store.gate import cache_tables
from forest_files.store.localdb import lacking, move_aside

__all__ = ["FsckFault", "FsckReport", "fsck"]

_INTERNAL = ("sqlite_", "entries_fts_")


@dataclass(frozen=True)
class FsckReport:
    faults: tuple[FsckFault, ...]
    checked: dict[str, int]
    refused: ForestError | None = None  # met on the way, said after the faults before it

    @property
    def ok(self) -> bool:
        return not self.faults and self.refused is None


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


def _against_ledger(conn: sqlite3.Connection, ledger_dir: Path, project: str) -> list[FsckFault]:
    try:
        snapshot = read_ledger(ledger_dir)
    except LedgerError as exc:
        return [FsckFault("ledger", exc.segment or LEDGER_DIR, exc.code)]
    # The rows are held to the ledger, and proven as every door proves them after its
    # sync, in an index in step with it; one behind or ahead is a fault here already.
    found = ledger_faults(conn, snapshot.acts, project)
    return found or proven(conn, snapshot, ledger_dir, project)


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
        denied = unread(exc, path, rel)
        if denied is not None:
            return [denied]
        why = "damaged or not a SQLite database" if damaged(exc) else type(exc).__name__
        return [FsckFault("integrity", rel, f"{why}; {aside}", move_aside(path))]
    remake = forest_text(command)
    remade = f"`{remake}` makes it again"
    lost = f"absent; {remade}, empty (what it held is lost)"
    out += [FsckFault("schema-missing", f"{rel}: table {t}", lost, remake) for t in found.tables]
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


def _linked(path: Path, name: str) -> list[FsckFault]:
    """A ``linked`` fault for a symlink or non-file at ``path`` or beside it, with
    the line (and removal) every command that opens it refuses it with."""
    found = linked_file(path, name, sqlite=True)
    return [] if found is None else [FsckFault("linked", name, *found)]


def fsck(root: Path, project: str) -> FsckReport:
    """Check the repository's index and local stores (see the module docstring)."""
    faults: list[FsckFault] = []
    checked: dict[str, int] = {}
    try:
        _check(root, project, faults, checked)
    except ForestError as refused:  # a read-only mount (any refusal): the faults found stand
        return FsckReport(tuple(faults), checked, refused)
    return FsckReport(tuple(faults), checked)


def _check(root: Path, project: str, faults: list[FsckFault], checked: dict[str, int]) -> None:
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
        return
    if not index.exists():
        if on_read_only_mount(str(index)):  # no sync makes one there, no chmod helps
            where = mounted_read_only(str(index))
            raise ForestError(f"no index to check; {where}, then run `{forest_text('sync')}`")
        denied = access_fault(index, INDEX_NAME)  # a folder this user may not read or write
        missing = FsckFault("missing", INDEX_NAME, f"no index; run `{forest_text('sync')}`")
        faults.insert(0, denied or missing)
        return
    try:
        with read_only(index) as conn:
            faults += _sqlite_faults(conn, INDEX_NAME)
            faults += _schema_faults(conn, INDEX_NAME)
            rows, checked["entries"] = row_faults(conn)
            faults += rows
            faults += _against_ledger(conn, root / LEDGER_DIR, project)
            applied = applied_count(conn)
            audit = shared_dir(root) / AUDIT_DB_NAME
            faults += owed_faults(root, conn, None if linked[AUDIT_DB_NAME] else audit)
        if not linked[AUDIT_DB_NAME]:
            faults += presence_faults(audit, applied)
    except sqlite3.DatabaseError as exc:
        denied = unread(exc, index, INDEX_NAME)
        faults.append(denied or FsckFault("integrity", INDEX_NAME, f"SQLite: {type(exc).__name__}"))
    for rel in (LOCAL_DB_NAME, AUDIT_DB_NAME):
        if (shared_dir(root) / rel).exists() and not linked[rel]:
            faults += _local_faults(shared_dir(root) / rel, rel)
