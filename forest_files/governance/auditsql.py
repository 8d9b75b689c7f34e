"""The local audit log's SQL, in one place, versioned by ``PRAGMA user_version``.

Stores: the schema of ``.forest/audit.db``: one append-only table (triggers
refuse UPDATE and DELETE), a closed vocabulary of actions, outcomes and
reasons (CHECK lists; tests/test_audit.py checks they match ``ACTIONS``,
``OUTCOMES``).
Refuses: a file whose schema version is newer than this code knows.
Returns: statements; ``SCHEMA`` (version ``SCHEMA_VERSION``) for localdb.py.
Test: tests/test_audit.py
"""

from __future__ import annotations

SCHEMA_VERSION = 1
# Ceremonies are logged under their act kind; the rest are local events.
CEREMONIES = (
    "adopt",
    "write",
    "supersede",
    "resolve",
    "seal",
    "unseal",
    "rebind",
    "retire",
    "erase",
)
EVENTS = ("refusal", "sync", "rebuild", "purge", "proposal", "drift", "expiry")
ACTIONS = CEREMONIES + EVENTS
OUTCOMES = ("ok", "refused", "found")


def _check(values: tuple[str, ...]) -> str:
    return ", ".join(f"'{v}'" for v in values)


_V1 = f"""
CREATE TABLE audit (
    seq     INTEGER PRIMARY KEY AUTOINCREMENT,  -- monotonic, never reused
    at      TEXT NOT NULL,                      -- wall clock (UTC) of this clone
    actor   TEXT NOT NULL,                      -- the act's signer, or 'local'
    action  TEXT NOT NULL CHECK (action IN ({_check(ACTIONS)})),
    outcome TEXT NOT NULL CHECK (outcome IN ({_check(OUTCOMES)})),
    reason  TEXT NOT NULL,                      -- a fixed code, never a message
    targets TEXT NOT NULL,                      -- JSON list: ids, hashes, paths
    counts  TEXT NOT NULL,                      -- JSON object of integers
    head    TEXT,                               -- HEAD commit when recorded
    act_id  TEXT UNIQUE                         -- a ceremony's act: logged once
);
CREATE TRIGGER audit_append_only_update BEFORE UPDATE ON audit
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only; update refused'); END;
CREATE TRIGGER audit_append_only_delete BEFORE DELETE ON audit
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only; delete refused'); END;
"""

COLUMNS = "seq, at, actor, action, outcome, reason, targets, counts, head, act_id"
INSERT = (
    "INSERT OR IGNORE INTO audit (at, actor, action, outcome, reason, targets, counts, head, "
    "act_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
PAGE = f"SELECT {COLUMNS} FROM audit WHERE seq < ? ORDER BY seq DESC LIMIT ?"


SCHEMA = _V1  # the current schema, created by localdb.migrate
