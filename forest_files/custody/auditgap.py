"""The audit log's gap said: one warning, with the fix, when the log was not written.

Stores: nothing (which gap this process has said, in memory: ``_SAID``).
Refuses: nothing.
Returns: ``say_gap`` writes the one ``forest: warning:`` line on stderr, once while
the same gap lasts (the log not written since, for the same reason); ``gap_closed``
forgets a gap once the log was written, so a later one is said again; ``gap_of``:
(why, `` — fix``) of a log not written.
Test: tests/doors/test_audit_unwritable.py, tests/doors/test_audit_gap_again.py,
      tests/store/test_localdb_damaged.py, tests/doors/test_audit_gap_advice.py

Split from custody/auditlog.py, which appends: this module only says why it could not.
"""

from __future__ import annotations

import errno
import sqlite3
import sys
from pathlib import Path

from forest_files.kernel.access import beyond_modes, regain_access
from forest_files.kernel.errors import ForestError
from forest_files.kernel.paths import AUDIT_DB_NAME
from forest_files.kernel.state import shared_dir
from forest_files.store.connection import damaged
from forest_files.store.localdb import move_aside

# The log whose gap this process has said, with that gap's words: a long-running door
# (the watcher, forest mcp) says each gap once, not once for the whole process.
_SAID: dict[str, str] = {}


def _db_of(root: Path) -> Path:
    try:
        return shared_dir(root, create=False) / AUDIT_DB_NAME
    except ForestError:  # the git directory itself is not found: the words alone
        return Path(root) / AUDIT_DB_NAME


def say_gap(root: Path, exc: BaseException) -> None:
    """The one warning that the audit log was not written, with what fixes it: once
    while the same gap lasts (the log not written since, for the same reason)."""
    db = _db_of(root)
    why, fix = gap_of(db, exc)
    if _SAID.get(str(db)) == why + fix:
        return
    _SAID[str(db)] = why + fix
    sys.stderr.write(
        f"forest: warning: the audit log was not written ({why}); what this command did "
        f"stands{fix}\n"
    )


_DENIED_SQLITE = (3, 8, 14)  # SQLITE_PERM, SQLITE_READONLY, SQLITE_CANTOPEN
_DENIED_OS = (errno.EACCES, errno.EPERM)


def gap_of(db: Path, exc: BaseException) -> tuple[str, str]:
    """(why, `` — fix``) of a log not written: a file or folder that cannot be written
    gets kernel/access.py's ``chmod`` (its ``-wal`` and ``-shm`` judged with it), or
    its ``chown`` when another user owns any (a ``sudo forest …`` once); the folder
    and the log named when their modes allow it already; a file SQLite calls damaged
    or no database gets the ``mv`` that moves it aside; any other error keeps its own
    words and fix (a full disk: free space; a refused record: what to change)."""
    cause = exc.__cause__ if isinstance(exc, ForestError) and exc.__cause__ else exc
    code = getattr(cause, "sqlite_errorcode", None)
    denied = (isinstance(code, int) and code & 0xFF in _DENIED_SQLITE) or (
        isinstance(cause, OSError) and cause.errno in _DENIED_OS
    )
    if isinstance(cause, sqlite3.Error) and damaged(cause):  # garbage, a copy cut short
        return f"{db.name} is damaged or is not a SQLite database", (
            f" — move it aside, and the next command starts a new one: {move_aside(db)}"
        )
    if not denied:
        return " ".join(str(exc).split())[:300], ""
    why = f"{db.name}: {cause.strerror if isinstance(cause, OSError) else cause}"
    # its -wal and -shm too: SQLite makes them with the log's mode, so a 0444 log leaves
    # 0444 ones, and a fix naming the log alone would leave the warning (as the store's)
    fix = regain_access(str(db), f"{db}-wal", f"{db}-shm")
    if fix is None:  # the modes allow it already: an immutable flag, an ACL
        return why, f" — {beyond_modes(str(db))}"
    return why, f" — {'make it writable: ' + fix if fix.startswith('chmod') else fix}"


def gap_closed(root: Path) -> None:
    """The log of ``root`` was written: a gap said for it is over (said again if it
    opens again)."""
    if _SAID:
        _SAID.pop(str(_db_of(Path(root))), None)
