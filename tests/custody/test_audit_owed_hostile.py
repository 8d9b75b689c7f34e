"""A marker of owed audit records is a claim this machine wrote, in a folder the user may
write: what is planted there is never followed, and nothing is restored that the
ledger does not prove (custody/auditowed.py).

A real repository with one ``forest adopt`` recorded; its audit log moved aside (so the
act's record is owed to the new log) and something planted under
``.git/forest/audit-owed``; then a real ``forest sync`` and ``forest audit --json``.
Before the fix a forged marker wrote its own signer, kind and paths into the log; a
symlinked folder had every ``*.json`` file of the folder it names deleted; a FIFO hung
every command; a folder named like a marker made every command an internal error; a
huge file was read whole.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from forest_files.custody.auditowed import MAX_MARKER_BYTES
from tests.helpers.crash_runs import forest
from tests.helpers.git import commit_all, git, make_repo, pasted, write

DOC = "# Doc\n\n## Part\n\nthe words\n\n## Other\n\nmore\n"
SIGNER = "Test Author <author@example.org>"


def _ok(root: Path, *args: str) -> str:
    done = forest(root, *args)
    assert done.returncode == 0, (args, done.stdout, done.stderr)
    return done.stdout


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = make_repo(tmp_path_factory.mktemp("owed-hostile"), "template")
    write(root, "a.md", DOC)
    commit_all(root, "files")
    _ok(root, "init", "--project-id", "p")
    _ok(root, "adopt", "a.md#Part", "--words", "first")
    commit_all(root, "adopted")
    return root


def _trial(template: Path, tmp_path: Path) -> tuple[Path, dict[str, object]]:
    """A copy whose audit log is gone (the adopt's record owed to the next one), and
    the adopt's record as the log held it."""
    root = Path(shutil.copytree(template, tmp_path / "trial", symlinks=True))
    (record,) = [r for r in _audit(root) if r["action"] == "adopt"]
    for side in ("", "-wal", "-shm"):
        Path(f"{root}/.git/forest/audit.db{side}").unlink(missing_ok=True)
    return root, record


def _audit(root: Path) -> list[dict[str, object]]:
    records: list[dict[str, object]] = json.loads(_ok(root, "audit", "--json"))["records"]
    return records


def _owed(root: Path) -> Path:
    return root / ".git" / "forest" / "audit-owed"


def _claim(act: str) -> str:
    """A sound claim of ``act``'s record, in this layout and in round one's (its
    ``events``), so neither reader rejects it for its form."""
    event = {"action": "adopt", "actor": SIGNER, "targets": [act], "act_id": act}
    return json.dumps({"acts": [act], "head": "", "events": [event]})


def test_audit_owed_marker_forged_fields_recovers(template: Path, tmp_path: Path) -> None:
    """A marker naming an applied act with another signer, kind and paths (the old
    layout's fields, hand-written): the record restored is the act's own, its kind and
    signer read from the ledger, its ids and paths from the index."""
    root, record = _trial(template, tmp_path)
    act = str(record["act_id"])
    forged = {"action": "erase", "actor": "Mallory <m@x>", "targets": [act, "evil.md"]}
    doc = {"head": "", "acts": [act], "events": [{**forged, "act_id": act}]}
    _owed(root).mkdir(mode=0o700)
    (_owed(root) / f"{act}.json").write_text(json.dumps(doc))
    _ok(root, "sync")
    (restored,) = [r for r in _audit(root) if r["act_id"] == act]
    assert (restored["action"], restored["actor"], restored["reason"]) == (
        "adopt",
        SIGNER,
        "restored",
    )
    assert restored["targets"] == record["targets"]
    assert not _owed(root).exists()


def test_audit_owed_folder_symlink_refused(template: Path, tmp_path: Path) -> None:
    """``audit-owed`` a symlink to another folder: every command that would read it is
    refused in one line naming its removal, and nothing in the folder it names is read
    or removed; the removal pasted, the command runs."""
    root, record = _trial(template, tmp_path)
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "keep.json").write_text("{}")
    (victim / f"{record['act_id']}.json").write_text(_claim(str(record["act_id"])))
    before = {p.name: p.read_bytes() for p in victim.iterdir()}
    os.symlink(victim, _owed(root))
    done = forest(root, "sync")
    assert done.returncode == 1, (done.stdout, done.stderr)
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("forest: ") and "a symlink" in line, line
    assert {p.name: p.read_bytes() for p in victim.iterdir()} == before
    fix = line.split("(", 1)[1].split(")", 1)[0]
    assert fix.startswith("rm -- "), line
    assert pasted(root, fix).returncode == 0
    _ok(root, "sync")
    assert {p.name: p.read_bytes() for p in victim.iterdir()} == before
    assert [r["act_id"] for r in _audit(root) if r["action"] == "adopt"] == []


@pytest.mark.parametrize("planted", ["symlink", "fifo", "folder", "huge"])
def test_audit_owed_marker_not_a_file_recovers(
    template: Path, tmp_path: Path, planted: str
) -> None:
    """A marker's name held by a symlink (to a sound claim), a FIFO, a folder or a file
    over ``MAX_MARKER_BYTES``: the sync runs (never waits on a FIFO, never an internal
    error), restores nothing from it, follows no link; what it can remove goes, a folder
    stays (``forest fsck`` names its removal)."""
    root, record = _trial(template, tmp_path)
    act = str(record["act_id"])
    name = _owed(root) / f"{act}.json"
    _owed(root).mkdir(mode=0o700)
    outside = tmp_path / "outside.json"
    outside.write_text(_claim(act))
    if planted == "symlink":
        os.symlink(outside, name)
    elif planted == "fifo":
        os.mkfifo(name)
    elif planted == "folder":
        name.mkdir()
    else:
        claim = _claim(act)  # then blanks, which JSON allows: sound but for its size
        name.write_text(claim + " " * (MAX_MARKER_BYTES + 1 - len(claim)))
    _ok(root, "sync")
    assert [r for r in _audit(root) if r["action"] == "adopt"] == []
    assert outside.read_text() == _claim(act)
    assert os.path.lexists(name) == (planted == "folder")
    assert not (root / ".git" / "forest" / "crash").exists()
    assert git(root, "status", "--porcelain") == ""
