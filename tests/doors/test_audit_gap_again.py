"""A long-running process (the watcher, ``forest mcp``) says each gap of the audit log:
once while the same gap lasts, again when the log was written in between and a new
gap opens (custody/auditgap.py ``say_gap``). It said
the first gap only, then nothing for the rest of the process."""

from __future__ import annotations

from pathlib import Path

import pytest

from forest_files.custody.auditlog import Event, append_events
from tests.doors.test_audit_unwritable import _drifted, _warnings
from tests.helpers.immutable import immutable
from tests.helpers.state import shared_state

EVENT = Event("drift", "found", "check")


def test_audit_gap_after_log_written_again_said_again_accepted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = _drifted(tmp_path)
    db = shared_state(repo) / "audit.db"
    capsys.readouterr()
    with immutable(db):
        assert not append_events(repo, [EVENT])
        assert not append_events(repo, [EVENT])  # the same gap: said once
    assert len(_warnings(capsys.readouterr().err)) == 1
    assert append_events(repo, [EVENT])  # the log written: that gap is over
    assert _warnings(capsys.readouterr().err) == []
    with immutable(db):
        assert not append_events(repo, [EVENT])  # a later gap: said again
        assert not append_events(repo, [EVENT])
    assert len(_warnings(capsys.readouterr().err)) == 1
