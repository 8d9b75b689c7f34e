"""A failed finding whose ground's adopter the index cannot give: said on it, never dropped.

Who adopted a failed finding's ground is read from the index's rows (check/path.py
``_named``, through ``Custody.reader``); the finding itself is judged without them,
from the saved binding map. Where ``woods.db`` is there but cannot be read (a mode of
``000``, another user's folder, a damaged file), a refusal would turn a plain drift
into an error: each failed finding with a ground carries one hint instead, naming the
file and its fix: the ``chmod`` or ``chown`` every door says (kernel/access.py) when a
mode or an owner stops this user, else ``forest fsck`` (which says what is wrong, and
``forest rebuild``).
Stores: nothing.
Refuses: nothing.
Returns: ``rows_of`` (the rows' reader, or None and why), ``unread_reason`` (why the
rows could not be read; "" when there is no file to read), ``noted`` (the findings with
the hint), ``store_or_none`` (the store a terminal's diffs read; None where the index is
there and this user may not open it: the findings are shown without diffs).
Test: tests/check/test_adopter_unreadable_index.py
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Sequence

    from forest_files.check.findings import Reported
    from forest_files.check.opened import Custody
    from forest_files.store.forest import ForestStore


def rows_of(custody: Custody) -> tuple[sqlite3.Connection | None, str]:
    """``custody``'s read-only reader of its rows, or None and why they cannot be read
    (``unread_reason``: "" when there are none to read). A file whose header is not a
    database's (SQLite's ``DatabaseError`` on its first read) is one of those, never
    an internal error."""
    import sqlite3

    try:
        conn = custody.reader()
    except sqlite3.DatabaseError as exc:
        return None, unread_reason(custody.rows_file(), exc)
    return conn, "" if conn is not None else unread_reason(custody.rows_file())


def unread_reason(db: str, exc: BaseException | None = None) -> str:
    """Why the rows of ``db`` could not be read, with the fix, as one clause: the file
    this user may not open, or ``exc`` (what SQLite raised reading its rows); "" when
    ``db`` is not there (nothing recorded: no adopter to lose), or opens and no ``exc``
    was met (what stopped the caller is not the file's)."""
    from forest_files.kernel.shellword import forest_text, printable

    if not os.path.lexists(db):
        return ""
    try:
        os.close(os.open(db, os.O_RDONLY))
    except OSError as denied:
        from forest_files.kernel.access import beyond_modes, regain_access

        fix = regain_access(db, f"{db}-wal", f"{db}-shm") or beyond_modes(db)
        return f"{printable(db)} cannot be read ({denied.strerror}); {fix}, then check again"
    if exc is None:
        return ""
    fsck = forest_text("fsck")
    return f"{printable(db)} cannot be read ({printable(str(exc))}); `{fsck}` says what is wrong"


def noted(items: Sequence[Reported], reason: str) -> tuple[Reported, ...]:
    """``items`` with, on each failed finding whose ground has no adopter named, the
    line that says it is unknown and why (``reason``: ``unread_reason``)."""
    if not reason:
        return tuple(items)
    out = []
    for r in items:
        ground = r.finding.ground
        if r.failed and ground and not r.adopted_by:
            said = f"ground {ground[:12]} adopted by: unknown, {reason}"
            r = r._replace(hints=(said, *r.hints))
        out.append(r)
    return tuple(out)


def store_or_none(custody: Custody) -> ForestStore | None:
    """The store a terminal's diffs read ground's words from (``custody.store()``); None
    where the index is there and this user may not open it: the check's findings are
    reported without diffs, each saying why its adopter is unknown (``noted``), not
    turned into an error. Any other refusal of the store is raised as before."""
    from forest_files.kernel.errors import ForestError

    try:
        return custody.store()
    except ForestError:
        if unread_reason(custody.rows_file()):
            return None
        raise
