"""Opening a database file: by its path, or, as root in a state directory, through the
descriptor of its folder (every ``sqlite3.connect`` of a store, the index, a view, the
proposals and the audit log goes through ``open_db``).

Stores: nothing.
Refuses: a state folder root cannot open from the git directory with no link followed
(kernel/state.py ``refuse_unopened``: the link named with its removal).
Returns: ``open_db`` a connection; ``main_file`` the file a connection's main database
is (None in memory).
Test: tests/doors/test_hostile_owner_databases.py, tests/store/test_read_only.py
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any

from forest_files.kernel.paths import PROC_FD, through_folder
from forest_files.kernel.state import refuse_unopened
from forest_files.store.queries import MAIN_FILE


def open_db(path: str | Path, query: str = "", **kwargs: Any) -> sqlite3.Connection:
    """``sqlite3.connect`` of the database ``path`` (a ``file:`` URI with ``query``, as
    ``mode=ro``, when given). As root, in a state directory, through its folder's
    descriptor (kernel/paths.py ``through_folder``): SQLite resolves ``/proc/self/fd/N``
    to the folder opened, never to where a link swapped in for it since leads, and puts
    the ``-wal``, ``-shm`` and journal beside the file there; a folder that cannot be so
    opened (a link on the way) is refused, named (kernel/state.py ``refuse_unopened``)."""
    try:
        name, fd = through_folder(str(path))
    except OSError as exc:
        raise refuse_unopened(str(path), exc) from exc
    try:
        conn = _connect(name, query, kwargs)
        if fd is not None and (main_file(conn) or PROC_FD).startswith(PROC_FD):
            # An SQLite before 3.35 keeps the name as given, and would open its journal
            # through a descriptor number closed (or reused) by then: the folder's name
            # now, as a later SQLite resolves it.
            conn.close()
            name = os.path.join(os.readlink(f"{PROC_FD}/{fd}"), os.path.basename(name))
            conn = _connect(name, query, kwargs)
    finally:
        if fd is not None:
            os.close(fd)
    return conn


def _connect(name: str, query: str, kwargs: dict[str, Any]) -> sqlite3.Connection:
    if not query:
        conn: sqlite3.Connection = sqlite3.connect(name, **kwargs)
        return conn
    uri = f"{Path(name).absolute().as_uri()}?{query}"
    conn = sqlite3.connect(uri, uri=True, **kwargs)
    return conn


def main_file(conn: sqlite3.Connection) -> str | None:
    """The file of ``conn``'s main database, for a refusal to name (None: in memory)."""
    try:
        row = conn.execute(MAIN_FILE).fetchone()
    except sqlite3.Error:
        return None
    # read as bytes and decoded as the OS names files (a byte that is not UTF-8 kept as a
    # surrogate), so a repository under a folder like caf\xe9 gets a name that opens it
    return os.fsdecode(row[0]) if row and row[0] else None


__all__ = ["main_file", "open_db"]
