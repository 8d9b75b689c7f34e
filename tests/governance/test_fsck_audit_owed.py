"""``forest fsck`` names the audit records a killed recording owes, before any command
syncs (governance/fsck_audit.py): which acts, how many, and ``forest sync``, which
writes them; anything else under ``audit-owed/`` with its removal.

A real ``forest adopt`` killed with SIGKILL at the audit log's commit (the crash
matrix's runner), then ``forest fsck`` and ``forest fsck --json``, read-only. Before the
fix fsck said ``fsck: ok`` while the log lacked the act's record.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from tests.helpers.crash_runs import crashed, events, forest
from tests.helpers.git import commit_all, make_repo, pasted, write

DOC = "# Doc\n\n## Part\n\nthe words\n\n## Other\n\nmore\n"
ARGV = ("adopt", "a.md#Other", "--words", "second")


def _ok(root: Path, *args: str) -> str:
    done = forest(root, *args)
    assert done.returncode == 0, (args, done.stdout, done.stderr)
    return done.stdout


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[list[object]]]:
    base = tmp_path_factory.mktemp("fsck-owed")
    root = make_repo(base, "template")
    write(root, "a.md", DOC)
    commit_all(root, "files")
    _ok(root, "init", "--project-id", "p")
    _ok(root, "adopt", "a.md#Part", "--words", "first")
    commit_all(root, "adopted")
    baseline = Path(shutil.copytree(root, base / "baseline", symlinks=True))
    return root, events(baseline, ARGV)


def _owed(root: Path) -> Path:
    return root / ".git" / "forest" / "audit-owed"


def _tree(folder: Path) -> dict[str, bytes | None]:
    return {
        p.name: None if p.is_dir() or p.is_symlink() else p.read_bytes() for p in folder.iterdir()
    }


def _fixed(root: Path, fault: dict[str, str]) -> None:
    """The fault's fix pasted, then fsck clean."""
    assert pasted(root, fault["fix"]).returncode == 0, fault
    assert forest(root, "fsck").returncode == 0


def test_fsck_audit_owed_after_a_kill_detected(
    built: tuple[Path, list[list[object]]], tmp_path: Path
) -> None:
    """Killed at the log's commit: fsck names the marker, the one act the log lacks and
    ``forest sync`` (text and JSON), exit 3, the marker left as it was; the fix pasted,
    the log holds the act's record and fsck is clean."""
    template, changes = built
    trial = Path(shutil.copytree(template, tmp_path / "trial", symlinks=True))
    at = [n for n, event, _ in changes if event == "sqlite3.commit"][-1]
    crashed(trial, ARGV, at)
    (marker,) = _owed(trial).iterdir()
    act = marker.stem
    before = _tree(_owed(trial))
    text = forest(trial, "fsck")
    assert text.returncode == 3, (text.stdout, text.stderr)
    (line,) = [ln for ln in text.stdout.splitlines() if ln.startswith("audit-owed:")]
    assert f"audit-owed/{act}.json" in line and "1 act(s)" in line and act in line, line
    assert "`forest sync`" in line, line
    assert "first: `forest sync`" in text.stderr, text.stderr
    done = forest(trial, "fsck", "--json")
    assert done.returncode == 3
    (fault,) = [f for f in json.loads(done.stdout)["faults"] if f["code"] == "audit-owed"]
    assert fault["fix"] == "forest sync" and act in fault["detail"]
    assert _tree(_owed(trial)) == before
    _fixed(trial, fault)
    records = json.loads(_ok(trial, "audit", "--json"))["records"]
    assert [r["reason"] for r in records if r["act_id"] == act] == ["restored"]


@pytest.mark.parametrize("planted", ["garbage", "folder"])
def test_fsck_audit_owed_foreign_entry_detected(
    built: tuple[Path, list[list[object]]], tmp_path: Path, planted: str
) -> None:
    """A file there this module did not write, or a folder named like a marker: an
    ``audit-owed-foreign`` fault with the ``rm --`` (``rm -r --``) that removes it."""
    template, _changes = built
    trial = Path(shutil.copytree(template, tmp_path / "trial", symlinks=True))
    name = _owed(trial) / f"{'a' * 64}.json"
    _owed(trial).mkdir(mode=0o700)
    if planted == "garbage":
        name.write_text("not a marker\n")
    else:
        name.mkdir()
    done = forest(trial, "fsck", "--json")
    assert done.returncode == 3, (done.stdout, done.stderr)
    (fault,) = json.loads(done.stdout)["faults"]
    assert fault["code"] == "audit-owed-foreign" and fault["where"] == f"audit-owed/{name.name}"
    assert fault["fix"].startswith("rm -r -- " if planted == "folder" else "rm -- ")
    _fixed(trial, fault)


def test_fsck_audit_owed_folder_symlink_detected(
    built: tuple[Path, list[list[object]]], tmp_path: Path
) -> None:
    """``audit-owed`` a symlink: a ``linked`` fault with its ``rm --``, never followed
    (the folder it names untouched); fsck goes on and says the rest."""
    template, _changes = built
    trial = Path(shutil.copytree(template, tmp_path / "trial", symlinks=True))
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / f"{'b' * 64}.json").write_text("{}")
    os.symlink(victim, _owed(trial))
    done = forest(trial, "fsck", "--json")
    assert done.returncode == 3, (done.stdout, done.stderr)
    (fault,) = json.loads(done.stdout)["faults"]
    assert (fault["code"], fault["where"]) == ("linked", "audit-owed")
    assert "a symlink" in fault["detail"] and fault["fix"].startswith("rm -- ")
    _fixed(trial, fault)
    assert _tree(victim) == {f"{'b' * 64}.json": b"{}"}
