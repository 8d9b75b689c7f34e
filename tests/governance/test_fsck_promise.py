"""The promise two ``forest:`` lines print, held for every forgery that makes them print:
``forest check`` (who adopted a failing finding's ground, custody/adoptions.py) and
``forest log`` (an act's words, custody/actlog.py) say "`forest fsck` names the damage,
`forest rebuild` repairs it" when the index's record row is not the one the ledger
declares. For each such forgery behind the triggers, ``forest fsck`` exits 3 naming the
forged row (its id, its content id or its ground's), and after ``forest rebuild`` the
line is gone and fsck says ok. A row made to read ``[erased]`` with an erasure row of
its own, an erasure the ledger never made, passed fsck (exit 0) while both lines sent
the user there."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from forest_files.kernel.hashing import hash_body
from tests.helpers.cli import forest
from tests.helpers.forgetting import CLEAN, cleaned_and_synced
from tests.helpers.git import write
from tests.helpers.state import behind_the_triggers, erasure_statements, hashing_row, local_state

MALLORY = "Mallory <m@x>"
PROMISE = "`forest fsck` names the damage, `forest rebuild` repairs it"
GROUND = "bucket = 'adoption_record' AND body = 'amend'"  # the ground's record (check)
OLDER = "bucket = 'adoption_record' AND body = 'ok'"  # the first adoption's (log)


# (the door whose line is promised, the row forged, the forgery's statements)
FORGERIES: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "check-signer-and-words": (
        "check",
        GROUND,
        (f"UPDATE entries SET signature = '{MALLORY}', body = 'forged' WHERE {GROUND}",),
    ),
    "check-signer": (
        "check",
        GROUND,
        (f"UPDATE entries SET signature = '{MALLORY}' WHERE {GROUND}",),
    ),
    "check-words": ("check", GROUND, (f"UPDATE entries SET body = 'forged' WHERE {GROUND}",)),
    "check-words-rehashed": (
        "check",
        GROUND,
        (
            f"UPDATE entries SET body = 'forged', body_hash = '{hash_body('forged')}' "
            f"WHERE {GROUND}",
        ),
    ),
    "check-older-record": (
        "check",
        GROUND,
        (
            f"UPDATE edges SET from_id = (SELECT id FROM entries WHERE {OLDER}) WHERE "
            f"kind = 'adopts' AND from_id = (SELECT id FROM entries WHERE {GROUND})",
        ),
    ),
    # the edge moved, and the older record's signer changed: fsck named only the latter
    "check-older-record-and-signer": (
        "check",
        GROUND,
        (
            f"UPDATE entries SET signature = '{MALLORY}' WHERE {OLDER}",
            f"UPDATE edges SET from_id = (SELECT id FROM entries WHERE {OLDER}) WHERE "
            f"kind = 'adopts' AND from_id = (SELECT id FROM entries WHERE {GROUND})",
        ),
    ),
    "check-row-deleted": ("check", GROUND, (f"DELETE FROM entries WHERE {GROUND}",)),
    "check-hashing-row": ("check", GROUND, ()),  # hashing_row
    "check-erased-looking": ("check", GROUND, erasure_statements(GROUND)),
    "check-erased-unbacked": ("check", GROUND, erasure_statements(GROUND)[1:]),
    "log-words": ("log", OLDER, (f"UPDATE entries SET body = 'forged' WHERE {OLDER}",)),
    "log-content-id": (
        "log",
        OLDER,
        (f"UPDATE entries SET content_id = '{'0' * 64}' WHERE {OLDER}",),
    ),
    "log-hashing-row": ("log", OLDER, ()),  # hashing_row
}


def _names(root: Path, where: str) -> set[str]:
    """What a fault may name the forged row by: its row id, its content id, its ground's."""
    with closing(sqlite3.connect(local_state(root) / "woods.db")) as conn:
        ((row_id, cid),) = conn.execute(f"SELECT id, content_id FROM entries WHERE {where}")
        grounds = conn.execute(
            "SELECT t.content_id FROM edges g JOIN entries t ON t.id = g.to_id "
            "WHERE g.kind = 'adopts' AND g.from_id = ?",
            (row_id,),
        ).fetchall()
    return {f"entry row {row_id}", str(cid), *(str(g) for (g,) in grounds)}


def _said(root: Path, door: str) -> str:
    """The door's stderr (a drifted check exits 1, a log 0)."""
    done = forest(root, door)
    assert done.exit_code == (1 if door == "check" else 0), done.stdout + done.stderr
    return done.stderr


@pytest.mark.parametrize("how", sorted(FORGERIES))
def test_fsck_names_what_the_damaged_index_line_promises_rebuild_repairs(
    tmp_path: Path, how: str
) -> None:
    door, where, sql = FORGERIES[how]
    root = cleaned_and_synced(tmp_path)
    write(root, "doc.md", CLEAN.replace("in the vault", "elsewhere"))  # drifted: named
    assert PROMISE not in _said(root, door)
    assert forest(root, "fsck").exit_code == 0
    names = _names(root, where)
    for statement in sql:
        behind_the_triggers(root, statement)
    if not sql:
        hashing_row(root, where, MALLORY, "forged")
    assert PROMISE in _said(root, door)  # the promise printed
    done = forest(root, "fsck", "--json")
    assert done.exit_code == 3, done.stdout + done.stderr
    faults = json.loads(done.stdout)["faults"]
    assert any(f["where"] in names for f in faults), faults
    assert forest(root, "rebuild").exit_code == 0
    assert PROMISE not in _said(root, door)
    again = forest(root, "fsck")
    assert again.exit_code == 0, again.output


def test_fsck_erasure_the_ledger_never_made_named_detected(tmp_path: Path) -> None:
    """The first record's words made ``[erased]`` with an erasure row of the forger's:
    fsck said ok (the marker backed by an erasure row was all it asked), while ``forest
    log`` took it for a forget. It names the row; a rebuild makes the words again."""
    root = cleaned_and_synced(tmp_path)
    names = _names(root, OLDER)
    for statement in erasure_statements(OLDER):
        behind_the_triggers(root, statement)
    done = forest(root, "fsck", "--json")
    assert done.exit_code == 3, done.stdout + done.stderr
    (fault,) = json.loads(done.stdout)["faults"]
    assert fault["code"] == "erased-not-in-ledger" and fault["where"] in names, fault
    assert forest(root, "rebuild").exit_code == 0
    assert forest(root, "fsck").exit_code == 0
    assert "[erased]" not in forest(root, "log").stdout
