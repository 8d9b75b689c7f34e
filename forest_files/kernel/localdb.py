"""The local SQLite files beside the index: opened, versioned and kept out of git alike.

``.forest/local.db`` (proposals) and ``.forest/audit.db`` (the audit log) are
never committed and never rebuilt from the ledger. Each is opened in WAL mode,
its schema created or upgraded under one ``BEGIN IMMEDIATE``, and, the first
time it is made on a clone, excluded from git through ``.git/info/exclude`` too
(a repository initialised before ``.forest/.gitignore`` named it).

Stores: the file itself; one line in ``.git/info/exclude``.
Refuses: a file from a newer forest-files (StoreCorruption, exit 3); SQLite
errors translated (connection.translate).
Returns: an open ``sqlite3.Connection``.
Test: tests/test_proposals.py, tests/test_audit.py
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from forest_files.store.connection import connect, translate


def exclude_locally(root: Path, rel: str) -> None:
    """Keep ``rel`` (and its WAL files) out of every commit on this clone."""
    from forest_files import gitio

    out = gitio.run_git(root, ["rev-parse", "--path-format=absolute", "--git-path", "info/exclude"])
    exclude = Path(out.stdout.decode("utf-8", "surrogateescape").strip())
    line = f"/{rel}*"
    have = exclude.read_text(encoding="utf-8").splitlines() if exclude.exists() else []
    if line not in have:
        exclude.parent.mkdir(parents=True, exist_ok=True)
        with exclude.open("a", encoding="utf-8") as fh:
            fh.write(("\n" if have and have[-1] else "") + line + "\n")


def migrate(conn: sqlite3.Connection, rel: str, version: int, script: str) -> None:
    """Create the schema ``script`` (version ``version``) unless the file has it; refuse
    a file whose schema is newer than this forest-files knows."""
    found = int(conn.execute("PRAGMA user_version").fetchone()[0])
    if found > version:
        from forest_files.kernel.errors import StoreCorruption

        raise StoreCorruption(
            f"{rel} has schema {found}, newer than this forest-files knows ({version}); "
            "upgrade forest-files"
        )
    if found < version:
        conn.executescript(f"BEGIN IMMEDIATE; {script} PRAGMA user_version = {version}; COMMIT;")


def open_local(
    root: Path, rel: str, version: int, script: str, *, secure_delete: bool = False
) -> sqlite3.Connection:
    """The local store at ``rel``, created (and excluded from git) if need be."""
    path = root / rel
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        exclude_locally(root, rel)
    conn = connect(path)
    try:
        conn.execute("PRAGMA journal_mode = WAL")
        if secure_delete:
            conn.execute("PRAGMA secure_delete = ON")
        migrate(conn, rel, version, script)
    except sqlite3.Error as exc:
        conn.close()
        raise translate(exc, path.name) from exc
    return conn
