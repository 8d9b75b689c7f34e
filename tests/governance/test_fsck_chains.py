"""``forest fsck`` proves every binding's chain, as ``forest log TARGET`` proves the one
it shows (custody/chainproof.py): a forged ``seals`` edge row on a superseded entry, or a
middle entry's ``chain_root`` cleared, moves no ground, so the index proof of a check
passes it, and fsck said ok while the log door rebuilt the index. fsck names it now
(``index-proof``, exit 3, ``forest rebuild`` its fix), and after the rebuild says ok."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.doors.test_log_chain_rows import superseded_twice
from tests.helpers.cli import forest, ok
from tests.helpers.state import behind_the_triggers

# The chain's first entry (adopted, superseded) and its middle one (superseded)
_FIRST = "id = (SELECT MIN(id) FROM entries WHERE bucket = 'import')"
_MIDDLE = "id = (SELECT MIN(id) FROM entries WHERE bucket = 'import' AND chain_root IS NOT NULL)"
FORGERIES = {
    "seals-edge": (
        "INSERT INTO edges (from_id, to_id, kind) SELECT 1, id, 'seals' FROM entries "
        f"WHERE {_FIRST}",
        "an entry of its chain sealed here, superseded in the ledger",
    ),
    "chain-root": (
        f"UPDATE entries SET chain_root = NULL WHERE {_MIDDLE}",
        "its chain is not the one its adopt act began",
    ),
}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """``doc.md#T/A`` adopted ("one"), then superseded twice ("two", "three")."""
    return superseded_twice(tmp_path)


@pytest.mark.parametrize("how", sorted(FORGERIES))
def test_fsck_forged_chain_row_named_detected(repo: Path, how: str) -> None:
    sql, said = FORGERIES[how]
    assert forest(repo, "fsck").exit_code == 0
    behind_the_triggers(repo, sql)
    done = forest(repo, "fsck", "--json")
    assert done.exit_code == 3, done.stdout
    (fault,) = json.loads(done.stdout)["faults"]
    assert fault["code"] == "index-proof" and said in fault["detail"], fault
    assert fault["fix"] == "forest rebuild"
    ok(repo, "rebuild")
    assert forest(repo, "fsck").exit_code == 0
