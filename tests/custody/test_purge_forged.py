"""A body file is deleted only where an erase act of the ledger names its hash.

An entry row made ``[erased]`` behind the triggers, with an ``erasures`` row of the
forger's: the next sync (any door) took the index's erasure for a forget and deleted
the record's body file from ``.forest/ledger/bodies``; ``forest log`` then showed
``[erased]`` with nothing said, and ``forest rebuild`` refused (the body is missing).
"""

from __future__ import annotations

from pathlib import Path

from forest_files.ledger.segments import body_path
from tests.helpers.cli import forest
from tests.helpers.forgetting import CLEAN, cleaned_and_synced
from tests.helpers.git import commit_all, git, write
from tests.helpers.state import forge_erasure

OLDER = "bucket = 'adoption_record' AND body = 'ok'"  # the first adoption's record


def _forge_erasure(root: Path) -> Path:
    """The record's words made ``[erased]`` with an erasure row: its body file."""
    return body_path(root / ".forest" / "ledger", forge_erasure(root, OLDER))


def test_forged_erasure_deletes_no_ledger_body_file(tmp_path: Path) -> None:
    root = cleaned_and_synced(tmp_path)
    commit_all(root, "cleaned")
    body = _forge_erasure(root)
    kept = body.read_bytes()
    write(root, "doc.md", CLEAN.replace("in the vault", "elsewhere"))  # drifted
    commit_all(root, "drifted")
    log = forest(root, "log")
    assert log.exit_code == 0, log.output
    assert "[erased]" not in log.stdout  # the words, from the ledger's body file
    assert "forest fsck" in log.stderr  # the damaged index said
    assert forest(root, "check").exit_code == 1
    assert body.read_bytes() == kept
    assert git(root, "status", "--porcelain").strip() == ""
    done = forest(root, "fsck")
    assert done.exit_code == 3 and "erased-not-in-ledger" in done.output, done.output
    rebuilt = forest(root, "rebuild")
    assert rebuilt.exit_code == 0, rebuilt.output
    again = forest(root, "fsck")
    assert again.exit_code == 0, again.output
    assert body.read_bytes() == kept
    assert "[erased]" not in forest(root, "log").stdout
