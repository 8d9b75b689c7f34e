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

import pytest

from forest_files.store.forest import load_schema_sql
from forest_files.store.gate import made_tables
from forest_files.store.localdb import move_aside
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


def _damage(db: Path, how: str) -> None:
    if how == "garbage":
        db.write_bytes(b"garbage, not a database at all")
    else:  # truncated: a copy cut short, the header claiming pages it lacks
        data = db.read_bytes()
        db.write_bytes(data[: len(data) // 2 + 10])


def _pasted(line: str, root: Path) -> None:
    """Run the ``mv`` a refusal names in backquotes, or a warning ends with."""
    fix = line.rpartition("`")[0].rpartition("`")[2] if "`" in line else line.partition(": mv")[2]
    fix = fix if "`" in line else f"mv{fix}"
    assert shlex.split(fix)[0] == "mv", fix
    subprocess.run(fix, shell=True, cwd=root, check=True)


@pytest.mark.parametrize("how", ["garbage", "truncated"])
@pytest.mark.parametrize(("name", "command"), [("local.db", "proposals"), ("audit.db", "audit")])
def test_local_store_not_a_database_refused_with_its_move_aside(
    tmp_path: Path, name: str, command: str, how: str
) -> None:
    """A local.db or audit.db that SQLite calls damaged or no database is refused in one
    line naming the ``mv --`` that moves it (and any journal beside it) aside: it said
    "restore it from a backup or point at the right file", library advice no user can
    follow; pasted, the next command starts a new file."""
    root = bound_repo(tmp_path)
    captured_proposal(root, EDITED)
    db = shared_state(root) / name
    _damage(db, how)
    before = {p.name: p.read_bytes() for p in db.parent.glob(f"{name}*")}
    done = console(root, command)
    assert done.returncode == 3, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(f"forest: {name}") and "damaged" in line, line
    assert "backup" not in line and "point at" not in line and "internal error" not in line
    assert {p.name: p.read_bytes() for p in db.parent.glob(f"{name}*")} == before
    _pasted(line, root)
    assert (db.parent / f"{name}.damaged").read_bytes() == before[name]
    again = console(root, command)
    assert again.returncode == 0, again.stderr


def test_audit_db_not_a_database_gap_names_its_move_aside(tmp_path: Path) -> None:
    """A command that records (here a check finding drift) beside a damaged audit.db
    says the gap once, with the move that ends it, and its own outcome stands."""
    root = bound_repo(tmp_path)
    db = shared_state(root) / "audit.db"
    _damage(db, "garbage")
    (root / "a.md").write_text(EDITED, encoding="utf-8")
    done = console(root, "check")
    assert done.returncode == 1, done.stderr
    (line,) = _warnings(done.stderr)
    assert "audit.db" in line and "backup" not in line, line
    _pasted(line, root)
    again = console(root, "check")
    assert again.returncode == 1 and not _warnings(again.stderr), again.stderr
    assert "drift" in console(root, "audit").stdout


def test_move_aside_takes_the_log_beside_it_accepted(tmp_path: Path) -> None:
    """The move names a ``-wal`` or ``-journal`` left beside the file (a new file meeting
    an old one's log would have it replayed into it), in a folder named with a space."""
    folder = tmp_path / "my repo"
    folder.mkdir()
    db = folder / "local.db"
    for side in ("", "-wal"):
        Path(f"{db}{side}").write_bytes(b"old" + side.encode())
    subprocess.run(move_aside(db), shell=True, cwd=tmp_path, check=True)
    assert sorted(p.name for p in folder.iterdir()) == ["local.db.damaged", "local.db.damaged-wal"]
    assert (folder / "local.db.damaged-wal").read_bytes() == b"old-wal"
