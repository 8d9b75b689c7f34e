"""The local SQLite files beside the index: opened and versioned alike.

``local.db`` (proposals) and ``audit.db`` (the audit log) live in the shared
state directory inside the git directory (kernel/state.py), so git never
carries them, and are never rebuilt from the ledger. Each is opened in WAL
mode, its schema created or upgraded under one ``BEGIN IMMEDIATE``.

Stores: the file itself.
Refuses: a file from a newer forest-files (StoreCorruption, exit 3); SQLite
errors translated (connection.translate).
Returns: an open ``sqlite3.Connection``.
Test: tests/proposals/test_proposals.py, tests/governance/test_audit.py
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from pathlib import Path

from forest_files.kernel.state import refuse_linked_file, shared_dir
from forest_files.store.connection import connect, translate


def migrate(
    conn: sqlite3.Connection, rel: str, version: int, script: str | Mapping[int, str]
) -> None:
    """Create the schema ``script`` (version ``version``) unless the file has it; refuse
    a file whose schema is newer than this forest-files knows. ``script`` is one script
    for every older version, or one per version found (a step that adds a column
    must not run on a file that has it)."""
    found = int(conn.execute("PRAGMA user_version").fetchone()[0])
    if found > version:
        from forest_files.kernel.errors import StoreCorruption

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
    conn = connect(path)
    try:
        conn.execute("PRAGMA journal_mode = WAL")
        if secure_delete:
            conn.execute("PRAGMA secure_delete = ON")
        migrate(conn, name, version, script)
    except sqlite3.Error as exc:
        conn.close()
        raise translate(exc, path.name) from exc
    return conn
