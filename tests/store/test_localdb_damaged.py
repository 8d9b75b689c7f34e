"""A local store (``local.db``, ``audit.db``) whose schema was cut outside forest-files:
a dropped table is made again, empty, said in one warning line, and every proposal
and audit record still there is kept; a dropped column is refused in one ``forest:``
line whose command, pasted, lets the next command start a new file. Never a crash
log, never library advice (``init_schema()``)."""

from __future__ import annotations

import shlex
import sqlite3
import subprocess
from contextlib import closing
from pathlib import Path

from forest_files.store.forest import load_schema_sql
from forest_files.store.gate import made_tables
from tests.helpers.cli import console
from tests.helpers.custody import BY
from tests.helpers.state import shared_state
from tests.helpers.watch import EDITED, bound_repo, captured_proposal


def _cut(db: Path, statement: str) -> None:
    conn = sqlite3.connect(db)
    try:
        conn.execute(statement)
        conn.commit()
    finally:
        conn.close()


def _warnings(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("forest: warning:")]


def test_local_db_versions_table_dropped_show_and_adopt_recovers(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    pid = captured_proposal(root, EDITED)
    _cut(shared_state(root) / "local.db", "DROP TABLE proposal_versions")
    shown = console(root, "proposal", "show", pid)
    assert shown.returncode == 0, shown.stderr
    assert "edited" in shown.stdout and "internal error" not in shown.stderr
    (line,) = _warnings(shown.stderr)
    assert "local.db" in line and "proposal_versions" in line and "init_schema" not in line
    again = console(root, "proposal", "show", pid)  # made again: said once
    assert again.returncode == 0 and not _warnings(again.stderr), again.stderr
    done = console(root, "proposal", "adopt", pid, "--words", "fine", "--as", BY)
    assert done.returncode == 0, done.stderr
    assert "edited words" in (root / "a.md").read_text(encoding="utf-8")


def test_local_db_proposals_table_dropped_list_recovers(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    captured_proposal(root, EDITED)
    _cut(shared_state(root) / "local.db", "DROP TABLE proposals")
    for args in (("proposals",), ("watch", "status")):
        done = console(root, *args)
        assert done.returncode == 0, done.stderr
        assert "internal error" not in done.stderr
    assert "0 open proposal(s)" in console(root, "proposals").stdout


def test_audit_table_dropped_audit_recovers(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    _cut(shared_state(root) / "audit.db", "DROP TABLE audit")
    shown = console(root, "audit")
    assert shown.returncode == 0, shown.stderr
    (line,) = _warnings(shown.stderr)
    assert "audit.db" in line and "audit" in line and "init_schema" not in line
    assert console(root, "check").returncode == 0
    assert "drift" not in console(root, "audit").stderr


def test_local_db_column_dropped_refused(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    pid = captured_proposal(root, EDITED)
    db = shared_state(root) / "local.db"
    _cut(db, "ALTER TABLE proposals DROP COLUMN reason")
    before = db.read_bytes()
    done = console(root, "proposal", "show", pid)
    assert done.returncode == 3, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("forest: ") and "local.db" in line and "reason" in line, line
    assert "init_schema" not in line and "internal error" not in line
    assert db.read_bytes() == before
    fix = line.rpartition("`")[0].rpartition("`")[2]
    assert shlex.split(fix)[0] == "mv", fix
    subprocess.run(fix, shell=True, cwd=root, check=True)
    listed = console(root, "proposals")
    assert listed.returncode == 0 and "0 open proposal(s)" in listed.stdout, listed.stderr


def test_made_tables_read_from_the_text_are_the_ones_the_script_makes_accepted() -> None:
    """store/gate.py reads the tables schema.sql makes from its text (every door that
    opens the index pays it); run, the script makes exactly those (full-text shadow
    tables aside), so a table written another way would not be missed."""
    made, cache = made_tables()
    with closing(sqlite3.connect(":memory:")) as ref:
        ref.executescript(load_schema_sql())
        run = {
            str(r[0])
            for r in ref.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            if not str(r[0]).startswith(("sqlite_", "entries_fts_"))
        }
    assert made == run and {"entries", "edges", "forest_meta", "entries_fts"} <= made
    assert cache and not cache & made
