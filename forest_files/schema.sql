-- forest-files custody store: the enforced law.
--
-- Table, view and column names of Forest 0.4 are kept (entries, edges,
-- retrieval_log, forest_meta, entries_fts, current_ground, sealed_entries,
-- retrievable_entries) so SQL written against a Forest store reads this one.
-- Extensions are additive: content ids, scopes, supersession chains, the
-- contested view, and a permit-guarded path for a later audited erasure.
--
-- These triggers guard against mistakes and buggy code. They do not guard
-- against someone with write access to the file: such a person can DROP
-- TRIGGER. Authentication and file permissions are the host's job.
--
-- Every statement is idempotent (IF NOT EXISTS / OR IGNORE).
--
-- Cache tables, created outside this file by the ledger's replay and rebuilt
-- from the ledger (forest fsck knows them by this line; keep it one line):
-- cache-tables: ledger_applied ledger_entry_acts ledger_segments ledger_act_paths binding_events

CREATE TABLE IF NOT EXISTS entries (
    id            INTEGER PRIMARY KEY,
    created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    jurisdiction  TEXT NOT NULL CHECK (jurisdiction IN ('home', 'wild')),
    bucket        TEXT NOT NULL CHECK (bucket IN (
                      'pair', 'draft', 'visitor_words', 'note', 'journal',
                      'hearsay', 'synthesis', 'inference', 'question',
                      'internet', 'import', 'anchor',
                      'adoption_record', 'sealing_record', 'unsealing_record')),
    source        TEXT,
    signature     TEXT NOT NULL CHECK (length(trim(signature)) > 0),
    body          TEXT NOT NULL CHECK (length(body) > 0),
    body_hash     TEXT NOT NULL CHECK (
                      length(body_hash) = 64
                      AND body_hash NOT GLOB '*[^0-9a-f]*'),
    meta_json     TEXT NOT NULL DEFAULT '{}',
    -- forest-files extensions (immutable, like every column above)
    content_id    TEXT CHECK (
                      content_id IS NULL
                      OR (length(content_id) = 64 AND content_id NOT GLOB '*[^0-9a-f]*')),
    scope         TEXT NOT NULL DEFAULT 'default' CHECK (length(trim(scope)) > 0),
    nonce         TEXT NOT NULL DEFAULT '',
    chain_root    INTEGER REFERENCES entries(id) ON DELETE RESTRICT
);

CREATE TABLE IF NOT EXISTS edges (
    id          INTEGER PRIMARY KEY,
    from_id     INTEGER NOT NULL REFERENCES entries(id) ON DELETE RESTRICT,
    to_id       INTEGER NOT NULL REFERENCES entries(id) ON DELETE RESTRICT,
    kind        TEXT NOT NULL CHECK (kind IN (
                    'spoken_in', 'responds_to', 'derived_from', 'adopts',
                    'supersedes', 'cites', 'seals', 'unseals', 'asks_about',
                    'feeds', 'answers', 'reopens', 'nests')),
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (from_id, to_id, kind)
);

CREATE TABLE IF NOT EXISTS retrieval_log (
    id                 INTEGER PRIMARY KEY,
    created_at         TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    query              TEXT NOT NULL,
    open_buckets_json  TEXT NOT NULL,
    result_ids_json    TEXT NOT NULL DEFAULT '[]',
    note               TEXT NOT NULL DEFAULT ''
);

CREATE TABLE IF NOT EXISTS forest_meta (
    key    TEXT PRIMARY KEY,
    value  TEXT NOT NULL
);

