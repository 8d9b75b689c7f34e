"""Opening a SQLite connection the store's way, transactions, error mapping.

Stores: nothing itself; sets WAL, foreign keys and a busy timeout (5 s, or the
door's budget: ``set_busy_budget``; the pre-commit hook gives 2 s so git never
stalls long).
Refuses: nothing; it translates. A busy/locked database becomes ``StoreBusy``
(retryable), a damaged or non-SQLite file ``StoreCorruption``, a schema law
``StoreConstraint``, a write the disk refused (SQLite's I/O error or "disk is
full": a full disk, a quota, a file-size limit) a ``NoSpace`` saying to free
space, a file it cannot open or write (a read-only file or directory: SQLite's
"unable to open" or "readonly database") one naming the ``chmod`` that makes it
readable and writable, or the ``chown`` of another user's, or, on a read-only
filesystem, its mount (kernel/access.py ``mounted_read_only``), or, when the modes allow
it already, the one advice beyond them (kernel/access.py ``beyond_modes``), naming
the ``-wal`` or ``-shm`` beside it that stops the write when it is that one (a
caller that names no file, an in-memory store's, gets SQLite's words alone), a use
after ``close()`` a ``ForestError``. A nested block whose error made SQLite roll
the whole transaction back itself raises that error, never the "no such
savepoint" of rolling back to a savepoint that is gone. A write the disk refused
names the database file (with its folder) at every step (begin, a method, commit).
Taking the write lock (``BEGIN IMMEDIATE``) is retried with jittered,
doubling sleeps within the connection's busy timeout, so two writers that
collide do not retry in step; past it, ``StoreBusy`` (exit 75: retry).
Returns: connections (opened by store/dbfile.py ``open_db``), the ``atomic`` context
manager, the ``guarded`` decorator, ``read_only`` (a read-only connection that leaves no
``-wal``/``-shm`` it made).
Test: tests/store/test_store_hostile.py, tests/kernel/test_errors.py,
tests/store/test_read_only.py, tests/doors/test_unwritable_state.py
"""

from __future__ import annotations

import functools
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import ParamSpec, TypeVar

from forest_files.kernel.errors import (
    ForestError,
    NoSpace,
    StoreBusy,
    StoreConstraint,
    StoreCorruption,
)
from forest_files.store.dbfile import main_file, open_db

BUSY_TIMEOUT_MS = 5000
_budget_ms = BUSY_TIMEOUT_MS  # what new connections wait for a lock (set_busy_budget)
# SQLite primary result codes (the low byte of an extended code).
_SQLITE_BUSY = 5
_SQLITE_READONLY = 8  # a read-only file or folder (its -shm or journal cannot be made)
_SQLITE_LOCKED = 6
_SQLITE_IOERR = 10
_SQLITE_CORRUPT = 11
_SQLITE_FULL = 13
_SQLITE_CANTOPEN = 14
_SQLITE_NOTADB = 26

P = ParamSpec("P")
R = TypeVar("R")


def connect(path: str | Path) -> sqlite3.Connection:
    """Open ``path`` in autocommit mode; transactions are explicit (``atomic``)."""
    try:
        conn = open_db(path, isolation_level=None)
    except sqlite3.Error as exc:
        raise translate(exc, f"cannot open store {path}", path=str(path)) from exc
    conn.row_factory = sqlite3.Row
    try:
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute(f"PRAGMA busy_timeout = {_budget_ms}")
    except sqlite3.Error as exc:
        conn.close()
        raise translate(exc, f"cannot open store {path}", path=str(path)) from exc
    return conn


