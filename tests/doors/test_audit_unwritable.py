"""An audit log that cannot be written (`.git/forest` or `audit.db` read-only, or owned
by another user): a command that acted says so once, with the command that fixes it; a
refused command prints its one ``forest:`` line and nothing about the log (its record
holds no act, and the cause is often the same unwritable folder)."""

from __future__ import annotations

import os
import shlex
from pathlib import Path

import pytest

from forest_files.custody.auditlog import Event, append_events
from forest_files.kernel.access import beyond_modes
from tests.helpers.cli import console, ok
from tests.helpers.git import commit_all, make_repo, write
from tests.helpers.immutable import immutable
from tests.helpers.state import shared_state

DOC = "# Doc\n\nThe sky is blue.\n"


def _drifted(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path, "my repo")
    ok(repo, "init")
    write(repo, "doc.md", DOC)
    commit_all(repo, "init")
    ok(repo, "adopt", "doc.md", "--words", "the doc")
    commit_all(repo, "adopt")
    assert (shared_state(repo) / "audit.db").is_file()
    write(repo, "doc.md", DOC.replace("blue", "green"))
    return repo


def _warnings(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if "audit log was not written" in line]


def test_refusal_with_audit_log_unwritable_one_line_refused(tmp_path: Path) -> None:
    repo = _drifted(tmp_path)
    with immutable(shared_state(repo) / "audit.db"):
        refused = console(repo, "restore", "nope.md")
    assert refused.returncode == 1, refused.stderr
    (line,) = refused.stderr.splitlines()
    assert line.startswith("forest: nope.md: "), line


def test_refusal_with_state_folder_unwritable_one_line_refused(tmp_path: Path) -> None:
    """`.git/forest` read-only: the refusal names it; the log's gap is not said again."""
    repo = _drifted(tmp_path)
    state = shared_state(repo)
    for side in ("-wal", "-shm"):
        assert not (state / f"woods.db{side}").exists()
    with immutable(state):
        refused = console(repo, "log")
    assert refused.returncode == 1, refused.stderr
    (line,) = refused.stderr.splitlines()
    assert beyond_modes(str(state / "woods.db")) in line, line


def test_act_with_audit_log_immutable_says_once_with_paths_accepted(tmp_path: Path) -> None:
    """``audit.db`` immutable (its mode allows writing already): one warning naming the
    folder and the log to make writable, quoted, and no ``chmod``, which changes
    nothing there (it said ``chmod u+w …``; the ``chmod`` of a mode is
    tests/doors/test_audit_gap_advice.py's, as a user who is not root)."""
    repo = _drifted(tmp_path)
    state = shared_state(repo)
    with immutable(state / "audit.db"):
        done = console(repo, "restore", "doc.md")
    assert done.returncode == 0, done.stderr
    assert (repo / "doc.md").read_text(encoding="utf-8") == DOC  # the restore stands
    (line,) = _warnings(done.stderr)
    fix = line.partition(" — make ")[2].rpartition(" writable (")[0]
    assert shlex.split(fix) == [str(state), "and", str(state / "audit.db")], line
    assert "chmod" not in line, line
    assert "what this command did stands" in line, line


def test_audit_gap_said_once_per_process_accepted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = _drifted(tmp_path)
    with immutable(shared_state(repo) / "audit.db"):
        for _ in range(3):
            assert not append_events(repo, [Event("drift", "found", "check")])
        assert not append_events(repo, [Event("drift", "found", "check")], quiet=True)
    assert len(_warnings(capsys.readouterr().err)) == 1


@pytest.mark.skipif(getattr(os, "geteuid", lambda: 1)() != 0, reason="chown needs root")
def test_audit_folder_of_another_user_says_chown_accepted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = _drifted(tmp_path)
    state = shared_state(repo)
    os.chown(state, 4321, -1)
    try:
        with immutable(state / "audit.db"):
            assert not append_events(repo, [Event("drift", "found", "check")])
    finally:
        os.chown(state, 0, -1)
    (line,) = _warnings(capsys.readouterr().err)
    fix = line.partition(" — another user owns it: ")[2]
    assert shlex.split(fix) == ["sudo", "chown", "-R", "$(id -un)", str(state)], line
