"""Typed errors of forest-files: one family, so callers can catch by meaning.

Stores: nothing.
Refuses: nothing itself; every other module raises these.
Returns: exception classes. ``no_space`` tells an ``OSError`` of room (a full disk, a
quota, a file-size limit) from one of permission, and ``FREE_SPACE`` is its fix.
``ForestError`` is the root; the message fragments
of Forest 0.4's error catalogue are kept by the raisers so existing
``pytest.raises(match=...)`` handlers still work.
Test: tests/kernel/test_errors.py
"""

from __future__ import annotations

import errno
import sqlite3

# The fix for a write refused for want of room, and the errors that call for it:
# making the file or its folder writable would not help.
FREE_SPACE = "free space (a full disk, a quota or a file-size limit)"
_NO_SPACE = frozenset(
    getattr(errno, name) for name in ("ENOSPC", "EDQUOT", "EFBIG") if hasattr(errno, name)
)


def no_space(exc: BaseException) -> bool:
    """Whether ``exc`` is a write the disk refused for want of room (ENOSPC, EDQUOT,
    EFBIG: a full disk, a quota, a file-size limit)."""
    return isinstance(exc, OSError) and exc.errno in _NO_SPACE


class ForestError(Exception):
    """A constitutional refusal or a failure of the custody store."""


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP, raised where the command stands (doors/boundary.py), so it
    cleans up as it does for Ctrl-C (temporary files, bodies written ahead of their
    segment); the exit code is 128 + the signal's number, as the shell's."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


class StateError(ForestError):
    """A local state directory that cannot be trusted (a symlink, a file)."""


class Refusal(ForestError):
    """A constitutional refusal: the store's law says no to a well-formed request.

    The base of the refusals a host may want to tell from damage or contention
    (``StoreBusy``, ``StoreCorruption``): a ceremony's gate, an unknown id, an id
    of another scope, a state transition that is not allowed. Exit code 1.
    """


class CeremonyRefusal(Refusal):
    """A refusal from the public rooting gate (``root_to_ground``).

    Forest 0.4 made this a sibling of ``ForestError``; here it is a subclass,
    so ``except ForestError`` catches every refusal of the gate.
    """


class NotFound(Refusal):
    """An entry id (or content id) that exists in no scope of the store file.

    The message keeps Forest's fragment ``unknown entry N``.
    """


class ScopeMismatch(Refusal):
    """An entry id that exists, but only in another scope than the store's.

    Nothing is read or written. Telling this apart from ``NotFound`` leaks one
    bit to the caller: that the id exists somewhere in the file (never which
    scope, and never its text). TrueHeart documents the same leak; it is kept
    because it tells a host that opened the store with the wrong scope what is
    wrong. Scopes are isolation between cooperating callers, not
    authentication: anyone who can open the file can open it with any scope.
    """


class InvalidTransition(Refusal):
    """A ceremony asked of an entry whose state does not allow it.

    Sealing what is already sealed, unsealing what is not sealed, rooting what
    is sealed, superseded, contested or already ground, superseding what is not
    current ground, resolving what is not contested. Nothing is written.
    """


class ScrollError(ForestError):
    """Scroll discipline: empty heads, whole-scroll reads, oversized slices."""


class StoreBusy(ForestError, sqlite3.OperationalError):
    """The database stayed locked past the busy timeout. Retry later.

    Also an ``sqlite3.OperationalError`` so Forest-era handlers of
    "database is locked" keep working.
    """


class StoreCorruption(ForestError, sqlite3.DatabaseError):
    """The file is damaged or is not a store this version can read. Fail closed."""


class StoreConstraint(ForestError, sqlite3.IntegrityError):
    """A law of the schema (trigger, CHECK, foreign key) refused a write.

    Also an ``sqlite3.IntegrityError`` so Forest-era handlers keep working.
    """


class NoSpace(ForestError):
    """A write the disk refused: a full disk, a quota or a file-size limit (SQLite's
    I/O error or "disk is full"). Exit 1: free space, then the same command again.
    Never an act's fault: a replay raises it as it is, never as a damaged ledger."""


class ForeignStore(ForestError):
    """The file is a SQLite database of some other application, or an old Forest."""


class AuthorityRefused(ForestError):
    """A signature without authority over a path an act touches (exit 1, live and in CI)."""


class UnusableConfig(ForestError):
    """A configuration file that cannot be used as written: not TOML, not UTF-8,
    nested too deeply, wrong types, a directory, unreadable, too big. Exit 2, as a
    usage error: the fix is an edit of the file, named in the one line; nothing is
    written (not even the audit record of the refusal)."""
