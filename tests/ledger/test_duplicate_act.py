"""One act written twice in one segment: forest's writer never does it, so a reader
refuses it (``duplicate-act``) naming the segment, the line and the file forest wrote
— even when the file was renamed to the hash of its new bytes, which hid the edit
from the name check. The same act in two segments stays one act (a cherry-pick:
tests/ledger/test_ledger_git.py)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from forest_files.ledger.acts import LedgerError
from forest_files.ledger.segments import read_ledger
from forest_files.ledger.verify import verify_ledger
from tests.helpers.cli import forest
from tests.helpers.custody import adopted_repo
from tests.helpers.git import commit_all, git


def _forged(tmp_path: Path) -> tuple[Path, str, str]:
    """A committed repository whose one segment holds its act twice, renamed to the
    hash of those bytes; (repo, forged name, the name forest wrote)."""
    repo = adopted_repo(tmp_path, "a.md", "# A\n\n## One\n\nfirst\n", "a.md#One")
    folder = repo / ".forest" / "ledger" / "segments"
    (segment,) = folder.iterdir()
    data = segment.read_bytes()
    twice = data + data.splitlines(keepends=True)[-1]
    forged = hashlib.sha256(twice).hexdigest()
    segment.unlink()
    (folder / f"{forged}.jsonl").write_bytes(twice)
    return repo, forged, segment.name


def test_segment_act_twice_renamed_to_its_hash_detected(tmp_path: Path) -> None:
    repo, forged, written = _forged(tmp_path)
    ledger = repo / ".forest" / "ledger"
    (fault,) = verify_ledger(ledger).faults
    assert (fault.code, fault.segment, fault.line) == ("duplicate-act", forged, 2)
    assert written in fault.detail
    with pytest.raises(LedgerError, match="repeats line 1"):
        read_ledger(ledger)


def test_segment_act_twice_every_door_refused(tmp_path: Path) -> None:
    repo, forged, written = _forged(tmp_path)
    commit_all(repo, "forged")
    fresh = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(repo), str(fresh))
    verify = forest(fresh, "verify")
    assert verify.exit_code == 3, verify.output
    assert f"segment {forged} line 2" in verify.stdout and written in verify.stdout
    # HEAD holds the forged bytes: a checkout of HEAD would restore nothing.
    assert "git checkout" not in verify.stderr
    for door in ("check", "status", "ci"):
        got = forest(fresh, door)
        assert got.exit_code == 3, (door, got.output)
        assert "duplicate-act" in got.output or "repeats line 1" in got.output, door
    fsck = forest(fresh, "fsck")
    assert fsck.exit_code == 3
    assert "forest verify" in fsck.stderr and "forest rebuild" not in fsck.stderr


def test_segment_act_twice_edited_in_place_route_pasted_recovers(tmp_path: Path) -> None:
    repo = adopted_repo(tmp_path, "a.md", "# A\n\n## One\n\nfirst\n", "a.md#One")
    (segment,) = (repo / ".forest" / "ledger" / "segments").iterdir()
    data = segment.read_bytes()
    segment.write_bytes(data + data)
    result = forest(repo, "verify")
    assert result.exit_code == 3
    assert "duplicate-act" in result.stdout and "restore it from git" in result.stdout
    assert f"git checkout HEAD -- .forest/ledger/segments/{segment.name}" in result.stderr
    git(repo, "checkout", "HEAD", "--", f".forest/ledger/segments/{segment.name}")
    assert forest(repo, "verify").exit_code == 0
