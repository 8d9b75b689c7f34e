"""``forest fsck``'s word for a store SQLite could not open or read: not judged, and why.

A mode or an owner is an ``access`` fault naming the ``chmod`` or ``chown`` every door
says (kernel/access.py), never ``forest rebuild`` (refused the same way); want of room
(a full disk, a quota, a file-size limit: its ``-shm`` not written) is a ``no-space``
fault saying to free space and run ``forest fsck`` again, never called damaged. On a
read-only mount neither: fsck refuses with the line every door says there.
Stores: nothing.
Refuses: a store SQLite may not open on a read-only mount (``unread``: the door's line).
Returns: ``FsckFault`` values, or None for an error that is none of these.
Test: tests/governance/test_fsck_access.py, tests/governance/test_fsck_no_space.py,
tests/governance/test_fsck_read_only_mount.py
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from forest_files.governance.fsck_index import FsckFault
from forest_files.kernel.access import on_read_only_mount, regain_command
from forest_files.kernel.errors import FREE_SPACE, NoSpace
from forest_files.kernel.shellword import forest_text
from forest_files.store.connection import translate

_REFUSED = (3, 8, 14)  # SQLITE_PERM, SQLITE_READONLY, SQLITE_CANTOPEN


def refused(exc: sqlite3.Error) -> bool:
    """Whether SQLite could not open or read the file (not a damaged one, not a
    missing table): what a mode or an owner does."""
    code = getattr(exc, "sqlite_errorcode", None)
    return isinstance(code, int) and code & 0xFF in _REFUSED


def _no_room(exc: sqlite3.Error, name: str) -> FsckFault | None:
    """A ``no-space`` fault for a store SQLite could not open or read for want of room
    (its ``-shm`` cannot be written: a full disk, a quota, a file-size limit): the file
    is not judged, never called damaged nor moved aside; None for any other error."""
    if not isinstance(translate(exc), NoSpace):
        return None
    again = forest_text("fsck")
    detail = (
        f"the disk refused a write ({exc}), so it is not checked; {FREE_SPACE}, then run "
        f"`{again}` again"
    )
    return FsckFault("no-space", name, detail, again)


def unread(exc: sqlite3.Error, path: Path, name: str) -> FsckFault | None:
    """The fault for a store SQLite could not open or read: ``access_fault`` for a mode or an
    owner, ``_no_room`` for want of room; None for any other error. On a read-only
    mount (kernel/access.py ``on_read_only_mount``) it is never checked, nor is anything
    wrong with it: fsck refuses with the line every door's opening says there."""
    if not refused(exc):
        return _no_room(exc, name)
    if on_read_only_mount(str(path)):  # no chmod helps, nor an mv: the mount refuses both
        raise translate(exc, f"cannot open {path}", path=str(path)) from exc
    return access_fault(path, name)


def access_fault(path: Path, name: str) -> FsckFault | None:
    """An ``access`` fault for a store (or its folder) this user may not read or
    write, which SQLite refused to open: its fix the ``chmod`` or ``chown`` every door
    says (kernel/access.py), never ``forest rebuild``, refused the same way; None
    when the modes allow it already (the caller reports what SQLite said)."""
    fix = regain_command(str(path), f"{path}-wal", f"{path}-shm")
    if fix is None:
        return None
    who = "another user owns it" if fix.startswith("sudo ") else "this user may not use it"
    detail = f"{who}, so it is not checked, nor can `{forest_text('rebuild')}` run; `{fix}`"
    return FsckFault("access", name, detail, fix)
