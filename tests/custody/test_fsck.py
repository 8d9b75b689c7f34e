"""``forest fsck``: a clean repository passes; a dropped trigger, a forged body, a
lost act, an extra table or a damaged file is a body-free fault and exit 3."""

from __future__ import annotations

import json
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from typer.testing import CliRunner

import forest_files.doors.cli  # noqa: F401  (registers every command)
from forest_files.custody.repository import Repository
from forest_files.doors.cli import app
from forest_files.governance.forget import forget
from forest_files.governance.fsck import fsck
from forest_files.ledger.segment_files import segment_paths
from forest_files.store.forest import load_schema_sql
from forest_files.store.gate import cache_tables
from tests.helpers.forgetting import BY, SENTINEL, WORDS, adopted_then_cleaned
from tests.helpers.state import local_state, shared_state

runner = CliRunner()


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root, old = adopted_then_cleaned(tmp_path)
    with Repository(root) as repo:
        forget(repo, old, words=WORDS, by=BY)
    return root


def codes(root: Path) -> list[str]:
    return [f.code for f in fsck(root, "p").faults]


def raw(root: Path, sql: str) -> None:
    with closing(sqlite3.connect(local_state(root) / "woods.db")) as conn:
        conn.executescript(sql)


def cli(root: Path) -> tuple[int, str]:
    result = runner.invoke(app, ["fsck", "--json", "--repo", str(root)])
    assert SENTINEL not in result.output + result.stderr
    return result.exit_code, result.output


def test_fsck_clean_repository_accepted(root: Path) -> None:
    assert codes(root) == []
    code, out = cli(root)
    assert code == 0 and json.loads(out)["ok"] is True


def test_fsck_dropped_trigger_detected(root: Path) -> None:
    raw(root, "DROP TRIGGER prevent_entry_update;")
    assert codes(root) == ["schema-missing"]
    code, out = cli(root)
    assert code == 3 and "prevent_entry_update" in out


def test_fsck_edited_trigger_detected(root: Path) -> None:
    raw(
        root,
        "DROP TRIGGER prevent_erasure_delete; CREATE TRIGGER prevent_erasure_delete "
        "BEFORE DELETE ON erasures BEGIN SELECT 1; END;",
    )
    assert codes(root) == ["schema-differs"]


def test_fsck_extra_table_detected(root: Path) -> None:
    raw(root, "CREATE TABLE smuggled (x TEXT);")
    assert codes(root) == ["schema-extra"]


def test_fsck_forged_body_detected(root: Path) -> None:
    raw(
        root,
        "DROP TRIGGER prevent_entry_update; "
        "UPDATE entries SET body = 'forged words' WHERE id = (SELECT MAX(id) FROM entries);",
    )
    assert sorted(codes(root)) == ["body-hash", "schema-missing"]


def test_fsck_act_missing_from_index_detected(root: Path) -> None:
    raw(root, "DELETE FROM ledger_applied WHERE rowid = (SELECT MAX(rowid) FROM ledger_applied);")
    assert codes(root) == ["not-applied"]


def test_fsck_act_missing_from_ledger_detected(root: Path) -> None:
    newest = max(segment_paths(root / ".forest/ledger"), key=lambda p: p.stat().st_mtime_ns)
    shutil.move(newest, root / "kept.jsonl")
    assert "not-in-ledger" in codes(root)


def test_fsck_tombstone_rows_lost_detected(root: Path) -> None:
    raw(root, "DELETE FROM tombstone_lines;")
    assert codes(root) == ["tombstone"]


def test_fsck_audit_trigger_dropped_detected(root: Path) -> None:
    with closing(sqlite3.connect(shared_state(root) / "audit.db")) as conn:
        conn.execute("DROP TRIGGER audit_append_only_delete")
    assert codes(root) == ["schema-missing"]


def test_fsck_damaged_index_file_detected(root: Path) -> None:
    path = local_state(root) / "woods.db"
    with Repository(root):
        pass
    data = bytearray(path.read_bytes())
    data[100:4096] = b"\x00" * (4096 - 100)  # the first page: sqlite_master
    path.write_bytes(bytes(data))
    code, _out = cli(root)
    assert code == 3


def test_fsck_rebuild_repairs_accepted(root: Path) -> None:
    raw(root, "DROP TRIGGER prevent_entry_update;")
    with Repository(root) as repo:
        repo.rebuild()
    assert codes(root) == []