-- The Forest contract level (Forest's own tests read and rewrite it) and the
-- forest-files schema level (our gate refuses any other value).
INSERT OR IGNORE INTO forest_meta (key, value) VALUES ('schema_version', '0.4.0');
INSERT OR IGNORE INTO forest_meta (key, value) VALUES ('forest_files_schema', '1');

-- One-shot permits for the audited erasure of a body (a later governance
-- act). The erasure inserts a permit and the tombstone in one transaction;
-- without a permit, entries stay append-only.
CREATE TABLE IF NOT EXISTS erasure_permits (
    entry_id  INTEGER PRIMARY KEY REFERENCES entries(id) ON DELETE RESTRICT
);

CREATE TABLE IF NOT EXISTS erasures (
    entry_id    INTEGER PRIMARY KEY REFERENCES entries(id) ON DELETE RESTRICT,
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    signature   TEXT NOT NULL CHECK (length(trim(signature)) > 0),
    reason      TEXT NOT NULL CHECK (length(trim(reason)) > 0)
);

-- Tombstones of erased text: salted fingerprints of its long lines, never the
-- text, each with the erase act that carried it (governance/tombstone.py).
-- Derived from the ledger's erase acts, so a rebuild makes the same rows.
CREATE TABLE IF NOT EXISTS tombstone_lines (
    fingerprint TEXT NOT NULL CHECK (length(fingerprint) = 64),
    act_id      TEXT NOT NULL CHECK (length(act_id) = 64),
    PRIMARY KEY (fingerprint, act_id)
) WITHOUT ROWID;

CREATE INDEX IF NOT EXISTS idx_entries_bucket ON entries(bucket);
CREATE INDEX IF NOT EXISTS idx_entries_jurisdiction ON entries(jurisdiction);
CREATE UNIQUE INDEX IF NOT EXISTS idx_entries_content_id ON entries(content_id);
CREATE INDEX IF NOT EXISTS idx_entries_chain_root ON entries(chain_root);
CREATE INDEX IF NOT EXISTS idx_edges_from ON edges(from_id);
CREATE INDEX IF NOT EXISTS idx_edges_to ON edges(to_id);
CREATE INDEX IF NOT EXISTS idx_edges_to_kind ON edges(to_id, kind);

-- Append-only law.
CREATE TRIGGER IF NOT EXISTS prevent_entry_update
BEFORE UPDATE ON entries
WHEN NOT (
    EXISTS (SELECT 1 FROM erasure_permits p WHERE p.entry_id = OLD.id)
    AND NEW.body = '[erased]'
    AND NEW.id IS OLD.id AND NEW.created_at IS OLD.created_at
    AND NEW.jurisdiction IS OLD.jurisdiction AND NEW.bucket IS OLD.bucket
    AND NEW.source IS OLD.source AND NEW.signature IS OLD.signature
    AND NEW.body_hash IS OLD.body_hash AND NEW.meta_json IS OLD.meta_json
    AND NEW.content_id IS OLD.content_id AND NEW.scope IS OLD.scope
    AND NEW.nonce IS OLD.nonce AND NEW.chain_root IS OLD.chain_root
)
BEGIN
    SELECT RAISE(ABORT, 'entries are append-only; update refused (correct ground by supersession)');
END;

CREATE TRIGGER IF NOT EXISTS prevent_entry_delete
BEFORE DELETE ON entries
BEGIN
    SELECT RAISE(ABORT, 'entries are append-only; delete refused');
END;

CREATE TRIGGER IF NOT EXISTS prevent_edge_update
BEFORE UPDATE ON edges
BEGIN
    SELECT RAISE(ABORT, 'edges are append-only; update refused');
END;

CREATE TRIGGER IF NOT EXISTS prevent_edge_delete
BEFORE DELETE ON edges
BEGIN
    SELECT RAISE(ABORT, 'edges are append-only; delete refused');
END;

CREATE TRIGGER IF NOT EXISTS prevent_erasure_update
BEFORE UPDATE ON erasures
BEGIN
    SELECT RAISE(ABORT, 'erasures are append-only; update refused');
END;

CREATE TRIGGER IF NOT EXISTS prevent_erasure_delete
BEFORE DELETE ON erasures
BEGIN
    SELECT RAISE(ABORT, 'erasures are append-only; delete refused');
END;

-- Seal guards: "latest" is the highest edge id, never created_at.
CREATE TRIGGER IF NOT EXISTS seal_state_guard
BEFORE INSERT ON edges
WHEN NEW.kind = 'seals' AND (
    SELECT kind FROM edges
    WHERE to_id = NEW.to_id AND kind IN ('seals', 'unseals')
    ORDER BY id DESC LIMIT 1
) = 'seals'
BEGIN
    SELECT RAISE(ABORT, 'entry already sealed');
END;

CREATE TRIGGER IF NOT EXISTS unseal_state_guard
BEFORE INSERT ON edges
WHEN NEW.kind = 'unseals' AND COALESCE((
    SELECT kind FROM edges
    WHERE to_id = NEW.to_id AND kind IN ('seals', 'unseals')
    ORDER BY id DESC LIMIT 1
), 'unseals') = 'unseals'
BEGIN
    SELECT RAISE(ABORT, 'entry is not sealed');
END;

-- The FTS shadow: sealed bodies are physically removed from the index.
CREATE VIRTUAL TABLE IF NOT EXISTS entries_fts USING fts5(
    body,
    content = 'entries',
    content_rowid = 'id'
);

CREATE TRIGGER IF NOT EXISTS entries_fts_ai
AFTER INSERT ON entries
BEGIN
    INSERT INTO entries_fts (rowid, body) VALUES (NEW.id, NEW.body);
END;

CREATE TRIGGER IF NOT EXISTS edges_seal_fts
AFTER INSERT ON edges
WHEN NEW.kind = 'seals'
BEGIN
    INSERT INTO entries_fts (entries_fts, rowid, body)
    SELECT 'delete', e.id, e.body FROM entries e WHERE e.id = NEW.to_id;
END;

CREATE TRIGGER IF NOT EXISTS edges_unseal_fts
AFTER INSERT ON edges
WHEN NEW.kind = 'unseals'
BEGIN
    INSERT INTO entries_fts (rowid, body)
    SELECT e.id, e.body FROM entries e WHERE e.id = NEW.to_id;
END;

-- An erased body leaves the index too (unless a seal already took it out).
CREATE TRIGGER IF NOT EXISTS entries_erase_fts
AFTER UPDATE OF body ON entries
WHEN NOT EXISTS (
    SELECT 1 FROM edges s
    WHERE s.to_id = OLD.id AND s.kind IN ('seals', 'unseals')
      AND s.id = (SELECT MAX(id) FROM edges
                  WHERE to_id = OLD.id AND kind IN ('seals', 'unseals'))
      AND s.kind = 'seals'
)
BEGIN
    INSERT INTO entries_fts (entries_fts, rowid, body) VALUES ('delete', OLD.id, OLD.body);
END;

-- Derived status. Nothing here is a writable column.
CREATE VIEW IF NOT EXISTS sealed_entries AS
SELECT e.* FROM entries e
WHERE (
    SELECT s.kind FROM edges s
    WHERE s.to_id = e.id AND s.kind IN ('seals', 'unseals')
    ORDER BY s.id DESC LIMIT 1
) = 'seals';

CREATE VIEW IF NOT EXISTS retrievable_entries AS
SELECT e.* FROM entries e
WHERE e.id NOT IN (SELECT id FROM sealed_entries);

-- Adopted, not superseded, not sealed: a candidate for ground, with the
-- supersession chain it belongs to.
CREATE VIEW IF NOT EXISTS live_heads AS
SELECT e.id AS id, COALESCE(e.chain_root, e.id) AS chain
FROM entries e
WHERE EXISTS (
        SELECT 1 FROM edges a JOIN entries r ON r.id = a.from_id
        WHERE a.to_id = e.id AND a.kind = 'adopts' AND r.bucket = 'adoption_record')
  AND NOT EXISTS (
        SELECT 1 FROM edges s WHERE s.to_id = e.id AND s.kind = 'supersedes')
  AND e.id NOT IN (SELECT id FROM sealed_entries);

-- Two live heads of one chain (two branches superseded the same ground and
-- were merged): both are contested and neither is ground until resolved.
-- (Chains counted once with GROUP BY: a count per head made this, and so
-- current_ground, quadratic in the number of entries.)
CREATE VIEW IF NOT EXISTS contested_entries AS
SELECT e.* FROM entries e
WHERE e.id IN (
    SELECT h.id FROM live_heads h
    WHERE h.chain IN (SELECT chain FROM live_heads GROUP BY chain HAVING COUNT(*) > 1)
);

CREATE VIEW IF NOT EXISTS current_ground AS
SELECT e.* FROM entries e
WHERE e.id IN (SELECT id FROM live_heads)
  AND e.id NOT IN (SELECT id FROM contested_entries);

CREATE VIEW IF NOT EXISTS erased_entries AS
SELECT e.id, e.content_id, e.body_hash, x.created_at AS erased_at, x.signature
FROM entries e JOIN erasures x ON x.entry_id = e.id;

-- Trust, derived from custody (never a column; store/trust.py is the same rule per
-- id, and docs/governance.md explains the order). Best first:
--   ground  current ground: a live adopted head, not contested. A ceremony vouches
--           for it, so it is ground whatever it was derived from;
--   home    attributed text of this store (jurisdiction 'home');
--   wild    jurisdiction 'wild', or a bucket that holds outside words (internet,
--           hearsay, visitor_words) whatever its label says.
-- The ceiling: an entry that is not ground never ranks above its least-trusted
-- source, followed transitively through derived_from, cites, nests and
-- spoken_in edges and stopping at ground (which caps nothing); source_id is the
-- direct source it comes through (a wild one first, then the lowest id). Superseded,
-- sealed and contested entries are not ground: they fall back to the rule.
-- Only "wild" can lower "home", so one walk back from the wild entries finds
-- every capped entry; UNION visits each entry once, so cycles end and the cost
-- is linear in the edges walked.
CREATE VIEW IF NOT EXISTS entry_trust AS
WITH RECURSIVE
    ground(id) AS MATERIALIZED (SELECT id FROM current_ground),
    wild(id) AS (
        SELECT e.id FROM entries e
        WHERE (e.jurisdiction = 'wild' OR e.bucket IN ('internet', 'hearsay', 'visitor_words'))
          AND e.id NOT IN ground
        UNION
        SELECT d.from_id FROM wild w JOIN edges d ON d.to_id = w.id
        WHERE d.kind IN ('derived_from', 'cites', 'nests', 'spoken_in')
          AND d.from_id NOT IN ground
    ),
    capped(id) AS MATERIALIZED (SELECT id FROM wild)
SELECT
    e.id AS id,
    CASE
        WHEN e.id IN ground THEN 'ground'
        WHEN e.id IN capped THEN 'wild'
        ELSE 'home'
    END AS trust,
    CASE
        WHEN e.id IN ground THEN 'rooted'
        WHEN e.jurisdiction = 'wild' THEN 'wild'
        WHEN e.bucket IN ('internet', 'hearsay', 'visitor_words') THEN 'wild-bucket'
        WHEN e.id IN capped THEN 'ceiling'
        ELSE 'home'
    END AS reason,
    CASE
        WHEN e.id IN ground OR e.jurisdiction = 'wild'
             OR e.bucket IN ('internet', 'hearsay', 'visitor_words')
             OR e.id NOT IN capped THEN NULL
        -- "+" keeps the planner from driving this lookup by the capped list (which
        -- would make the view quadratic): one entry's edges, each tested once.
        ELSE (SELECT d.to_id FROM edges d JOIN entries n ON n.id = d.to_id
              WHERE d.from_id = e.id
                AND d.kind IN ('derived_from', 'cites', 'nests', 'spoken_in')
                AND +d.to_id IN capped
              ORDER BY (n.jurisdiction = 'wild'
                        OR n.bucket IN ('internet', 'hearsay', 'visitor_words')) DESC,
                       d.to_id
              LIMIT 1)
    END AS source_id
FROM entries e;
