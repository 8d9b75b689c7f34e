"""Every SQL statement the store runs, in one place.

Stores: nothing (statements only).
Refuses: nothing.
Returns: SQL text. Status questions are targeted per id (index lookups), so
the cost of a root or a supersede never grows with the size of the store; the
views in schema.sql give the same answers for raw-SQL readers
(tests/store/test_store_props.py checks they agree).
Test: tests/store/test_store_props.py, tests/store/test_scopes.py

Scopes: the views in schema.sql are scope-agnostic (raw-SQL readers see every
scope); every statement here that lists or searches entries filters on the
store's scope, and every lookup by id returns the row's ``scope`` so the store
can refuse another scope's id without a second query.
"""

from __future__ import annotations

INSERT_ENTRY = """
INSERT INTO entries (created_at, jurisdiction, bucket, source, signature, body, body_hash,
                     meta_json, content_id, scope, nonce, chain_root)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
"""

INSERT_EDGE = """
INSERT INTO edges (from_id, to_id, kind, created_at) VALUES (?, ?, ?, ?)
ON CONFLICT (from_id, to_id, kind) DO NOTHING
"""

GET_ENTRY = "SELECT * FROM entries WHERE id = ?"
ENTRY_EXISTS = "SELECT 1 FROM entries WHERE id = ?"
ENTRY_SCOPE = "SELECT scope FROM entries WHERE id = ?"
CONTENT_ID_OF = "SELECT content_id, scope FROM entries WHERE id = ?"
CONTENT_IDS = "SELECT id, content_id, scope FROM entries WHERE id IN ({marks})"
ID_FOR_CONTENT = "SELECT id, scope FROM entries WHERE content_id = ?"
# A short id: every content id of the scope in [prefix, prefix + "g"), by the
# content id index.
CONTENT_IDS_FROM = (
    "SELECT content_id FROM entries WHERE content_id >= ? AND content_id < ? "
    "AND scope = ? ORDER BY content_id LIMIT ?"
)
ANY_CONTENT_ID_FROM = "SELECT 1 FROM entries WHERE content_id >= ? AND content_id < ? LIMIT 1"