@contextmanager
def read_only(path: Path) -> Iterator[sqlite3.Connection]:
    """``path`` opened read-only (``mode=ro``: nothing of the database is written). A
    reader of a WAL database makes its ``-wal`` and ``-shm`` files when they are missing,
    and only a writer's close removes them: when this opening made them, a writing
    connection reads once and closes (as the last connection it checkpoints an empty
    log, changing no page, and deletes both); another process's open connection keeps
    them, as it must, and a file this user cannot write keeps them too."""
    beside = [Path(f"{path}{side}") for side in ("-wal", "-shm")]
    made = [p for p in beside if not p.exists()]
    conn = open_db(path, "mode=ro")
    try:
        yield conn
    finally:
        conn.close()
    if any(p.exists() for p in made):
        _close_clean(path)


def _close_clean(path: Path) -> None:
    try:
        conn = open_db(path, isolation_level=None)
    except (sqlite3.Error, ForestError):
        return
    try:
        conn.execute("PRAGMA busy_timeout = 0")  # another writer: its close tidies
        conn.execute("SELECT 1 FROM sqlite_master LIMIT 1")  # the log is opened on a read
    except sqlite3.Error:
        pass
    finally:
        conn.close()


def set_busy_budget(ms: int) -> None:
    """How long connections opened from now on wait for another writer (ms)."""
    global _budget_ms
    if isinstance(ms, bool) or not isinstance(ms, int) or not 0 <= ms <= 600_000:
        raise ForestError("busy budget must be 0..600000 milliseconds")
    _budget_ms = ms


def _begin_immediate(conn: sqlite3.Connection) -> None:
    """``BEGIN IMMEDIATE``, retried with jittered backoff within the busy timeout: one
    budget, measured from the first attempt (SQLite's own wait is off meanwhile)."""
    budget = int(conn.execute("PRAGMA busy_timeout").fetchone()[0])
    deadline = time.monotonic() + budget / 1000
    delay = 0.004
    conn.execute("PRAGMA busy_timeout = 0")  # the sleeps below are the waiting
    try:
        while True:
            try:
                conn.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as exc:
                left = deadline - time.monotonic()
                if not _busy(exc) or left <= 0:
                    raise
            import random  # only when another writer holds the lock

            time.sleep(min(left, delay * random.uniform(0.5, 1.5)))
            delay = min(delay * 2, 0.25)
    finally:
        conn.execute(f"PRAGMA busy_timeout = {budget}")


def _busy(exc: sqlite3.Error) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    base = code & 0xFF if isinstance(code, int) else None
    return base in (_SQLITE_BUSY, _SQLITE_LOCKED) or "locked" in str(exc) or "busy" in str(exc)


def enable_wal(conn: sqlite3.Connection) -> None:
    """WAL on; a file or folder this user may not write refused naming it, with its fix."""
    try:
        conn.execute("PRAGMA journal_mode = WAL")
    except sqlite3.Error as exc:
        file = main_file(conn)
        raise translate(exc, f"open {file or ''}", path=file) from exc


def damaged(exc: sqlite3.Error) -> bool:
    """Whether SQLite says the file itself is damaged or is no database (not busy,
    not a write the disk refused)."""
    code = getattr(exc, "sqlite_errorcode", None)
    base = code & 0xFF if isinstance(code, int) else None
    if base is not None:
        return base in (_SQLITE_CORRUPT, _SQLITE_NOTADB)
    return isinstance(exc, sqlite3.DatabaseError) and not isinstance(exc, sqlite3.OperationalError)


