"""migrate_to_latest: Forest 0.3.x and 0.4 stores into a new forest-files store.

The 0.4 sources are built with the published ``forest_memory`` 0.4 package;
the 0.3 sources from tests/fixtures/forest_03_schema.sql with raw inserts
(0.3.1 is not installable here, and its shapes are small enough to write).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
from collections.abc import Iterator
from dataclasses import FrozenInstanceError
from pathlib import Path

import forest_memory as fm
import pytest

from forest_files import ForestStore, root_to_ground
from forest_files.kernel.errors import ForeignStore, ForestError, StoreCorruption
from forest_files.kernel.hashing import entry_content_id, hash_body
from forest_files.migrate import MigrationReport, migrate_to_latest

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
ENTRY_COLUMNS = (
    "id, created_at, jurisdiction, bucket, source, signature, body, body_hash, meta_json"
)
WORDS = "I have read this and adopt it as true"


# -- builders -----------------------------------------------------------------
def build_forest04(path: Path) -> dict[str, int]:
    """A real Forest 0.4 store: pairs, a root, a supersede, a seal, a wild entry, a recall."""
    scroll = fm.Scroll(path.parent / "session.scroll")
    with fm.ForestStore(path) as store:
        store.init_schema()
        pair = fm.commit_turn(store, scroll, "what do bees eat", "nectar and pollen")
        pair2 = fm.commit_turn(store, scroll, "and wasps", "mostly insects", previous_pair_id=pair)
        note = store.write(
            body="bees eat nectar",
            bucket="note",
            signature="author",
            origins=[(pair, "derived_from")],
        )
        fm.root_to_ground(
            store,
            entry_id=note,
            adopting_words=WORDS,
            adopting_signature="author",
            expected_body_hash=fm.hash_body("bees eat nectar"),
        )
        newer = store.supersede(
            old_id=note, new_body="bees eat nectar and pollen", adopting_words="this replaces it"
        )
        secret = store.write(
            body="zanzibarsecret plan",
            bucket="draft",
            signature="author",
            origins=[(pair2, "derived_from")],
        )
        store.seal(entry_id=secret, quote="seal this")
        shy = store.write(
            body="quokkaword was hidden once",
            bucket="note",
            signature="author",
            origins=[(pair2, "derived_from")],
        )
        store.seal(entry_id=shy, quote="hide it")
        store.unseal(entry_id=shy, quote="show it again")
        wild = store.write(
            body="a page about hives",
            bucket="internet",
            signature="crawler",
            jurisdiction="wild",
            source="example.org",
            origins=[(pair2, "cites")],
        )
        store.recall_similar("bees")
    return {
        "pair": pair,
        "pair2": pair2,
        "note": note,
        "newer": newer,
        "secret": secret,
        "wild": wild,
        "shy": shy,
    }


def insert_03(
    conn: sqlite3.Connection,
    eid: int,
    forest: str,
    bucket: str,
    sig: str,
    body: str,
    meta: str = "{}",
) -> None:
    conn.execute(
        "INSERT INTO entries (id, created_at, forest, bucket, signature, body, body_hash, "
        "meta_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (
            eid,
            f"2025-03-0{eid % 9 + 1}T10:00:00.000Z",
            forest,
            bucket,
            sig,
            body,
            hash_body(body),
            meta,
        ),
    )


def edge_03(conn: sqlite3.Connection, eid: int, src: int, dst: int, kind: str) -> None:
    conn.execute(
        "INSERT INTO edges (id, from_id, to_id, kind) VALUES (?, ?, ?, ?)", (eid, src, dst, kind)
    )


def build_forest03(path: Path, *, fork: bool = False) -> None:
    """0.3.1's shapes: session pairs, a minted canon with its record, a supersede, a seal."""
    conn = sqlite3.connect(path)
    conn.executescript((FIXTURES / "forest_03_schema.sql").read_text(encoding="utf-8"))
    with conn:
        insert_03(
            conn,
            1,
            "home",
            "session_pair",
            "conversation",
            "USER:\nwhat do bees eat\n\nASSISTANT:\nnectar",
        )
        insert_03(
            conn, 2, "home", "session_pair", "conversation", "USER:\nwasps?", meta='{"turn": 2}'
        )
        edge_03(conn, 1, 2, 1, "responds_to")
        insert_03(conn, 3, "home", "draft", "model", "bees eat nectar, roughly")
        edge_03(conn, 2, 3, 1, "derived_from")
        # adopt(): a minted canon derived from the draft, and a record adopting the canon
        insert_03(conn, 4, "home", "canon", "author", "Bees eat nectar.")
        edge_03(conn, 3, 4, 3, "derived_from")
        insert_03(conn, 5, "home", "adoption_record", "author", "I adopt this")
        edge_03(conn, 4, 5, 4, "adopts")
        # supersede(): a new canon, supersedes, and its adoption record
        insert_03(conn, 6, "home", "canon", "author", "Bees eat nectar and pollen.")
        edge_03(conn, 5, 6, 4, "supersedes")
        insert_03(conn, 7, "home", "adoption_record", "author", "this replaces it")
        edge_03(conn, 6, 7, 6, "adopts")
        insert_03(conn, 8, "wild", "hearsay", "visitor", "someone said wasps eat bees")
        edge_03(conn, 7, 8, 2, "derived_from")
        insert_03(conn, 9, "home", "sealing_record", "author", "seal it")
        edge_03(conn, 8, 9, 8, "seals")
        conn.execute(
            "INSERT INTO retrieval_log (id, created_at, query, open_buckets_json, "
            "result_ids_json) VALUES (1, '2025-03-09T10:00:00.000Z', 'bees', '[]', '[4]')"
        )
        if fork:  # 0.3's supersede had no lock: two writers could both replace canon 4
            insert_03(conn, 10, "home", "canon", "author", "Bees eat pollen.")
            edge_03(conn, 9, 10, 4, "supersedes")
            insert_03(conn, 11, "home", "adoption_record", "author", "no, this replaces it")
            edge_03(conn, 10, 11, 10, "adopts")
    conn.close()


