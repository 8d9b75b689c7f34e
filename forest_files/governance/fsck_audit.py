"""``forest fsck`` of the audit log: present while acts were applied, and nothing owed.

Checks: the audit log present and holding records while the index holds applied acts
(``audit-missing``, ``audit-emptied``: every sync, rebuild and recorded act leaves a
record); the records a recording owes it (custody/auditowed.py: a command killed
between its act's segment and the log's commit, or a log it could not write): each
marker an ``audit-owed`` fault naming its acts, how many of them the index has applied
and the log lacks, and ``forest sync``, which writes the record of each act the ledger
proves and removes the marker; anything else in ``audit-owed/`` an ``audit-owed-foreign``
fault with the ``rm --`` (``rm -r --`` for a folder) that removes it, and a link or a
file where the folder belongs a ``linked`` fault with its ``rm --``.
Stores: nothing (every file read-only; a marker read as ``restore`` reads it).
Refuses: nothing (a store out of reach is fsck_unread.py's).
Returns: ``FsckFault`` values.
Test: tests/governance/test_fsck_audit_log.py, tests/governance/test_fsck_audit_owed.py
"""

from __future__ import annotations

import os
import sqlite3
import stat
from collections.abc import Sequence
from pathlib import Path

from forest_files.custody import auditowed
from forest_files.governance.fsck_index import FsckFault
from forest_files.governance.fsck_unread import refused, unread
from forest_files.kernel.errors import StateError
from forest_files.kernel.paths import AUDIT_DB_NAME, OWED_DIR
from forest_files.kernel.shellword import forest_text, shell_word
from forest_files.kernel.state import worktree_dir
from forest_files.store.connection import damaged, read_only

_SHOWN = 5  # act ids a fault names; the rest counted


def applied_count(conn: sqlite3.Connection) -> int:
    try:
        return int(conn.execute("SELECT count(*) FROM ledger_applied").fetchone()[0])
    except sqlite3.Error:
        return 0  # no ledger tables: reported with the ledger's faults


def presence_faults(path: Path, applied: int) -> list[FsckFault]:
    """Every sync, rebuild and recorded act leaves an audit record: an index that
    applied acts beside an audit log that is missing or holds no record lost them."""
    if applied == 0:
        return []
    rebuild = forest_text("rebuild")
    lost = (
        f"while the index holds {applied} applied act(s); their records are lost (restore "
        f"it from a backup, or run `{rebuild}`, which"
    )
    if not path.exists():
        detail = f"absent {lost} starts a new log with its own record)"
        return [FsckFault("audit-missing", AUDIT_DB_NAME, detail, rebuild)]
    try:
        with read_only(path) as conn:
            rows = int(conn.execute("SELECT count(*) FROM audit").fetchone()[0])
    except sqlite3.Error as exc:  # an emptied file is a database without the table
        if damaged(exc) or (refused(exc) and unread(exc, path, AUDIT_DB_NAME) is not None):
            return []  # a damaged file, one out of reach: its own fault says what to do
        rows = 0
    if rows == 0:
        detail = (
            f"holds no record {lost} keeps this log and writes into it its own record and "
            "any a killed command still owes, never the lost ones)"
        )
        return [FsckFault("audit-emptied", AUDIT_DB_NAME, detail, rebuild)]
    return []


def _among(conn: sqlite3.Connection | None, sql: str, acts: Sequence[str]) -> set[str]:
    """The acts of ``acts`` a query of one ``act_id IN (…)`` finds (none without a
    connection, or where its table is missing: said by its own fault)."""
    found: set[str] = set()
    if conn is None:
        return found
    for start in range(0, len(acts), 500):
        chunk = list(acts[start : start + 500])
        marks = ",".join("?" * len(chunk))
        try:
            rows = conn.execute(sql.format(marks=marks), chunk).fetchall()
        except sqlite3.Error:
            return found
        found.update(str(r[0]) for r in rows)
    return found


_APPLIED = "SELECT act_id FROM ledger_applied WHERE act_id IN ({marks})"
_LOGGED = "SELECT act_id FROM audit WHERE act_id IN ({marks})"


def _logged(audit: Path | None, acts: Sequence[str]) -> set[str]:
    """The acts whose record the log holds already (none when it cannot be read, or
    ``audit`` is None: a link, never opened)."""
    if audit is None or not audit.is_file():
        return set()
    try:
        with read_only(audit) as conn:
            return _among(conn, _LOGGED, acts)
    except sqlite3.Error:
        return set()


def _named(acts: Sequence[str]) -> str:
    more = f" and {len(acts) - _SHOWN} more" if len(acts) > _SHOWN else ""
    return ", ".join(acts[:_SHOWN]) + more


def _claim_fault(claim: auditowed.Claim, applied: set[str], logged: set[str]) -> FsckFault:
    where = f"{OWED_DIR}/{claim.path.name}"
    owed = [a for a in claim.acts if a in applied and a not in logged]
    sync = forest_text("sync")
    if owed:
        detail = (
            f"the audit log lacks the record of {len(owed)} act(s) the index applied "
            f"(a command killed before its log held them, or a log it could not write): "
            f"{_named(owed)}; `{sync}` writes them"
        )
    else:
        detail = (
            f"names {len(claim.acts)} act(s) ({_named(claim.acts)}) whose record the log "
            "holds or that the index has not applied (a command killed before its act "
            f"landed owes none); `{sync}` writes any the ledger proves and removes it"
        )
    return FsckFault("audit-owed", where, detail, sync)


def _foreign(path: Path) -> FsckFault:
    try:
        folder = stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        folder = False
    fix = f"{'rm -r' if folder else 'rm'} -- {shell_word(str(path))}"
    detail = f"not a marker forest-files wrote (nothing is restored from it); `{fix}`"
    return FsckFault("audit-owed-foreign", f"{OWED_DIR}/{path.name}", detail, fix)


def owed_faults(root: Path, conn: sqlite3.Connection | None, audit: Path | None) -> list[FsckFault]:
    """A fault for each marker under ``audit-owed/`` (``conn``: the index, for the acts it
    applied), each thing there that is none, or the folder itself a link or a file."""
    try:
        found = auditowed.claims(root)
    except StateError as exc:  # a link or a file where the folder belongs
        fix = f"rm -- {shell_word(str(worktree_dir(root, create=False) / OWED_DIR))}"
        return [FsckFault("linked", OWED_DIR, str(exc), fix)]
    out = [_foreign(path) for path in found.foreign]
    acts = [a for claim in found.sound for a in claim.acts]
    applied, logged = _among(conn, _APPLIED, acts), _logged(audit, acts)
    out += [_claim_fault(claim, applied, logged) for claim in found.sound]
    return out
