"""The proposals store's SQL, in one place, versioned by ``PRAGMA user_version``.

Stores: the schema of ``.git/forest/local.db`` (proposals and their earlier
versions). Local only: never committed, never in the ledger, untouched by
``forest rebuild``. Version 2 adds what an agent claims (``claimed_by``, its
``reason``) and keeps one open proposal per binding *per source*, so an agent's
proposal (source ``mcp``) never replaces the watcher's capture of a real edit;
a version-1 file is upgraded in place, its proposals kept. Version 3 adds the
``worktree`` that captured (or last replaced) a proposal's text, so closing a
text the working tree left behind is judged only in that worktree: another
worktree of the clone, whose copy of the section is still at ground, never
discards it (a version-2 row has none, and is judged anywhere, as before).
Refuses: a file whose schema version is newer than this code knows.
Returns: statements; ``SCHEMA`` (version ``SCHEMA_VERSION``) for localdb.py.
Test: tests/proposals/test_proposals.py
"""

from __future__ import annotations

SCHEMA_VERSION = 3
STATUSES = ("open", "adopted", "discarded")

_V1 = """
CREATE TABLE IF NOT EXISTS proposals (
    id TEXT PRIMARY KEY,
    binding TEXT NOT NULL,          -- bind act id
    path TEXT NOT NULL,
    selector TEXT NOT NULL,
    derived_from TEXT NOT NULL,     -- the ground content id the text diverges from
    ground_hash TEXT NOT NULL,
    text TEXT,                      -- NULL once discarded: nothing of it is kept
    text_hash TEXT NOT NULL,
    source TEXT NOT NULL,           -- who proposed: 'watch', an agent …
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('open', 'adopted', 'discarded')),
    adopted_as TEXT                 -- the new ground's content id
);
CREATE UNIQUE INDEX IF NOT EXISTS one_open_per_binding ON proposals(binding)
    WHERE status = 'open';
CREATE TABLE IF NOT EXISTS proposal_versions (
    proposal TEXT NOT NULL REFERENCES proposals(id),
    n INTEGER NOT NULL,
    text TEXT NOT NULL,
    text_hash TEXT NOT NULL,
    derived_from TEXT NOT NULL,
    captured_at TEXT NOT NULL,
    PRIMARY KEY (proposal, n)
);
"""

# From nothing or from version 1 alike (localdb.migrate runs one script): the
# version-1 tables are made if missing, then widened; the one-open rule moves
# from the binding to (binding, source).
_V2 = f"""
{_V1}
ALTER TABLE proposals ADD COLUMN claimed_by TEXT;   -- an agent's claimed signature
ALTER TABLE proposals ADD COLUMN reason TEXT;       -- the agent's reason, a sentence
DROP INDEX IF EXISTS one_open_per_binding;
CREATE UNIQUE INDEX one_open_per_binding_source ON proposals(binding, source)
    WHERE status = 'open';
"""

_V3 = """
ALTER TABLE proposals ADD COLUMN worktree TEXT;     -- the worktree that captured it
"""

COLUMNS = (
    "id, binding, path, selector, derived_from, ground_hash, text, text_hash, source, "
    "created_at, updated_at, status, adopted_as, claimed_by, reason, worktree"
)
SELECT_ONE = f"SELECT {COLUMNS} FROM proposals WHERE id = ?"
SELECT_PREFIX = f"SELECT {COLUMNS} FROM proposals WHERE id LIKE ? || '%' ORDER BY id"
SELECT_OPEN = f"SELECT {COLUMNS} FROM proposals WHERE status = 'open' ORDER BY path, selector"
SELECT_OPEN_OF = (
    f"SELECT {COLUMNS} FROM proposals WHERE status = 'open' AND binding = ? AND source = ?"
)
INSERT = f"INSERT INTO proposals ({COLUMNS}) VALUES ({', '.join('?' * 16)})"
REPLACE_TEXT = (
    "UPDATE proposals SET text = ?, text_hash = ?, derived_from = ?, ground_hash = ?, "
    "path = ?, selector = ?, claimed_by = ?, reason = ?, worktree = ?, updated_at = ? "
    "WHERE id = ?"
)
KEEP_VERSION = (
    "INSERT INTO proposal_versions (proposal, n, text, text_hash, derived_from, captured_at) "
    "SELECT id, COALESCE((SELECT MAX(n) FROM proposal_versions WHERE proposal = ?), 0) + 1, "
    "text, text_hash, derived_from, updated_at FROM proposals WHERE id = ?"
)
TRIM_VERSIONS = (
    "DELETE FROM proposal_versions WHERE proposal = ? AND n <= "
    "(SELECT MAX(n) FROM proposal_versions WHERE proposal = ?) - ?"
)
COUNT_VERSIONS = "SELECT COUNT(*) FROM proposal_versions WHERE proposal = ?"
CLOSE = "UPDATE proposals SET status = ?, adopted_as = ?, updated_at = ? WHERE id = ?"
ADOPTED_AS = "UPDATE proposals SET adopted_as = ? WHERE id = ? AND status = 'adopted'"
FORGET_TEXT = "UPDATE proposals SET text = NULL WHERE id = ?"
FORGET_VERSIONS = "DELETE FROM proposal_versions WHERE proposal = ?"


# The script that brings a file of each older version to SCHEMA_VERSION (localdb.migrate).
SCHEMA = {0: _V2 + _V3, 1: _V2 + _V3, 2: _V3}


# Purge (store.purge, called by forest forget): every text kept, by proposal.
SELECT_TEXTS = (
    "SELECT id, status, text FROM proposals WHERE text IS NOT NULL "
    "UNION ALL SELECT proposal, NULL, text FROM proposal_versions"
)
# Expiry (store.expire, called by forest expire): texts last touched before a time.
SELECT_STALE = (
    "SELECT id, status, text_hash FROM proposals WHERE text IS NOT NULL AND updated_at < ?"
)
