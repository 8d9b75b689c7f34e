"""Open a Forest 0.3.x or 0.4 store read-only and tell which version it is.

Stores: nothing. The source is opened read-only (``mode=ro``, or ``immutable=1``
for a closed WAL store in a read-only directory) inside one read transaction,
so every pass of the migration sees one snapshot, and it is never written.
Refuses: a missing, non-SQLite or non-Forest source; one this user may not read
(kernel/access.py's ``chmod``, or another user's ``chown``, through
store/connection.py ``translate``, or, for a folder on its way this user may not
enter, ``access_fix``); a Forest version other than 0.3.x and 0.4.0
(v0.1 and v0.2 stores are named, with the way to convert them); a store that is
already forest-files; a partial Forest schema.
Returns: the open connection (``open_source``) and its ``SourceVersion``.
Test: tests/face/test_migrate.py (through ``forest_files.migrate``),
tests/custody/test_access_one_wording.py
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Literal
from urllib.parse import quote

from forest_files.kernel.access import access_fix
from forest_files.kernel.errors import ForeignStore, ForestError
from forest_files.store.connection import translate

SourceVersion = Literal["0.3", "0.4"]


def open_source(path: Path) -> sqlite3.Connection:
    try:
        found = path.is_file()
    except OSError as exc:  # a folder on the way this user may not enter (root's 0700)
        fix = access_fix(str(path), exc)
        raise ForestError(
            f"cannot read source {path} ({exc.strerror}); {fix}, then run the command again"
        ) from None
    if not found:
        raise ForestError(f"source store not found: {path}")
    try:
        try:
            return _connect_read_only(path, immutable=False)
        except sqlite3.OperationalError as exc:
            if not _wal_reader_blocked(exc, path):
                raise
            return _connect_read_only(path, immutable=True)
    except sqlite3.Error as exc:
        raise translate(exc, f"cannot read source {path}", path=str(path)) from exc


def _connect_read_only(path: Path, *, immutable: bool) -> sqlite3.Connection:
    flags = "mode=ro&immutable=1" if immutable else "mode=ro"
    conn = sqlite3.connect(f"file:{quote(path.resolve().as_posix())}?{flags}", uri=True)
    try:
        conn.isolation_level = None
        conn.execute("PRAGMA busy_timeout = 5000")
        # One read transaction, opened by the first read: every pass below sees
        # the same snapshot even if another process writes to the source.
        conn.execute("BEGIN")
        conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    except BaseException:
        conn.close()
        raise
    return conn


def _wal_reader_blocked(exc: sqlite3.OperationalError, path: Path) -> bool:
    """A closed WAL store in a read-only directory: ``mode=ro`` cannot create its -shm.

    Without a -wal file every committed page is in the main file, and no writer
    can start (a WAL writer must create the -wal in that same directory), so
    reading the file as immutable is safe there and nowhere else.
    """
    name = getattr(exc, "sqlite_errorname", "")
    blocked = name in ("SQLITE_READONLY_DIRECTORY", "SQLITE_CANTOPEN")
    return blocked and not Path(f"{path}-wal").exists()


def detect_version(conn: sqlite3.Connection, path: Path) -> SourceVersion:
    rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    tables = {str(r[0]) for r in rows}
    if "entries" not in tables:
        shown = ", ".join(sorted(tables)[:8]) or "none"
        raise ForeignStore(
            f"{path} is not a Forest store: it has no entries table (tables: {shown})"
        )
    columns = {str(r[1]) for r in conn.execute("PRAGMA table_info(entries)")}
    meta = _forest_meta(conn) if "forest_meta" in tables else {}
    if "forest_files_schema" in meta or "content_id" in columns:
        raise ForestError(f"{path} is already a forest-files store; nothing to migrate")
    missing = {"edges", "retrieval_log"} - tables
    if missing:
        raise ForestError(f"{path} is a partial Forest schema (no {', '.join(sorted(missing))})")
    if "jurisdiction" in columns:
        if meta.get("schema_version") != "0.4.0":
            got = meta.get("schema_version", "(missing)")
            raise ForestError(
                f"{path} has jurisdiction columns but forest_meta schema_version={got!r}; "
                "this migrator reads Forest 0.3.x and 0.4.0 stores only"
            )
        return "0.4"
    if "forest" in columns:
        return _check_03(conn, path, columns)
    raise ForestError(
        f"{path} has an entries table with neither a jurisdiction nor a forest column "
        f"(columns: {', '.join(sorted(columns))}); not a Forest version this migrator knows"
    )


def _forest_meta(conn: sqlite3.Connection) -> dict[str, str]:
    return {str(k): str(v) for k, v in conn.execute("SELECT key, value FROM forest_meta")}


def _check_03(conn: sqlite3.Connection, path: Path, columns: set[str]) -> SourceVersion:
    older = "convert it to 0.3 with forest-memory 0.3.1's migrate_to_latest first"
    if columns & {"authority", "visibility"}:
        raise ForestError(f"{path} is a Forest v0.1 store (mutable status columns); {older}")
    row = conn.execute(
        "SELECT sql FROM sqlite_master WHERE type='table' AND name='edges'"
    ).fetchone()
    if "asks_about" not in str(row[0] if row else ""):
        raise ForestError(f"{path} is a Forest v0.2 store (edges predate mycelium); {older}")
    return "0.3"
