"""The SQL of the binding events table (custody/bindings.py), in one place.

Stores: the ``binding_events`` table's schema and indexes in the index (a local
table, rebuilt from the ledger: never published, so not in store/schema.sql).
Refuses: nothing. Returns: statements (``events_at`` one for a number of paths).
Test: tests/custody/test_file_custody.py
"""

from __future__ import annotations

TABLE = """
CREATE TABLE IF NOT EXISTS binding_events (
    seq            INTEGER PRIMARY KEY,
    act_id         TEXT NOT NULL,
    bind_act       TEXT NOT NULL,
    kind           TEXT NOT NULL CHECK (kind IN ('bind', 'rebind', 'retire')),
    path           TEXT,
    selector       TEXT,
    excludes_json  TEXT,
    normalisation  TEXT,
    hash_algo      TEXT,
    section_hash   TEXT,
    entry_id       INTEGER,
    by_sig         TEXT NOT NULL,
    at             TEXT NOT NULL
)
"""
INDEXES = (
    "CREATE INDEX IF NOT EXISTS idx_binding_events_path ON binding_events(path)",
    "CREATE INDEX IF NOT EXISTS idx_binding_events_entry ON binding_events(entry_id)",
    "CREATE INDEX IF NOT EXISTS idx_binding_events_bind ON binding_events(bind_act)",
)
INSERT = """
INSERT INTO binding_events (act_id, bind_act, kind, path, selector, excludes_json,
    normalisation, hash_algo, section_hash, entry_id, by_sig, at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
"""
# What a fold reads of each event, in this order (rebind_tips.py reads its rows by name).
EVENT = (
    "seq, act_id, bind_act, kind, path, selector, excludes_json, normalisation, hash_algo, "
    "section_hash, entry_id, by_sig"
)
ALL_EVENTS = f"SELECT {EVENT} FROM binding_events ORDER BY seq"
# Every event of the bindings made for members of one supersession chain.
CHAIN_EVENTS = """
SELECT bind_act, kind, path, act_id FROM binding_events
WHERE entry_id IN (SELECT id FROM entries WHERE id = ? OR chain_root = ?)
ORDER BY seq
"""
# Every event of one binding (a ``bind_act``).
BINDING_EVENTS = f"SELECT {EVENT} FROM binding_events WHERE bind_act = ? ORDER BY seq"


def events_at(count: int) -> str:
    """Every event of the bindings that ever stood at one of ``count`` paths (bound as
    ``?`` parameters, at most SQLite's limit: the caller takes them in chunks)."""
    marks = ",".join("?" * count)
    return (
        f"SELECT {EVENT} FROM binding_events WHERE bind_act IN "
        f"(SELECT bind_act FROM binding_events WHERE path IN ({marks}))"
    )
