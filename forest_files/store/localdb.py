"""The local SQLite files beside the index: opened and versioned alike.

``local.db`` (proposals) and ``audit.db`` (the audit log) live in the shared
state directory inside the git directory (kernel/state.py), so git never
carries them, and are never rebuilt from the ledger. Each is opened in WAL
mode, its schema created or upgraded under one ``BEGIN IMMEDIATE``.

A file whose schema was cut outside forest-files (anyone who can write the git
directory can) is compared with the one its script makes: a table that is gone
is made again, empty, with its indexes and triggers, and said in one warning
line; the rows of every other table (the proposals, the audit records) are kept;
an index or trigger that is gone from a table still there is made again (a
second warning line). ``lacking`` says what is gone, for ``forest fsck`` too.

Stores: the file itself.
Refuses: a file from a newer forest-files (StoreCorruption, exit 3); a table
missing a column its schema has, or a file SQLite calls damaged or no database
(garbage, a copy cut short: ``local_error``), as StoreCorruption naming the ``mv``
that moves the file (and a journal beside it) aside, so the next command starts a
new one; other SQLite errors translated (connection.translate), a held lock's file and
a write the disk refused named once, by its path (``local_error``: ``PATH: database is
locked …``, ``PATH: the disk refused a write …``).
Returns: an open ``sqlite3.Connection``; ``Lacking``.
Test: tests/proposals/test_proposals.py, tests/governance/test_audit.py,
tests/store/test_localdb_damaged.py, tests/proposals/test_local_db_busy_line.py,
tests/proposals/test_local_db_no_space_line.py
"""

from __future__ import annotations

import functools
import sqlite3
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from forest_files.kernel.errors import ForestError, NoSpace, StoreBusy, StoreCorruption
from forest_files.kernel.handover import create_for_owner
from forest_files.kernel.shellword import shell_word
from forest_files.kernel.state import refuse_linked_file, shared_dir
from forest_files.store.connection import connect, damaged, translate
from forest_files.store.dbfile import open_db

# What SQLite keeps beside a database: a new file must not meet an old one's log or
# journal (SQLite would replay it into the new file), so they move aside with it.
_BESIDE = ("-wal", "-journal", "-shm")


def migrate(
    conn: sqlite3.Connection, rel: str, version: int, script: str | Mapping[int, str]
) -> None:
    """Create the schema ``script`` (version ``version``) unless the file has it; refuse
    a file whose schema is newer than this forest-files knows. ``script`` is one script
    for every older version, or one per version found (a step that adds a column
    must not run on a file that has it)."""
    found = int(conn.execute("PRAGMA user_version").fetchone()[0])
    if found > version:
        raise StoreCorruption(
            f"{rel} has schema {found}, newer than this forest-files knows ({version}); "
            "upgrade forest-files"
        )
    if found < version:
        step = script if isinstance(script, str) else script[found]
        try:
            conn.executescript(f"BEGIN IMMEDIATE; {step} PRAGMA user_version = {version}; COMMIT;")
        except sqlite3.OperationalError:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            # Another process upgraded the file between our look and our lock (its
            # ALTER ran first, so ours found the column): the file is what we want.
            if int(conn.execute("PRAGMA user_version").fetchone()[0]) != version:
                raise


def open_local(
    root: Path,
    name: str,
    version: int,
    script: str | Mapping[int, str],
    *,
    secure_delete: bool = False,
) -> sqlite3.Connection:
    """The local store ``name`` of the repository at ``root``, created if need be."""
    path = shared_dir(root) / name
    refuse_linked_file(path, name, sqlite=True)
    create_for_owner(str(path))  # root's, in another user's git directory: theirs
    conn = connect(path)
    try:
        conn.execute("PRAGMA journal_mode = WAL")
        if secure_delete:
            conn.execute("PRAGMA secure_delete = ON")
        migrate(conn, name, version, script)
        mend(conn, path, script if isinstance(script, str) else script[0])
    except sqlite3.Error as exc:
        conn.close()
        raise local_error(exc, path) from exc
    except StoreCorruption:
        conn.close()
        raise
    return conn


def read_local(root: Path, name: str, version: int) -> sqlite3.Connection:
    """The local store ``name`` opened read-only (``mode=ro``: nothing of it written),
    for a door that only reads and may not write the state folder; a closed WAL file in
    a folder no ``-shm`` can be made in is read as immutable (no ``-wal`` beside it: no
    writer is mid-way, and none can start). A file of another schema version than
    ``version`` is refused: an older one needs the write that upgrades it."""
    path = shared_dir(root, create=False) / name
    refuse_linked_file(path, name, sqlite=True)
    try:
        try:
            conn = open_db(path, "mode=ro", isolation_level=None)
            conn.execute("PRAGMA schema_version").fetchone()  # the -shm is made, or not
        except sqlite3.OperationalError as exc:
            name_of = getattr(exc, "sqlite_errorname", "")
            blocked = name_of in ("SQLITE_READONLY_DIRECTORY", "SQLITE_CANTOPEN")
            if not blocked or Path(f"{path}-wal").exists():
                raise
            conn = open_db(path, "mode=ro&immutable=1", isolation_level=None)
        conn.row_factory = sqlite3.Row
        found = int(conn.execute("PRAGMA user_version").fetchone()[0])
    except sqlite3.Error as exc:
        raise local_error(exc, path) from exc
    if found != version:
        conn.close()
        raise _other_version(path, found, version)
    return conn


