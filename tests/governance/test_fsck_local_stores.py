"""``forest fsck`` compares ``local.db`` and ``audit.db`` with the schema their scripts
make (store/localdb.py ``lacking``), as it compares the index with ``schema.sql``: a
table, index or trigger dropped outside forest-files, a column cut, or a file SQLite
calls damaged is a fault naming that file and the command that fixes it; it said ok
(a folder or garbage at local.db was an integrity fault of woods.db). Each fault's
command, pasted in turn, ends with fsck clean."""

from __future__ import annotations

import json
import shlex
import sqlite3
import subprocess
from contextlib import closing
from pathlib import Path

import pytest

from tests.helpers.cli import console
from tests.helpers.lanes import lanes
from tests.helpers.state import shared_state
from tests.helpers.watch import EDITED, bound_repo, captured_proposal

DAMAGE = {
    "versions-dropped": ("local.db", "DROP TABLE proposal_versions", "proposal_versions"),
    "proposals-dropped": ("local.db", "DROP TABLE proposals", "proposals"),
    "index-dropped": (
        "local.db",
        "DROP INDEX one_open_per_binding_source",
        "one_open_per_binding_source",
    ),
    "column-cut": ("local.db", "ALTER TABLE proposals DROP COLUMN reason", "reason"),
    "audit-dropped": ("audit.db", "DROP TABLE audit", "audit"),
    "audit-trigger-dropped": (
        "audit.db",
        "DROP TRIGGER audit_append_only_delete",
        "audit_append_only_delete",
    ),
    "local-garbage": ("local.db", None, "damaged"),
    "audit-garbage": ("audit.db", None, "damaged"),
}


def _fsck(root: Path) -> dict[str, object]:
    done = console(root, "fsck", "--json")
    assert "internal error" not in done.stderr, done.stderr
    assert done.returncode == (0 if '"ok": true' in done.stdout else 3), done.stderr
    out: dict[str, object] = json.loads(done.stdout)
    return out


def _paste(root: Path, detail: str) -> None:
    fix = detail.rpartition("`")[0].rpartition("`")[2]
    words = shlex.split(fix)
    if words[0] == "forest":
        assert console(root, *words[1:]).returncode == 0
    else:
        assert words[0] == "mv", fix
        subprocess.run(fix, shell=True, cwd=root, check=True)


@pytest.mark.parametrize(
    "damage", lanes(sorted(DAMAGE), fast={"proposals-dropped", "audit-garbage"})
)
def test_fsck_local_store_cut_detected_and_its_fix_recovers(tmp_path: Path, damage: str) -> None:
    root = bound_repo(tmp_path)
    captured_proposal(root, EDITED)
    name, statement, named = DAMAGE[damage]
    db = shared_state(root) / name
    if statement is None:
        db.write_bytes(b"garbage, not a database at all")
    else:
        with closing(sqlite3.connect(db)) as conn:
            conn.execute(statement)
            conn.commit()
    report = _fsck(root)
    faults = report["faults"]
    assert isinstance(faults, list) and faults, report
    mine = [f for f in faults if f["where"].startswith(name)]
    assert mine and all(f["where"].startswith(name) for f in faults), faults
    assert any(named in f["where"] + f["detail"] for f in mine), mine
    assert all("`" in f["detail"] for f in mine), mine  # each names its fix
    done = console(root, "fsck")
    assert "rebuild" not in done.stderr or name == "audit.db", done.stderr
    for _ in range(3):
        _paste(root, faults[0]["detail"])
        report = _fsck(root)
        if report["ok"]:
            break
        faults = report["faults"]
        assert isinstance(faults, list)
    assert report["ok"] is True, report
