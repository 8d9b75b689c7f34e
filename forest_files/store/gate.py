"""The version gate: which SQLite files the store agrees to open.

Stores: nothing.
Refuses: a file SQLite calls damaged or not a database (``StoreCorruption``,
which a derived index answers by being dropped and rebuilt); a file it could
not read for another reason — busy past the timeout, the disk refusing the
journal it needs — as ``connection.translate`` words it, never as damage (the
file is whole: dropping it would throw away an index another process may be
writing); a foreign non-empty SQLite file (never annexed), a pre-0.4 Forest
store, a store without ``forest_meta``, a Forest contract level other than
0.4.0, a genuine Forest 0.4 store (convert it with ``migrate_to_latest``), and
a forest-files schema newer than this code. For a derived index (``derived``:
the repository's ``woods.db``, rebuilt from the ledger) every file that is not
a whole store of ours is ``StoreCorruption``, so the repository drops it and
replays the ledger: a foreign or old store there, a contract level other than
0.4.0, and a store that has lost a table ``schema.sql`` makes, or one of the
cache tables while it holds others (``init_schema`` would make the table again,
empty, and the doors would believe it: a ground without its edges read as sealed).
Returns: None when the file may be opened (fresh or ours).
Test: tests/store/test_store_hostile.py
"""

from __future__ import annotations

import functools
import re
import sqlite3
from importlib import resources
from pathlib import Path

from forest_files.kernel.errors import ForeignStore, ForestError, StoreCorruption
from forest_files.store.connection import damaged, translate

FOREST_CONTRACT_VERSION = "0.4.0"
FOREST_FILES_SCHEMA = "1"
SUPPORTED_SCHEMAS = frozenset({FOREST_FILES_SCHEMA})


def _tables(conn: sqlite3.Connection) -> list[str]:
    rows = conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
        "ORDER BY name"
    ).fetchall()
    return [r[0] for r in rows]


def _meta(conn: sqlite3.Connection, key: str) -> str | None:
    row = conn.execute("SELECT value FROM forest_meta WHERE key = ?", (key,)).fetchone()
    return None if row is None else str(row[0])


# A table ``schema.sql`` makes, by its statement (each is written ``CREATE [VIRTUAL]
# TABLE IF NOT EXISTS name``; tests/store/test_localdb_damaged.py holds the list equal
# to the tables the script makes when run, full-text shadow tables aside). Read from
# the text, not by running the script: every door opening the index pays it.
_MADE = re.compile(r"^CREATE (?:VIRTUAL )?TABLE IF NOT EXISTS (\w+)", re.MULTILINE)


def cache_tables(schema: str) -> frozenset[str]:
    """The cache tables ``schema``'s ``cache-tables:`` line names (made by the replay,
    custody/applied.py, not by the script)."""
    for line in schema.splitlines():
        if line.startswith("-- cache-tables:"):
            return frozenset(line.split(":", 1)[1].split())
    return frozenset()


@functools.cache
def made_tables() -> tuple[frozenset[str], frozenset[str]]:
    """The tables ``schema.sql`` makes and the cache tables it names."""
    schema = (resources.files("forest_files") / "schema.sql").read_text(encoding="utf-8")
    return frozenset(_MADE.findall(schema)), cache_tables(schema)


def lost_tables(tables: list[str]) -> list[str]:
    """The tables a store of ours holding ``tables`` has lost (empty: none)."""
    made, cache = made_tables()
    held = set(tables)
    lost = made - held
    if held & cache:  # the replay makes them together
        lost |= cache - held
    return sorted(lost)


def check_store(conn: sqlite3.Connection, path: Path, *, derived: bool = False) -> None:
    """Raise unless ``conn`` is fresh (no tables) or a store this code reads (see the
    module docstring for ``derived``)."""
    try:
        tables = _tables(conn)
    except sqlite3.DatabaseError as exc:
        if not damaged(exc):
            raise translate(exc, f"cannot open {path}", path=str(path)) from exc
        raise StoreCorruption(
            f"{path} is not a SQLite database ({exc}); point ForestStore at a store file "
            "or at a new path"
        ) from exc
    if not tables:
        return
    if not derived:
        _check_ours(conn, path, tables)
        return
    lost = lost_tables(tables)
    if lost:
        raise StoreCorruption(f"{path} has lost its table(s) {', '.join(lost)}; damaged")
    try:
        _check_ours(conn, path, tables)
    except (ForeignStore, StoreCorruption) as exc:
        raise StoreCorruption(str(exc)) from exc
    except ForestError as exc:  # a pre-0.4 store, another contract level: not ours
        raise StoreCorruption(str(exc)) from exc


def _check_ours(conn: sqlite3.Connection, path: Path, tables: list[str]) -> None:
    if "entries" not in tables:
        if tables == ["forest_meta"]:
            return  # a half-initialised store of ours; init_schema completes it
        shown = ", ".join(tables[:8])
        raise ForeignStore(
            f"{path} is not a Forest store (it holds tables: {shown}); refusing to annex it "
            "— give ForestStore a new path"
        )
    columns = {r[1] for r in conn.execute("PRAGMA table_info(entries)")}
    if "jurisdiction" not in columns:
        raise ForestError(
            f"{path} is a pre-0.4 Forest store (missing jurisdiction); 0.4 was a hard cut — "
            "convert it with forest_files.migrate_to_latest(old_path, new_path)"
        )
    if "forest_meta" not in tables:
        raise ForestError(
            f"{path} has an entries table but no forest_meta; unknown or partial schema — "
            "it cannot be opened safely"
        )
    version = _meta(conn, "schema_version")
    if version != FOREST_CONTRACT_VERSION:
        shown_version = "(missing)" if version is None else repr(version)
        raise ForestError(
            f"{path}: forest_meta schema_version={shown_version}; "
            f"expected {FOREST_CONTRACT_VERSION!r}"
        )
    ours = _meta(conn, "forest_files_schema")
    if ours is None:
        raise ForeignStore(
            f"{path} is a Forest 0.4 store, not a forest-files store; convert it with "
            "forest_files.migrate_to_latest(old_path, new_path) (the original is never written)"
        )
    if ours not in SUPPORTED_SCHEMAS:
        raise StoreCorruption(
            f"{path} has forest_files_schema={ours!r}, written by a newer forest-files; "
            f"this version reads schema {FOREST_FILES_SCHEMA!r} — upgrade forest-files"
        )