def test_fsck_cache_tables_listed_in_schema_accepted(root: Path) -> None:
    listed = cache_tables(load_schema_sql())
    with closing(sqlite3.connect(local_state(root) / "woods.db")) as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    with closing(sqlite3.connect(":memory:")) as ref:
        ref.executescript(load_schema_sql())
        declared = {
            r[0] for r in ref.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
    outside = {t for t in tables - declared if not t.startswith(("sqlite_", "entries_fts_"))}
    assert outside == listed


@pytest.mark.parametrize("damage", ["first-page", "not-sqlite"])
def test_rebuild_damaged_index_file_repairs_recovers(root: Path, damage: str) -> None:
    """``forest rebuild`` repairs what ``forest fsck`` reports: an index too damaged to
    open is dropped and replayed, exit 0, and fsck is clean afterwards."""
    path = local_state(root) / "woods.db"
    with Repository(root):
        pass
    if damage == "first-page":
        data = bytearray(path.read_bytes())
        data[100:4096] = b"\x00" * (4096 - 100)
        path.write_bytes(bytes(data))
    else:
        path.write_bytes(b"garbage, not a database at all")
    assert cli(root)[0] == 3
    result = runner.invoke(app, ["rebuild", "--repo", str(root)])
    assert result.exit_code == 0, result.output + result.stderr
    assert "dropped it, rebuilding from the ledger" in result.stderr
    assert codes(root) == []
    assert not list(path.parent.glob("woods.db.*damaged*"))


@pytest.mark.parametrize("command", ["adopt", "sync", "check"])
def test_damaged_index_file_any_command_rebuilds_recovers(root: Path, command: str) -> None:
    """Every command that opens the index drops one too damaged to open and rebuilds it
    from the ledger, saying so in one line (it said "point ForestStore at a store
    file", which no user can do); fsck is clean afterwards."""
    path = local_state(root) / "woods.db"
    with Repository(root):
        pass
    path.write_bytes(b"garbage, not a database at all")
    (root / "o.md").write_text("# O\n\nO.\n", encoding="utf-8")
    args = {"adopt": ["adopt", "o.md", "--words", "w"], "sync": ["sync"], "check": ["check"]}
    result = runner.invoke(app, [*args[command], "--repo", str(root)])
    assert result.exit_code == 0, result.output + result.stderr
    line = result.stderr.splitlines()[0]
    assert line.endswith("dropped it, rebuilding from the ledger"), result.stderr
    assert "ForestStore" not in line
    assert codes(root) == []


def test_fsck_leaves_no_wal_or_shm_beside_the_stores_accepted(root: Path) -> None:
    """fsck reads the index, local.db and audit.db read-only; SQLite makes a reader's
    -wal and -shm, and fsck removes those it made (they stayed behind)."""
    folders = {local_state(root), shared_state(root)}
    assert [p for folder in folders for p in folder.glob("*.db-*")] == []
    dbs = sorted(p for folder in folders for p in folder.glob("*.db"))
    assert {p.name for p in dbs} >= {"woods.db", "audit.db"}
    before = {p: p.read_bytes() for p in dbs}
    code, _out = cli(root)
    assert code == 0
    left = sorted(p.name for folder in folders for p in folder.glob("*.db-*"))
    assert left == []
    assert {p: p.read_bytes() for p in dbs} == before


def _edges_deleted_triggers_back(root: Path) -> None:
    """Every edge row deleted with the triggers dropped, then the triggers put back as
    schema.sql makes them: the schema, the bodies and the ledger tables all pass."""
    with closing(sqlite3.connect(local_state(root) / "woods.db")) as conn:
        triggers = conn.execute("SELECT name, sql FROM sqlite_master WHERE type='trigger'")
        saved = triggers.fetchall()
        with conn:
            for name, _sql in saved:
                conn.execute(f"DROP TRIGGER {name}")
            conn.execute("DELETE FROM edges")
            for _name, sql in saved:
                conn.execute(sql)


def test_fsck_edges_deleted_triggers_back_detected(root: Path) -> None:
    """The index proof every door runs (custody/indexproof.py) rebuilds this index;
    fsck reports what it finds, with `forest rebuild` as its fix, in text and JSON."""
    _edges_deleted_triggers_back(root)
    before = {p.name: p.read_bytes() for p in local_state(root).glob("woods.db*")}
    assert codes(root) == ["index-proof"]
    done = runner.invoke(app, ["fsck", "--json", "--repo", str(root)])
    (fault,) = json.loads(done.stdout)["faults"]
    assert done.exit_code == 3 and fault["code"] == "index-proof", done.stdout
    assert fault["fix"] == "forest rebuild" and "ledger" in fault["detail"], fault
    text = runner.invoke(app, ["fsck", "--repo", str(root)])
    assert text.exit_code == 3 and "index-proof: " in text.output, text.output
    assert "`forest rebuild`" in text.stderr, text.stderr
    assert {p.name: p.read_bytes() for p in local_state(root).glob("woods.db*")} == before
    with Repository(root) as repo:
        repo.rebuild()
    assert codes(root) == []


def test_fsck_binding_table_dropped_detected(root: Path) -> None:
    """The binding table is a cache table (schema.sql lists it): dropped, fsck judges
    the index as holding no binding, as a door that makes it again does, and the
    ledger's binding is one the index lacks."""
    raw(root, "DROP TABLE binding_events;")
    found = fsck(root, "p").faults
    assert [f.code for f in found] == ["index-proof"]
    assert "in the ledger, not in the index" in found[0].detail
