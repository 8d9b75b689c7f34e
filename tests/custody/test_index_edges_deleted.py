"""The working tree's index with its edge rows deleted (triggers dropped, ``DELETE
FROM edges``, the table kept, so store/gate.py sees a whole store): no binding
reached its ground, and a drifted section read as "unresolved: its ground is sealed"
while the ledger seals nothing. A binding whose chain the ledger keeps live but the
index reaches no ground of is a disagreement of the index proof (indexproof.py): the
index is rebuilt, said in one line, and every door judges as before the damage."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from forest_files.custody.indexproof import claims_of_ledger
from tests.helpers.cli import console
from tests.helpers.state import local_state
from tests.helpers.watch import EDITED, bound_repo


def _delete_edges(root: Path) -> None:
    conn = sqlite3.connect(local_state(root) / "woods.db")
    try:
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='trigger'")]
        with conn:
            for name in names:
                conn.execute(f"DROP TRIGGER {name}")
            conn.execute("DELETE FROM edges")
    finally:
        conn.close()
    for saved in local_state(root).glob("woods.db.bindmap-*"):
        saved.unlink()  # the index is read, not the map it saved
    for saved in local_state(root).glob("verdict*"):
        saved.unlink()


@pytest.mark.parametrize("door", ["check", "status"])
def test_index_edges_deleted_rebuilt_recovers(tmp_path: Path, door: str) -> None:
    root = bound_repo(tmp_path)
    (root / "a.md").write_text(EDITED, encoding="utf-8")
    assert console(root, "sync").returncode == 0
    _delete_edges(root)
    done = console(root, door)
    assert "sealed" not in done.stdout and "unresolved" not in done.stdout, done.stdout
    assert "drifted" in done.stdout, done.stdout + done.stderr
    (said,) = [line for line in done.stderr.splitlines() if "rebuilt it from the ledger" in line]
    assert "ground" in said, said
    again = console(root, "check", "--json")
    kinds = [f["kind"] for f in json.loads(again.stdout)["findings"]]
    assert kinds == ["drifted"] and "rebuilt" not in again.stderr, again.stderr


def test_claims_name_each_bindings_chain_accepted(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    claims = claims_of_ledger(root / ".forest" / "ledger")
    assert len(claims.entry_of) == 1 and set(claims.entry_of.values()) <= claims.declared.keys()


def test_index_edges_deleted_watcher_judges_drifted_recovers(tmp_path: Path) -> None:
    from tests.helpers.watch import verdicts, wait_verdict, watching

    root = bound_repo(tmp_path)
    (root / "a.md").write_text(EDITED, encoding="utf-8")
    assert console(root, "sync").returncode == 0
    _delete_edges(root)
    with watching(root) as w:
        wait_verdict(w, "drifted")
        assert "unresolved" not in verdicts(w), verdicts(w)