def rows(path: Path, sql: str) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(path)
    try:
        return [tuple(r) for r in conn.execute(sql)]
    finally:
        conn.close()


def id_set(path: Path, view: str) -> set[int]:
    return {int(r[0]) for r in rows(path, f"SELECT id FROM {view}")}


def fingerprint(path: Path) -> tuple[str, int]:
    return hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns


def tamper(source: Path, copy: Path, ids: list[int]) -> None:
    shutil.copyfile(source, copy)
    conn = sqlite3.connect(copy)
    with conn:
        conn.execute("DROP TRIGGER prevent_entry_update")
        for eid in ids:
            conn.execute("UPDATE entries SET body = body || ' (edited)' WHERE id = ?", (eid,))
    conn.close()


@pytest.fixture
def forest04(tmp_path: Path) -> Iterator[tuple[Path, dict[str, int]]]:
    path = tmp_path / "old04.db"
    yield path, build_forest04(path)


@pytest.fixture
def forest03(tmp_path: Path) -> Path:
    path = tmp_path / "old03.db"
    build_forest03(path)
    return path


def leftovers(directory: Path, name: str) -> list[str]:
    return [p.name for p in directory.iterdir() if p.name.startswith((name, f".{name}"))]


# -- Forest 0.4 ---------------------------------------------------------------
def test_migrate_forest04_rows_verbatim_accepted(forest04, tmp_path):
    old, _ = forest04
    new = tmp_path / "new.db"
    report = migrate_to_latest(old, new)
    assert report.source_version == "0.4"
    for table, cols in (
        ("entries", ENTRY_COLUMNS),
        ("edges", "id, from_id, to_id, kind, created_at"),
        ("retrieval_log", "id, created_at, query, open_buckets_json, result_ids_json, note"),
    ):
        sql = f"SELECT {cols} FROM {table} ORDER BY id"
        assert rows(new, sql) == rows(old, sql), table
    assert report.entries == len(rows(old, "SELECT id FROM entries"))
    assert report.edges == len(rows(old, "SELECT id FROM edges"))
    assert report.retrieval_log == 1


def test_migrate_forest04_views_agree_accepted(forest04, tmp_path):
    old, ids = forest04
    new = tmp_path / "new.db"
    report = migrate_to_latest(old, new)
    assert id_set(new, "current_ground") == id_set(old, "current_ground") == {ids["newer"]}
    assert id_set(new, "sealed_entries") == id_set(old, "sealed_entries") == {ids["secret"]}
    assert not any("contested" in n for n in report.notes)
    chain = rows(new, f"SELECT chain_root FROM entries WHERE id = {ids['newer']}")
    assert chain == [(ids["note"],)]
    assert rows(new, f"SELECT chain_root FROM entries WHERE id = {ids['note']}") == [(None,)]


