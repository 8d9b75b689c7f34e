"""The local audit log's SQL, in one place, versioned by ``PRAGMA user_version``.

Stores: the schema of ``.git/forest/audit.db``: one append-only table (triggers
refuse UPDATE and DELETE), a closed vocabulary of actions, outcomes and
reasons (CHECK lists; tests/governance/test_audit.py checks they match ``ACTIONS``,
``OUTCOMES``).
Version 2 adds the doors' actions (``hook``, ``ci``), version 3 the agents'
door (``mcp``); an older file is upgraded in place, seq for seq.
Refuses: a file whose schema version is newer than this code knows.
Returns: statements; ``SCHEMA`` (version ``SCHEMA_VERSION``) for localdb.py.
Test: tests/governance/test_audit.py
"""

from __future__ import annotations

SCHEMA_VERSION = 3
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
# Version 2: the doors' own records (a pre-commit hook's verdict, a CI gate run);
# version 3: a call of the MCP server (doors/mcp/audit.py).
DOORS = ("hook", "ci", "mcp")
ACTIONS_V1 = CEREMONIES + EVENTS
ACTIONS = ACTIONS_V1 + DOORS
OUTCOMES = ("ok", "refused", "found")


COLUMNS = "seq, at, actor, action, outcome, reason, targets, counts, head, act_id"


def _check(values: tuple[str, ...]) -> str:
    return ", ".join(f"'{v}'" for v in values)


def _table(name: str, actions: tuple[str, ...]) -> str:
    return f"""
CREATE TABLE {name} (
    seq     INTEGER PRIMARY KEY AUTOINCREMENT,  -- monotonic, never reused
    at      TEXT NOT NULL,                      -- wall clock (UTC) of this clone
    actor   TEXT NOT NULL,                      -- the act's signer, or 'local'
    action  TEXT NOT NULL CHECK (action IN ({_check(actions)})),
    outcome TEXT NOT NULL CHECK (outcome IN ({_check(OUTCOMES)})),
    reason  TEXT NOT NULL,                      -- a fixed code, never a message
    targets TEXT NOT NULL,                      -- JSON list: ids, hashes, paths
    counts  TEXT NOT NULL,                      -- JSON object of integers
    head    TEXT,                               -- HEAD commit when recorded
    act_id  TEXT UNIQUE                         -- a ceremony's act: logged once
);
"""


_TRIGGERS = """
CREATE TRIGGER audit_append_only_update BEFORE UPDATE ON audit
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only; update refused'); END;
CREATE TRIGGER audit_append_only_delete BEFORE DELETE ON audit
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only; delete refused'); END;
"""

INSERT = (
    "INSERT OR IGNORE INTO audit (at, actor, action, outcome, reason, targets, counts, head, "
    "act_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
PAGE = f"SELECT {COLUMNS} FROM audit WHERE seq < ? ORDER BY seq DESC LIMIT ?"


_V1 = _table("audit", ACTIONS_V1) + _TRIGGERS
# From nothing or from any older version alike (localdb.migrate runs one script):
# the older table is copied, seq for seq, into one whose CHECK knows every action;
# on a new file the first statement makes an empty version-1 table. Each older
# table's actions are a subset of these, so every row copies.
# DROP TABLE's implicit delete fires no trigger; the triggers go first anyway.
_UPGRADE = f"""
{_table("audit", ACTIONS_V1).replace("CREATE TABLE", "CREATE TABLE IF NOT EXISTS")}
DROP TRIGGER IF EXISTS audit_append_only_update;
DROP TRIGGER IF EXISTS audit_append_only_delete;
ALTER TABLE audit RENAME TO audit_old;
{_table("audit", ACTIONS)}
INSERT INTO audit ({COLUMNS}) SELECT {COLUMNS} FROM audit_old ORDER BY seq;
DROP TABLE audit_old;
{_TRIGGERS}
"""

SCHEMA = _UPGRADE  # the current schema, created (or upgraded) by localdb.migrate