IS_ADOPTED = """
SELECT 1 FROM edges a JOIN entries r ON r.id = a.from_id
WHERE a.to_id = ? AND a.kind = 'adopts' AND r.bucket = 'adoption_record' LIMIT 1
"""
IS_SUPERSEDED = "SELECT 1 FROM edges WHERE to_id = ? AND kind = 'supersedes' LIMIT 1"
LATEST_SEAL_KIND = """
SELECT kind FROM edges WHERE to_id = ? AND kind IN ('seals', 'unseals')
ORDER BY id DESC LIMIT 1
"""
# Adopted, not superseded, and not sealed now: IS_ADOPTED, IS_SUPERSEDED and
# LATEST_SEAL_KIND in one statement (status checks run it for every chain member).
IS_LIVE_HEAD = """
SELECT EXISTS (
    SELECT 1 FROM edges a JOIN entries r ON r.id = a.from_id
    WHERE a.to_id = :entry AND a.kind = 'adopts' AND r.bucket = 'adoption_record'
) AND NOT EXISTS (
    SELECT 1 FROM edges WHERE to_id = :entry AND kind = 'supersedes'
) AND COALESCE((
    SELECT kind FROM edges WHERE to_id = :entry AND kind IN ('seals', 'unseals')
    ORDER BY id DESC LIMIT 1
), '') != 'seals'
"""
CHAIN_OF = "SELECT COALESCE(chain_root, id) FROM entries WHERE id = ?"
CHAIN_MEMBERS = "SELECT id FROM entries WHERE (id = ? OR chain_root = ?) AND scope = ?"
LATEST_ADOPTION = """
SELECT r.* FROM edges a JOIN entries r ON r.id = a.from_id
WHERE a.to_id = ? AND a.kind = 'adopts' AND r.bucket = 'adoption_record' AND r.scope = ?
ORDER BY a.id DESC LIMIT 1
"""
# The latest adoption record of a content id: who adopted it, with which words
# (the doors name them beside a finding; read from a view or the index).
# Who adopted each of many content ids (``{marks}``: one ``?`` each, so the
# content-id index is used): every adoption, oldest first, with its record's content id
# (held to the record the ledger declares: custody/adoptions.py).
# ``+r.bucket``: no index on the bucket, so the planner starts from the named content
# ids (their index) instead of scanning every adoption record once per query.
# The body hash of each of a few entries, by content id (a contest's heads).
BODY_HASHES_OF_CONTENTS = "SELECT content_id, body_hash FROM entries WHERE content_id IN ({marks})"
ADOPTIONS_OF_CONTENTS = """
SELECT e.content_id, r.signature, r.body, r.content_id FROM entries e
JOIN edges a ON a.to_id = e.id AND a.kind = 'adopts'
JOIN entries r ON r.id = a.from_id AND +r.bucket = 'adoption_record'
WHERE e.content_id IN ({marks}) ORDER BY a.id
"""
# The file of a connection's main database ('' in memory), as bytes: a folder whose name
# is not UTF-8 is no text SQLite's driver can decode.
MAIN_FILE = "SELECT CAST(file AS BLOB) FROM pragma_database_list WHERE name = 'main'"
OUTGOING_EDGES = """
SELECT e.kind AS edge_kind, n.* FROM edges e JOIN entries n ON n.id = e.to_id
WHERE e.from_id = ? AND n.scope = ? ORDER BY e.id
"""
EDGES_TOUCHING = """
SELECT from_id, to_id, kind FROM edges
WHERE (from_id = ? OR to_id = ?) AND kind NOT IN ('adopts', 'supersedes', 'seals', 'unseals')
"""
EDGE_BETWEEN = """
SELECT 1 FROM edges
WHERE ((from_id = ? AND to_id = ?) OR (from_id = ? AND to_id = ?))
  AND kind NOT IN ('adopts', 'supersedes', 'seals', 'unseals')
LIMIT 1
"""
PARENT_VIA = """
SELECT to_id FROM edges WHERE from_id = ? AND kind = ? ORDER BY id LIMIT 1
"""
EXISTING_NEST = """
SELECT e.id FROM edges n JOIN entries e ON e.id = n.from_id
WHERE n.to_id = ? AND n.kind = 'nests' AND e.body = ?
  AND json_extract(e.meta_json, '$.start') = ? AND json_extract(e.meta_json, '$.end') = ?
  AND e.scope = ?
ORDER BY e.id LIMIT 1
"""

# Recall ranks in two steps: the FTS index alone gives its best-ranked rowids
# (SQLite keeps only the top LIMIT while it ranks), then only those candidates
# are joined and filtered. Same answer as one joined query, without the join and
# the seal look-up for every match of a common word.
RECALL_RANKED = """
SELECT rowid FROM entries_fts WHERE entries_fts MATCH ? ORDER BY rank, rowid LIMIT ? OFFSET ?
"""
RECALL_KEEP = """
SELECT e.id, e.jurisdiction, e.body, e.bucket, e.signature
FROM entries e
WHERE e.id IN ({marks})
  AND COALESCE((SELECT s.kind FROM edges s
                WHERE s.to_id = e.id AND s.kind IN ('seals', 'unseals')
                ORDER BY s.id DESC LIMIT 1), '') != 'seals'
  AND e.scope = ? {clauses}
"""
LOG_RETRIEVAL = """
INSERT INTO retrieval_log (created_at, query, open_buckets_json, result_ids_json, note)
VALUES (?, ?, ?, ?, ?)
"""

QUESTIONS_NEAR = """
SELECT DISTINCT q.id FROM edges x JOIN entries q ON q.id = x.{question_side}
WHERE x.kind = ? AND x.{near_side} IN ({marks}) AND q.bucket = 'question' AND q.scope = ?
"""
RIPENESS = "SELECT COUNT(*) FROM edges WHERE to_id = ? AND kind = 'feeds'"
NEXT_TO = """
SELECT x.to_id AS near FROM edges x JOIN entries n ON n.id = x.to_id
WHERE x.from_id = :question AND x.kind = 'asks_about' AND n.scope = :scope
UNION SELECT x.from_id AS near FROM edges x JOIN entries n ON n.id = x.from_id
WHERE x.to_id = :question AND x.kind = 'feeds' AND n.scope = :scope
"""
LATEST_ANSWER_KIND = """
SELECT kind FROM edges WHERE to_id = ? AND kind IN ('answers', 'reopens')
ORDER BY id DESC LIMIT 1
"""