def test_migrate_sealed_entry_fts_removed(forest04, tmp_path):
    old, ids = forest04
    new = tmp_path / "new.db"
    migrate_to_latest(old, new)
    match = "SELECT rowid FROM entries_fts WHERE entries_fts MATCH '{}'"
    assert rows(new, match.format("zanzibarsecret")) == []
    assert rows(new, match.format("hives")) == [(ids["wild"],)]
    assert rows(new, match.format("quokkaword")) == [(ids["shy"],)]


def fts_instances(path: Path) -> set[tuple[object, ...]]:
    """Every (term, rowid) pair the FTS index holds, read from the index itself."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        conn.execute("CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(main, entries_fts, instance)")
        return {tuple(r) for r in conn.execute("SELECT term, doc FROM temp.vocab")}
    finally:
        conn.close()


def test_migrate_fts_index_same_as_source_accepted(forest04, tmp_path):
    old, ids = forest04
    new = tmp_path / "new.db"
    migrate_to_latest(old, new)
    index = fts_instances(new)
    assert index == fts_instances(old)
    assert all(doc != ids["secret"] for _term, doc in index)


def test_migrate_content_ids_recomputable_accepted(forest04, tmp_path):
    old, _ = forest04
    new = tmp_path / "new.db"
    migrate_to_latest(old, new)
    for row in rows(new, f"SELECT {ENTRY_COLUMNS}, content_id, scope, nonce FROM entries"):
        eid, created, jur, bucket, source, sig, _body, bhash, meta, cid, scope, nonce = row
        assert (scope, nonce) == ("default", f"migrated:{eid}")
        assert cid == entry_content_id(
            scope="default",
            created_at=str(created),
            jurisdiction=str(jur),
            bucket=str(bucket),
            source=source if source is None else str(source),
            signature=str(sig),
            body_hash=str(bhash),
            meta=json.loads(str(meta)),
            nonce=f"migrated:{eid}",
            origins=[],
        )


def test_migrate_forest04_opens_and_root_accepted(forest04, tmp_path):
    old, ids = forest04
    new = tmp_path / "new.db"
    migrate_to_latest(old, new)
    with ForestStore(new) as store:
        assert store.is_ground(ids["newer"])
        assert store.is_sealed(ids["secret"])
        row = store.get(ids["wild"])
        assert row is not None
        assert (
            root_to_ground(
                store,
                entry_id=ids["wild"],
                adopting_words=WORDS,
                adopting_signature="author",
                expected_body_hash=str(row["body_hash"]),
            )
            == ids["wild"]
        )
        assert store.is_ground(ids["wild"])
        record = max(int(r[0]) for r in store.conn.execute("SELECT id FROM entries"))
        assert record > ids["wild"]  # new ids continue after the migrated ones
        newest = store.supersede(
            old_id=ids["newer"],
            new_body="bees eat nectar, pollen, honeydew",
            adopting_words="this replaces it again",
        )
        chain = store.conn.execute("SELECT chain_root FROM entries WHERE id = ?", (newest,))
        assert chain.fetchone()[0] == ids["note"]


def test_migrate_report_frozen_accepted(forest04, tmp_path):
    old, _ = forest04
    report = migrate_to_latest(old, tmp_path / "new.db")
    assert isinstance(report, MigrationReport)
    assert isinstance(report.notes, tuple)
    with pytest.raises(FrozenInstanceError):
        report.entries = 0  # type: ignore[misc]


def test_migrate_wal_source_with_open_writer_accepted(tmp_path):
    old = tmp_path / "live.db"
    build_forest04(old)
    writer = fm.ForestStore(old)  # keeps the WAL alive while more turns land in it
    try:
        fm.commit_turn(writer, fm.Scroll(tmp_path / "s2.scroll"), "still writing", "yes")
        assert Path(f"{old}-wal").stat().st_size > 0
        before = fingerprint(old)
        report = migrate_to_latest(old, tmp_path / "new.db")
        assert fingerprint(old) == before
        count = writer.conn.execute("SELECT COUNT(*) FROM entries").fetchone()[0]
        assert report.entries == count
    finally:
        writer.close()


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() == 0,
    reason="needs POSIX permissions that bind the user (root writes anywhere)",
)
def test_migrate_wal_source_in_readonly_dir_accepted(tmp_path):
    backup = tmp_path / "backup"
    backup.mkdir()
    old = backup / "old.db"
    build_forest04(old)
    backup.chmod(0o555)
    try:
        before = sorted(os.listdir(backup))
        report = migrate_to_latest(old, tmp_path / "new.db")
        assert sorted(os.listdir(backup)) == before
    finally:
        backup.chmod(0o755)
    assert report.entries == len(rows(old, "SELECT id FROM entries"))


# -- Forest 0.3 ---------------------------------------------------------------
def test_migrate_forest03_translated_accepted(forest03, tmp_path):
    new = tmp_path / "new.db"
    report = migrate_to_latest(forest03, new)
    assert (report.source_version, report.entries, report.edges, report.retrieval_log) == (
        "0.3",
        9,
        8,
        1,
    )
    old_rows = rows(
        forest03,
        "SELECT id, created_at, forest, bucket, signature, body, "
        "body_hash, meta_json FROM entries ORDER BY id",
    )
    new_rows = rows(
        new,
        "SELECT id, created_at, jurisdiction, bucket, signature, body, "
        "body_hash, meta_json FROM entries ORDER BY id",
    )
    renamed = {"session_pair": "pair", "canon": "note"}
    assert new_rows == [(*r[:3], renamed.get(str(r[3]), r[3]), *r[4:]) for r in old_rows]
    assert rows(new, "SELECT DISTINCT source FROM entries") == [(None,)]
    assert rows(new, "SELECT meta_json FROM entries WHERE id = 2") == [('{"turn": 2}',)]
    notes = " | ".join(report.notes)
    assert "canon entries [4, 6]" in notes and "adoption edges" in notes
    assert "session_pair entries [1, 2]" in notes and "scroll evidence" in notes


def test_migrate_forest03_views_agree_accepted(forest03, tmp_path):
    new = tmp_path / "new.db"
    migrate_to_latest(forest03, new)
    assert id_set(new, "current_ground") == id_set(forest03, "current_ground") == {6}
    assert id_set(new, "sealed_entries") == id_set(forest03, "sealed_entries") == {8}
    assert rows(new, "SELECT chain_root FROM entries WHERE id = 6") == [(4,)]
    assert rows(new, "SELECT rowid FROM entries_fts WHERE entries_fts MATCH 'wasps'") == [(2,)]
    with ForestStore(new) as store:
        assert store.is_ground(6) and not store.is_ground(4)


def test_migrate_forest03_fork_contested_detected(tmp_path):
    old = tmp_path / "fork.db"
    build_forest03(old, fork=True)
    new = tmp_path / "new.db"
    report = migrate_to_latest(old, new)
    assert id_set(old, "current_ground") == {6, 10}
    assert id_set(new, "current_ground") == set()
    assert id_set(new, "contested_entries") == {6, 10}
    assert any("entries [6, 10]" in n and "contested" in n for n in report.notes)


def test_migrate_forward_chain_root_accepted(forest03, tmp_path):
    odd = tmp_path / "forward.db"
    shutil.copyfile(forest03, odd)
    conn = sqlite3.connect(odd)
    with conn:  # a hand-edited trail: entry 3 claims to supersede the later entry 8
        edge_03(conn, 9, 3, 8, "supersedes")
    conn.close()
    new = tmp_path / "new.db"
    migrate_to_latest(odd, new)
    assert rows(new, "SELECT chain_root FROM entries WHERE id = 3") == [(8,)]
    assert id_set(new, "current_ground") == id_set(odd, "current_ground")


def test_migrate_supersede_cycle_accepted(forest03, tmp_path):
    odd = tmp_path / "cycle.db"
    shutil.copyfile(forest03, odd)
    conn = sqlite3.connect(odd)
    with conn:  # 6 already supersedes 4; a hand edit closes the loop
        edge_03(conn, 9, 4, 6, "supersedes")
    conn.close()
    new = tmp_path / "new.db"
    migrate_to_latest(odd, new)
    roots = rows(new, "SELECT id, chain_root FROM entries WHERE id IN (4, 6) ORDER BY id")
    assert roots == [(4, 4), (6, 4)]
    assert id_set(new, "current_ground") == id_set(odd, "current_ground") == set()


def test_migrate_forest02_store_refused(tmp_path):
    old = tmp_path / "v02.db"
    sql = (FIXTURES / "forest_03_schema.sql").read_text(encoding="utf-8")
    conn = sqlite3.connect(old)
    conn.executescript(sql.replace("'asks_about',", ""))
    conn.close()
    with pytest.raises(ForestError, match=r"v0\.2 store"):
        migrate_to_latest(old, tmp_path / "new.db")
    assert not (tmp_path / "new.db").exists()


# -- refusals -----------------------------------------------------------------
def test_migrate_tampered_hash_refused(forest04, tmp_path):
    old, ids = forest04
    bad = tmp_path / "tampered.db"
    tamper(old, bad, [ids["newer"], ids["note"]])
    new = tmp_path / "new.db"
    expected = sorted([ids["note"], ids["newer"]])
    with pytest.raises(
        ForestError, match=rf"does not match body for entries \{expected}.*tampered"
    ):
        migrate_to_latest(bad, new)
    assert not new.exists()
    assert leftovers(tmp_path, "new.db") == []


def test_migrate_tampered_forest03_refused(forest03, tmp_path):
    bad = tmp_path / "tampered03.db"
    tamper(forest03, bad, [4])
    with pytest.raises(ForestError, match=r"entries \[4\]"):
        migrate_to_latest(bad, tmp_path / "new.db")
    assert leftovers(tmp_path, "new.db") == []


def test_migrate_inconsistent_seal_history_refused(forest03, tmp_path):
    bad = tmp_path / "double_seal.db"
    shutil.copyfile(forest03, bad)
    conn = sqlite3.connect(bad)
    with conn:
        conn.execute("DROP TRIGGER seal_state_guard")
        insert_03(conn, 10, "home", "sealing_record", "author", "seal it twice")
        edge_03(conn, 9, 10, 8, "seals")
    conn.close()
    with pytest.raises(ForestError, match=r"edge 9 \(seals 10->8\).*already sealed"):
        migrate_to_latest(bad, tmp_path / "new.db")
    assert leftovers(tmp_path, "new.db") == []


def test_migrate_meta_not_object_refused(forest03, tmp_path):
    bad = tmp_path / "meta.db"
    shutil.copyfile(forest03, bad)
    conn = sqlite3.connect(bad)
    with conn:
        insert_03(conn, 10, "home", "note", "author", "a note", meta="[1, 2]")
    conn.close()
    with pytest.raises(ForestError, match=r"meta_json is not a JSON object for entries \[10\]"):
        migrate_to_latest(bad, tmp_path / "new.db")
    assert leftovers(tmp_path, "new.db") == []


@pytest.mark.parametrize("bucket", ["mystery", "anchor"])
def test_migrate_unknown_bucket_refused(tmp_path, bucket):
    old = tmp_path / "odd03.db"
    sql = (FIXTURES / "forest_03_schema.sql").read_text(encoding="utf-8")
    conn = sqlite3.connect(old)
    conn.executescript(sql.replace("'import')", f"'import', '{bucket}')"))
    with conn:
        insert_03(conn, 1, "home", "session_pair", "conversation", "USER:\nhi")
        insert_03(conn, 2, "home", bucket, "author", "odd one")
    conn.close()
    with pytest.raises(ForestError, match=r"entries \[2\] use a bucket"):
        migrate_to_latest(old, tmp_path / "new.db")
    assert leftovers(tmp_path, "new.db") == []


@pytest.mark.parametrize("content", [b"", b"precious"])
def test_migrate_existing_target_refused(forest04, tmp_path, content):
    old, _ = forest04
    new = tmp_path / "new.db"
    new.write_bytes(content)
    before = fingerprint(new)
    with pytest.raises(ForestError, match="refusing to overwrite existing file"):
        migrate_to_latest(old, new)
    assert fingerprint(new) == before
    assert leftovers(tmp_path, "new.db") == ["new.db"]


def test_migrate_leftover_target_journal_refused(forest04, tmp_path):
    old, _ = forest04
    new = tmp_path / "new.db"
    Path(f"{new}-wal").write_bytes(b"stale")
    with pytest.raises(ForestError, match=r"refusing to overwrite existing file: .*new\.db-wal"):
        migrate_to_latest(old, new)
    assert not new.exists()


def test_migrate_source_as_target_refused(forest04):
    old, _ = forest04
    before = fingerprint(old)
    with pytest.raises(ForestError, match="refusing to overwrite"):
        migrate_to_latest(old, old)
    assert fingerprint(old) == before


def test_migrate_source_bytes_unchanged(forest04, forest03, tmp_path):
    for n, (old, _) in enumerate([forest04, (forest03, None)]):
        before = fingerprint(old)
        migrate_to_latest(old, tmp_path / f"new{n}.db")
        assert fingerprint(old) == before


def test_migrate_unusual_path_characters_accepted(tmp_path):
    odd = tmp_path / "we?ird #dir %20"
    odd.mkdir()
    old = odd / "old ?#%.db"
    build_forest03(old)
    report = migrate_to_latest(old, odd / "new #1?.db")
    assert report.entries == 9


def test_migrate_missing_target_dir_refused(forest03, tmp_path):
    with pytest.raises(ForestError, match="target directory does not exist"):
        migrate_to_latest(forest03, tmp_path / "nowhere" / "new.db")


def test_migrate_non_forest_db_refused(tmp_path):
    old = tmp_path / "other.db"
    conn = sqlite3.connect(old)
    conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
    conn.close()
    with pytest.raises(ForeignStore, match=r"not a Forest store.*tables: notes"):
        migrate_to_latest(old, tmp_path / "new.db")
    assert leftovers(tmp_path, "new.db") == []


def test_migrate_non_sqlite_file_refused(tmp_path):
    old = tmp_path / "notes.txt"
    old.write_text("just some text, long enough to not be a database header at all\n" * 20)
    with pytest.raises(StoreCorruption):
        migrate_to_latest(old, tmp_path / "new.db")
    assert leftovers(tmp_path, "new.db") == []


def test_migrate_missing_source_refused(tmp_path):
    with pytest.raises(ForestError, match="source store not found"):
        migrate_to_latest(tmp_path / "absent.db", tmp_path / "new.db")
    assert not (tmp_path / "absent.db").exists()


def test_migrate_forest_files_store_refused(tmp_path):
    old = tmp_path / "ours.db"
    with ForestStore(old) as store:
        store.init_schema()
    with pytest.raises(ForestError, match="already a forest-files store; nothing to migrate"):
        migrate_to_latest(old, tmp_path / "new.db")
    assert leftovers(tmp_path, "new.db") == []


def test_migrate_migrated_store_refused(forest03, tmp_path):
    first = tmp_path / "first.db"
    migrate_to_latest(forest03, first)
    with pytest.raises(ForestError, match="already a forest-files store"):
        migrate_to_latest(first, tmp_path / "second.db")


def test_migrate_unknown_forest_version_refused(forest04, tmp_path):
    old, _ = forest04
    odd = tmp_path / "v05.db"
    shutil.copyfile(old, odd)
    conn = sqlite3.connect(odd)
    with conn:
        conn.execute("UPDATE forest_meta SET value = '0.5.0' WHERE key = 'schema_version'")
    conn.close()
    with pytest.raises(ForestError, match=r"schema_version='0\.5\.0'"):
        migrate_to_latest(odd, tmp_path / "new.db")


def test_migrate_entries_without_forest_columns_refused(tmp_path):
    old = tmp_path / "odd.db"
    conn = sqlite3.connect(old)
    conn.execute("CREATE TABLE entries (id INTEGER PRIMARY KEY, body TEXT)")
    conn.execute("CREATE TABLE edges (id INTEGER PRIMARY KEY)")
    conn.execute("CREATE TABLE retrieval_log (id INTEGER PRIMARY KEY)")
    conn.close()
    with pytest.raises(ForestError, match="neither a jurisdiction nor a forest column"):
        migrate_to_latest(old, tmp_path / "new.db")


def test_migrate_interrupted_run_leaves_no_target(forest04, tmp_path, monkeypatch):
    old, _ = forest04
    # The copy (store/migrate_copy.py) compares the views last, inside the run.
    import forest_files.store.migrate_copy as migrate_copy

    def boom(*_args: object) -> list[str]:
        raise RuntimeError("power cut")

    monkeypatch.setattr(migrate_copy, "compare_views", boom)
    with pytest.raises(RuntimeError, match="power cut"):
        migrate_to_latest(old, tmp_path / "new.db")
    assert leftovers(tmp_path, "new.db") == []
    assert os.listdir(tmp_path).count("new.db") == 0
