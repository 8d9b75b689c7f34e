"""``forest fsck`` names a ground whose latest adoption record in the index is not the one
the ledger declares: the ground's ``adopts`` edge pointed at an older record (or taken
away) behind the triggers changes no row's fields, so every content id still hashed and
fsck said ok, while ``forest check`` named the ledger's adopter with a ``forest:`` line
saying "`forest fsck` names the damage" (the edge taken away, the index proof names it
already, and every door rebuilds). Now a ``content-id`` fault naming the
ground, exit 3, ``forest rebuild`` its fix; after the rebuild fsck says ok."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers.cli import forest
from tests.helpers.forgetting import CLEAN, cleaned_and_synced
from tests.helpers.git import write
from tests.helpers.state import behind_the_triggers

RECORD = "bucket = 'adoption_record' AND body = 'amend'"  # the ground's (the supersession's)
FORGERIES = {
    # the ground's adopts edge pointed at the older record (words "ok")
    "older-record": "UPDATE edges SET from_id = (SELECT id FROM entries WHERE "
    "bucket = 'adoption_record' AND body = 'ok') WHERE kind = 'adopts' AND from_id = "
    f"(SELECT id FROM entries WHERE {RECORD})",
    "edge-deleted": "DELETE FROM edges WHERE kind = 'adopts' AND from_id = "
    f"(SELECT id FROM entries WHERE {RECORD})",
}
SAID = "its latest adoption record in the index is not the one the ledger declares"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """``doc.md#Ops/Keys`` adopted ("ok"), superseded ("amend"), then edited: drifted."""
    root = cleaned_and_synced(tmp_path)
    write(root, "doc.md", CLEAN.replace("in the vault", "elsewhere"))
    return root


def test_fsck_ground_adopts_edge_moved_to_older_record_named_detected(root: Path) -> None:
    assert forest(root, "fsck").exit_code == 0
    behind_the_triggers(root, FORGERIES["older-record"])
    done = forest(root, "fsck", "--json")
    assert done.exit_code == 3, done.stdout + done.stderr
    (fault,) = json.loads(done.stdout)["faults"]
    assert fault["code"] == "content-id" and SAID in fault["detail"], fault
    assert fault["fix"] == "forest rebuild", fault
    text = forest(root, "fsck")
    assert text.exit_code == 3 and "content-id: " in text.output and SAID in text.output
    # no binding or ground moved: the check believes the index and sends here
    checked = forest(root, "check")
    assert checked.exit_code == 1 and "`forest fsck` names the damage" in checked.stderr
    assert forest(root, "rebuild").exit_code == 0
    assert forest(root, "fsck").exit_code == 0
    assert "index lost" not in forest(root, "check").stderr


def test_fsck_ground_adopts_edge_deleted_named_once(root: Path) -> None:
    """The edge taken away leaves the ground unreached: the index proof names it (and
    every door rebuilds); the adoption check adds no second fault for the same damage."""
    behind_the_triggers(root, FORGERIES["edge-deleted"])
    done = forest(root, "fsck", "--json")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert [f["code"] for f in json.loads(done.stdout)["faults"]] == ["index-proof"]
