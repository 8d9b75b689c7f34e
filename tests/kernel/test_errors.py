"""The error family: one root, Forest-era handlers still catch what they caught."""

from __future__ import annotations

import sqlite3

from forest_files import (
    CeremonyRefusal,
    ForeignStore,
    ForestError,
    InvalidTransition,
    NotFound,
    Refusal,
    ScopeMismatch,
    ScrollError,
    StoreBusy,
    StoreConstraint,
    StoreCorruption,
)
from forest_files.store.connection import translate


def test_every_refusal_is_a_forest_error_accepted() -> None:
    for cls in (
        CeremonyRefusal,
        ScrollError,
        StoreBusy,
        StoreConstraint,
        StoreCorruption,
        ForeignStore,
        Refusal,
        NotFound,
        ScopeMismatch,
        InvalidTransition,
    ):
        assert issubclass(cls, ForestError)
    for cls in (CeremonyRefusal, NotFound, ScopeMismatch, InvalidTransition):
        assert issubclass(cls, Refusal)


def test_typed_errors_keep_sqlite_bases_accepted() -> None:
    assert issubclass(StoreBusy, sqlite3.OperationalError)
    assert issubclass(StoreConstraint, sqlite3.IntegrityError)
    assert issubclass(StoreCorruption, sqlite3.DatabaseError)


def test_translate_locked_becomes_store_busy_detected() -> None:
    err = translate(sqlite3.OperationalError("database is locked"), "write")
    assert isinstance(err, StoreBusy)
    assert "retry" in str(err)


def test_translate_not_a_database_becomes_corruption_detected() -> None:
    err = translate(sqlite3.DatabaseError("file is not a database"), "open")
    assert isinstance(err, StoreCorruption)


def test_translate_integrity_becomes_constraint_detected() -> None:
    err = translate(sqlite3.IntegrityError("CHECK constraint failed: bucket"), "write")
    assert isinstance(err, StoreConstraint)
    assert "CHECK constraint failed" in str(err)


def test_refusal_line_stdout_lost_pointer_dropped_detected() -> None:
    """With standard output lost, a refusal's ``see above`` goes; what follows its
    ``then`` stays (forest verify's ledger faults)."""
    from forest_files.kernel.exits import unpointed

    assert unpointed("1 finding(s); see above") == "1 finding(s)"
    then = "ledger has 2 fault(s); see above, then restore the damaged files"
    assert unpointed(then) == "ledger has 2 fault(s); restore the damaged files"
    assert unpointed("nothing points here") == "nothing points here"
