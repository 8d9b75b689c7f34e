"""A recording killed after its act stands and before its audit record is committed:
the next command restores the record from what the ledger proves (custody/auditowed.py).

A real ``forest adopt`` in a real repository, killed with SIGKILL by the crash matrix's
runner (tests/helpers/crash_runner.py) at a state change between its segment's rename
and the audit log's commit; then ``forest check`` (any command that opens the index)
and ``forest audit --json``. Before the fix the act stood in the ledger, the index and
``forest check``, and the log held the earlier records only: the record was gone, and
neither ``forest audit`` nor ``forest fsck`` said so.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.helpers.crash_runs import crashed, events, forest
from tests.helpers.git import commit_all, git, make_repo, write

DOC = "# Doc\n\n## Part\n\nthe words\n\n## Other\n\nmore\n"
SIGNER = "Test Author <author@example.org>"
ARGV = ("adopt", "a.md#Other", "--words", "second")
SEGMENTS = ".forest/ledger/segments"


def _ok(root: Path, *args: str) -> None:
    done = forest(root, *args)
    assert done.returncode == 0, (args, done.stdout, done.stderr)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[list[object]]]:
    """A repository with one adopt recorded (so the log is not empty), and the state
    changes of a second adopt, run once to the end in a copy."""
    base = tmp_path_factory.mktemp("owed")
    root = make_repo(base, "template")
    write(root, "a.md", DOC)
    commit_all(root, "files")
    _ok(root, "init", "--project-id", "p")
    _ok(root, "adopt", "a.md#Part", "--words", "first")
    commit_all(root, "adopted")
    baseline = Path(shutil.copytree(root, base / "baseline", symlinks=True))
    return root, events(baseline, ARGV)


def _audit(root: Path) -> list[dict[str, object]]:
    done = forest(root, "audit", "--json")
    assert done.returncode == 0, (done.stdout, done.stderr)
    records: list[dict[str, object]] = json.loads(done.stdout)["records"]
    return records


def _new_act(template: Path, trial: Path) -> str | None:
    """The id of the act the killed run's segment holds (None: no segment landed)."""
    before = {p.name for p in (template / SEGMENTS).iterdir()}
    (new,) = [p for p in (trial / SEGMENTS).iterdir() if p.name not in before] or [None]
    return None if new is None else str(json.loads(new.read_text().splitlines()[0])["id"])


def _owed_dir(root: Path) -> Path:
    return root / ".git" / "forest" / "audit-owed"


def _after_segment(changes: list[list[object]], which: str) -> int:
    """A change between the segment's rename into the ledger and the audit log's commit."""
    landed = max(
        n for n, event, what in changes if event == "os.rename" and f"/{SEGMENTS}" in str(what[1])
    )
    commits = [n for n, event, _ in changes if event == "sqlite3.commit"]
    opened = [
        n for n, event, what in changes if event == "sqlite3.connect" and "audit" in str(what)
    ]
    points = {"index-commit": landed + 1, "audit-open": opened[-1], "audit-commit": commits[-1]}
    return points[which]


@pytest.mark.parametrize("which", ["index-commit", "audit-open", "audit-commit"])
def test_audit_record_killed_after_its_segment_recovers(
    built: tuple[Path, list[list[object]]], tmp_path: Path, which: str
) -> None:
    """Killed with the segment in the ledger and the record not committed (before the
    index's commit, at the log's opening, at its commit): the next command appends the
    act's record, its kind, signer, ids and paths, and HEAD as it was recorded, under
    the reason ``restored``; the earlier record kept; nothing owed is left."""
    template, changes = built
    trial = Path(shutil.copytree(template, tmp_path / "trial", symlinks=True))
    at = _after_segment(changes, which)
    crashed(trial, ARGV, at)
    act = _new_act(template, trial)
    assert act is not None, changes[at]
    head = git(trial, "rev-parse", "HEAD")
    _ok(trial, "check")
    records = _audit(trial)
    (restored,) = [r for r in records if r["act_id"] == act]
    assert (restored["action"], restored["outcome"], restored["reason"]) == (
        "adopt",
        "ok",
        "restored",
    )
    assert restored["actor"] == SIGNER and restored["head"] == head
    assert restored["targets"][0] == act and "a.md" in restored["targets"]
    assert [r["reason"] for r in records if r["action"] == "adopt"] == ["restored", "recorded"]
    assert not _owed_dir(trial).exists()
    _ok(trial, "check")  # restored once: a second command appends nothing
    assert len(_audit(trial)) == len(records)


@pytest.mark.parametrize("which", ["segment-rename", "marker-removal"])
def test_audit_owed_marker_killed_around_its_act_recovers(
    built: tuple[Path, list[list[object]]], tmp_path: Path, which: str
) -> None:
    """Killed before the segment lands (the marker written, the act not recorded): the
    next command claims no act and drops the marker, and the adopt typed again is
    recorded once. Killed after the log's commit, as the marker goes: the record stands
    once, never restored twice, and the marker is gone."""
    template, changes = built
    trial = Path(shutil.copytree(template, tmp_path / "trial", symlinks=True))
    if which == "segment-rename":
        at = max(n for n, e, what in changes if e == "os.rename" and f"/{SEGMENTS}" in str(what[1]))
    else:
        at = next(n for n, e, what in changes if e == "os.remove" and "audit-owed" in str(what))
    crashed(trial, ARGV, at)
    assert _owed_dir(trial).exists()
    _ok(trial, "check")
    assert not _owed_dir(trial).exists()
    if which == "segment-rename":
        assert _new_act(template, trial) is None
        assert [r["reason"] for r in _audit(trial) if r["action"] == "adopt"] == ["recorded"]
        _ok(trial, *ARGV)
    adopts = [r for r in _audit(trial) if r["action"] == "adopt"]
    assert [r["reason"] for r in adopts] == ["recorded", "recorded"], adopts
    assert not _owed_dir(trial).exists()


def test_audit_owed_while_the_log_is_damaged_recovers(
    built: tuple[Path, list[list[object]]], tmp_path: Path
) -> None:
    """A recording whose log cannot be written (garbage at ``audit.db``) says the gap
    once, with the ``mv`` that fixes it; a later sync says nothing more; once the file
    is moved aside, the next sync writes the owed record into the new log."""
    template, _changes = built
    trial = Path(shutil.copytree(template, tmp_path / "trial", symlinks=True))
    db = trial / ".git" / "forest" / "audit.db"
    for side in ("-wal", "-shm"):
        Path(f"{db}{side}").unlink(missing_ok=True)
    db.write_bytes(b"not a database\n" * 512)
    done = forest(trial, *ARGV)
    assert done.returncode == 0 and done.stderr.count("audit log was not written") == 1
    quiet = forest(trial, "sync")
    assert quiet.returncode == 0 and "audit" not in quiet.stderr, quiet.stderr
    assert _owed_dir(trial).exists()
    db.rename(f"{db}.damaged")
    _ok(trial, "sync")
    (record,) = _audit(trial)
    assert (record["action"], record["reason"], record["actor"]) == ("adopt", "restored", SIGNER)
    assert not _owed_dir(trial).exists()
