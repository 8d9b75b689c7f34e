"""Typed errors of forest-files: one family, so callers can catch by meaning.

Stores: nothing.
Refuses: nothing itself; every other module raises these.
Returns: exception classes. ``ForestError`` is the root; the message fragments
of Forest 0.4's error catalogue are kept by the raisers so existing
``pytest.raises(match=...)`` handlers still work.
Test: tests/test_errors.py
"""

from __future__ import annotations

import sqlite3


class ForestError(Exception):
    """A constitutional refusal or a failure of the custody store."""


class CeremonyRefusal(ForestError):
    """A refusal from the public rooting gate (``root_to_ground``).

    Forest 0.4 made this a sibling of ``ForestError``; here it is a subclass,
    so ``except ForestError`` catches every refusal of the gate.
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


class ForeignStore(ForestError):
    """The file is a SQLite database of some other application, or an old Forest."""


class AuthorityRefused(ForestError):
    """A signature without authority over a path an act touches (exit 1, live and in CI)."""