def translate(
    exc: sqlite3.Error, context: str = "store", *, path: str | None = None
) -> ForestError:
    """Map a raw sqlite3 error onto the typed family, keeping SQLite's words; ``path``
    (the database file, when known) is named in the fix of a file it cannot open or
    write (kernel/access.py: the ``chmod``, or the ``chown`` of another user's), as
    the file a write the disk refused was for, and as the file another writer holds
    (unless ``context`` names it already)."""
    if isinstance(exc, ForestError):
        return exc
    code = getattr(exc, "sqlite_errorcode", None)
    base = code & 0xFF if isinstance(code, int) else None
    text = str(exc)
    if base in (_SQLITE_BUSY, _SQLITE_LOCKED) or "locked" in text or "busy" in text:
        held = path if path and path not in context else "database"  # the file, once
        return StoreBusy(f"{context}: {held} is locked by another writer ({text}); retry shortly")
    if base in (_SQLITE_CORRUPT, _SQLITE_NOTADB) or "not a database" in text:
        return StoreCorruption(
            f"{context}: the file is damaged or is not a SQLite database ({text}); "
            "restore it from a backup or point at the right file"
        )
    if base in (_SQLITE_IOERR, _SQLITE_FULL):
        where = f" to {path}" if path and path not in context else ""  # the file, once
        return NoSpace(
            f"{context}: the disk refused a write{where} ({text}); free space (a full disk, "
            "a quota or a file-size limit)"
        )
    if base in (_SQLITE_CANTOPEN, _SQLITE_READONLY):
        from forest_files.kernel.access import beyond_modes, refused_beside, regain_access

        if not path:  # no file named (in memory): no path to give a command for
            return ForestError(f"{context}: {text}")
        # SQLite makes the -wal and -shm with the file's mode: a 0444 file leaves 0444 ones
        beside = (f"{path}-wal", f"{path}-shm")
        fix = regain_access(path, *beside) or beyond_modes(path)
        # the database opened, its log did not: the file to name is the log, not the database
        why = refused_beside(*beside)
        text = f"{text} ({why})" if why else text
        return ForestError(f"{context}: {text}; {fix}, then run the command again")
    if isinstance(exc, sqlite3.IntegrityError):
        return StoreConstraint(f"{context}: the schema refused the write: {text}")
    if isinstance(exc, sqlite3.ProgrammingError) and "closed" in text:
        return ForestError(f"{context}: the store is closed; open a new ForestStore")
    if "no such table" in text or "no such column" in text:
        return ForestError(
            f"{context}: the store has no (or an incomplete) schema ({text}); "
            "call init_schema() on a fresh file"
        )
    return ForestError(f"{context}: {text}")


def guarded(fn: Callable[P, R]) -> Callable[P, R]:
    """Let no raw sqlite3 error escape a public store call."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except ForestError:
            raise
        except sqlite3.Error as exc:
            raise translate(exc, fn.__name__.lstrip("_"), path=_file_of(args)) from exc

    return wrapper


def _file_of(args: tuple[object, ...]) -> str | None:
    """The database file of a guarded method's store (its ``conn``), for the refusal."""
    conn = getattr(args[0], "conn", None) if args else None
    return main_file(conn) if isinstance(conn, sqlite3.Connection) else None


@contextmanager
def atomic(conn: sqlite3.Connection) -> Iterator[None]:
    """One transaction: BEGIN IMMEDIATE at the outside, a savepoint when nested.

    IMMEDIATE takes the write lock before any check runs, so every
    check-then-write inside is race-free against other connections.
    """
    if conn.in_transaction:
        # One name for every level: blocks nest strictly, and ROLLBACK TO / RELEASE
        # act on the innermost savepoint of that name, which is this block's. Fixed
        # text also lets sqlite3 reuse the prepared statements.
        conn.execute("SAVEPOINT forest_sp")
        try:
            yield
        except BaseException:
            # An I/O error or a full disk can make SQLite roll the whole transaction
            # back itself: the savepoint is gone, and the error is the one to raise.
            if conn.in_transaction:
                conn.execute("ROLLBACK TO forest_sp")
                conn.execute("RELEASE forest_sp")
            raise
        conn.execute("RELEASE forest_sp")
        return
    try:
        _begin_immediate(conn)
    except sqlite3.Error as exc:
        raise translate(exc, "begin", path=main_file(conn)) from exc
    try:
        yield
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    try:
        conn.execute("COMMIT")
    except sqlite3.Error as exc:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise translate(exc, "commit", path=main_file(conn)) from exc