# Deferred full-text indexing (``WriteMixin.deferred_text_index``): one FTS5
# insert for a batch of new entries instead of one trigger run per entry.
FTS_INSERT_TRIGGER = "entries_fts_ai"
TRIGGER_SQL = "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?"
DROP_FTS_INSERT_TRIGGER = f"DROP TRIGGER {FTS_INSERT_TRIGGER}"
MAX_ENTRY_ID = "SELECT COALESCE(MAX(id), 0) FROM entries"
MAX_EDGE_ID = "SELECT COALESCE(MAX(id), 0) FROM edges"
NEW_ENTRY_STATUS_CHANGED = """
SELECT 1 FROM edges WHERE id > :edges AND kind IN ('seals', 'unseals') AND to_id > :entries
UNION ALL
SELECT 1 FROM entries WHERE id > :entries AND body = '[erased]'
LIMIT 1
"""
INDEX_ENTRIES_SINCE = """
INSERT INTO entries_fts (rowid, body) SELECT id, body FROM entries WHERE id > ?
"""
# A store no one searches (a custody view, custody/viewbuild.py) keeps no full-text
# index: its triggers and the table go, so a search there fails loudly, never empty.
DROP_TEXT_INDEX = """
DROP TRIGGER IF EXISTS entries_fts_ai;
DROP TRIGGER IF EXISTS edges_seal_fts;
DROP TRIGGER IF EXISTS edges_unseal_fts;
DROP TRIGGER IF EXISTS entries_erase_fts;
DROP TABLE IF EXISTS entries_fts;
"""

# Bulk import-and-root (bulk.py): explicit ids, taken under the write lock.
INSERT_ENTRY_WITH_ID = """
INSERT INTO entries (id, created_at, jurisdiction, bucket, source, signature, body, body_hash,
                     meta_json, content_id, scope, nonce, chain_root)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
"""
ROOTED_IMPORTS_FROM = """
SELECT COUNT(*) FROM entries e
WHERE e.id >= ? AND e.bucket = 'import'
  AND EXISTS (
      SELECT 1 FROM edges a JOIN entries r ON r.id = a.from_id
      WHERE a.to_id = e.id AND a.kind = 'adopts' AND r.bucket = 'adoption_record')
  AND NOT EXISTS (
      SELECT 1 FROM edges s WHERE s.to_id = e.id AND s.kind IN ('supersedes', 'seals'))
"""

# Tombstones (custody/tombstone.py): fingerprints of erased lines, by erase act.
INSERT_TOMBSTONE_LINE = "INSERT OR IGNORE INTO tombstone_lines (fingerprint, act_id) VALUES (?, ?)"
ALL_TOMBSTONE_LINES = "SELECT fingerprint, act_id FROM tombstone_lines"
TOMBSTONE_ACTS = "SELECT DISTINCT act_id FROM tombstone_lines ORDER BY act_id"
ERASED_BODY_HASHES = (
    "SELECT DISTINCT e.body_hash FROM erasures x JOIN entries e ON e.id = x.entry_id "
    "ORDER BY e.body_hash"
)
LIVE_GROUND_BODIES = "SELECT body FROM current_ground UNION SELECT body FROM contested_entries"

# Listings of a status view (ledger/views.py), of the store's scope only.
LIST_VIEW = (
    "SELECT id, content_id, body_hash, signature, created_at FROM {view} "
    "WHERE bucket != 'anchor' AND scope = ? ORDER BY content_id"
)

# Trust (store/trust.py; the entry_trust view is the same rule for raw-SQL readers).
# The edges whose target an entry's text is taken from, with what the target is.
TRUST_SOURCES = """
SELECT d.to_id, n.jurisdiction, n.bucket FROM edges d JOIN entries n ON n.id = d.to_id
WHERE d.from_id = ? AND d.kind IN ('derived_from', 'cites', 'nests', 'spoken_in')
ORDER BY d.to_id
"""