def _other_version(path: Path, found: int, version: int) -> ForestError:
    if found > version:
        return StoreCorruption(
            f"{path.name} has schema {found}, newer than this forest-files knows ({version}); "
            "upgrade forest-files"
        )
    from forest_files.kernel.access import access_fix

    fix = access_fix(str(path), PermissionError(13, "Permission denied", str(path)))
    return ForestError(
        f"{path.name} has schema {found}, which this forest-files upgrades before reading "
        f"it, and it may not be written here; {fix}, then run the command again"
    )


def _schema(conn: sqlite3.Connection) -> list[tuple[str, str, str, str]]:
    """(type, name, table, sql) of every table, index and trigger the file declares."""
    rows = conn.execute(
        "SELECT type, name, tbl_name, sql FROM sqlite_master "
        "WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY rowid"
    )
    return [(str(t), str(n), str(tbl), str(sql)) for t, n, tbl, sql in rows]


@functools.cache
def _reference(script: str) -> tuple[list[tuple[str, str, str, str]], dict[str, list[str]]]:
    """The schema ``script`` makes from nothing, and each of its tables' columns (made
    once per process, in memory)."""
    ref = sqlite3.connect(":memory:")
    try:
        ref.executescript(script)
        want = _schema(ref)
        columns = {
            n: [str(r[1]) for r in ref.execute(f"PRAGMA table_info({n})")]
            for kind, n, _t, _s in want
            if kind == "table"
        }
    finally:
        ref.close()
    return want, columns


@dataclass(frozen=True)
class Lacking:
    """What a local store lacks of the schema its script makes."""

    tables: tuple[str, ...]  # gone: made again, empty, by the next opening
    objects: tuple[tuple[str, str], ...]  # (kind, name): an index or trigger of a table held
    columns: tuple[tuple[str, tuple[str, ...]], ...]  # (table, columns cut): refused


def lacking(conn: sqlite3.Connection, script: str) -> Lacking:
    """What the file ``conn`` reads lacks of what ``script`` makes from nothing (read
    only: forest fsck asks it too)."""
    want, columns = _reference(script)
    have = {(kind, n) for kind, n, _t, _s in _schema(conn)}
    tables = [n for n in columns if ("table", n) not in have]
    cut = []
    for table, wanted in columns.items():
        held = {str(r[1]) for r in conn.execute(f"PRAGMA table_info({table})")}
        lost = tuple(c for c in wanted if c not in held)
        if table not in tables and lost:
            cut.append((table, lost))
    objects = [
        (kind, n)
        for kind, n, tbl, _s in want
        if kind != "table" and tbl not in tables and (kind, n) not in have
    ]
    return Lacking(tuple(tables), tuple(objects), tuple(cut))


def mend(conn: sqlite3.Connection, path: Path, script: str) -> None:
    """Make again each table of ``script`` (the schema from nothing) the file lacks,
    empty, with its indexes and triggers, and each index or trigger of a table it holds,
    saying so; refuse a table missing a column."""
    found = lacking(conn, script)
    if found.columns:
        raise _cut_columns(path, *found.columns[0])
    if not found.tables and not found.objects:
        return
    want, _columns = _reference(script)
    made = "; ".join(
        sql for kind, n, tbl, sql in want if tbl in found.tables or (kind, n) in found.objects
    )
    conn.executescript(f"BEGIN IMMEDIATE; {made}; COMMIT;")
    if found.tables:
        what = f"its table(s) {', '.join(found.tables)}"
        sys.stderr.write(
            f"forest: warning: {path.name} had lost {what} (cut outside forest-files); made "
            "again, empty: what they held is gone, the rest is kept\n"
        )
    others = [n for kind, n in found.objects]
    if others:
        sys.stderr.write(
            f"forest: warning: {path.name} had lost its index(es) or trigger(s) "
            f"{', '.join(others)} (cut outside forest-files); made again, every row kept\n"
        )


def move_aside(path: Path) -> str:
    """The command that moves the local store ``path`` aside, with whatever SQLite
    keeps beside it now, so the next command starts a new file."""
    moves = [
        f"mv -- {shell_word(f'{path}{side}')} {shell_word(f'{path}.damaged{side}')}"
        for side in ("", *_BESIDE)
        if not side or Path(f"{path}{side}").exists()
    ]
    return " && ".join(moves)


def local_error(exc: sqlite3.Error, path: Path) -> ForestError:
    """``exc`` raised by the local store ``path``: a file SQLite calls damaged or no
    database names the move that sets it aside (it cannot be rebuilt: restoring a backup
    is the library's advice, not a user's); anything else as connection.translate, a
    held lock's line and a refused write's naming the file once, by its path."""
    if not damaged(exc):
        said = translate(exc, path.name, path=str(path))
        if isinstance(said, (StoreBusy, NoSpace)):  # the file held, or written to: once
            return translate(exc, str(path), path=str(path))
        return said
    return StoreCorruption(
        f"{path.name} is damaged or is not a SQLite database ({exc}); nothing was read or "
        f"written — move it aside (`{move_aside(path)}`) and the next command starts a new "
        "one (what it held may stay readable there with sqlite3)"
    )


def _cut_columns(path: Path, table: str, lost: tuple[str, ...]) -> StoreCorruption:
    return StoreCorruption(
        f"{path.name} is damaged: its table {table} has no column {', '.join(lost)} (cut "
        f"outside forest-files); nothing was read or written — move it aside "
        f"(`{move_aside(path)}`) and the next command starts a new one (what it held stays "
        "readable there with sqlite3)"
    )
