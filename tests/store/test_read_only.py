"""``store/connection.py`` ``read_only``: a reader of a WAL database leaves no ``-wal``
or ``-shm`` file it made, changes no byte of the database, and leaves them in place
while another connection still has the file open (they are its)."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from forest_files.store.connection import read_only


def _wal_db(tmp_path: Path) -> Path:
    db = tmp_path / "a b.db"
    with closing(sqlite3.connect(db, isolation_level=None)) as conn:
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("CREATE TABLE t (x)")
        conn.execute("INSERT INTO t VALUES (1)")
    assert not _beside(db)
    return db


def _beside(db: Path) -> list[str]:
    return sorted(p.name for p in db.parent.iterdir() if p.name != db.name)


def test_read_only_leaves_no_wal_or_shm_accepted(tmp_path: Path) -> None:
    db = _wal_db(tmp_path)
    before = db.read_bytes()
    with read_only(db) as conn:
        assert conn.execute("SELECT x FROM t").fetchall() == [(1,)]
        assert _beside(db) == ["a b.db-shm", "a b.db-wal"]  # what SQLite makes for a reader
    assert _beside(db) == []
    assert db.read_bytes() == before


def test_read_only_while_another_connection_open_keeps_its_files_accepted(
    tmp_path: Path,
) -> None:
    db = _wal_db(tmp_path)
    with closing(sqlite3.connect(db, isolation_level=None)) as other:
        other.execute("INSERT INTO t VALUES (2)")  # in its log, not yet checkpointed
        with read_only(db) as conn:
            assert conn.execute("SELECT count(*) FROM t").fetchone() == (2,)
        assert _beside(db) == ["a b.db-shm", "a b.db-wal"]
        assert other.execute("SELECT count(*) FROM t").fetchone() == (2,)
    assert _beside(db) == []  # its own close tidies


def test_read_only_of_a_rollback_journal_database_accepted(tmp_path: Path) -> None:
    db = tmp_path / "plain.db"
    with closing(sqlite3.connect(db)) as conn:
        conn.execute("CREATE TABLE t (x)")
    with read_only(db) as conn:
        assert conn.execute("SELECT count(*) FROM t").fetchone() == (0,)
    assert _beside(db) == []
