"""``forest ci`` through its door (doors/gatecmd.py ``run_ci``): the git processes the
door itself adds to the gate's.

The work tree's top is asked of git once (``rev-parse --show-toplevel``), where the
door notes where the user stands: the gate and the run's audit record take it from
there (they asked it again, one process each). The record's HEAD is the commit the
gate judged, not asked of ``rev-parse`` a second time. Counted from git's own trace
(``GIT_TRACE``), real processes.

Test: forest_files/doors/gatecmd.py (run_ci, _stand, _at_the_top),
forest_files/gate/ci.py (run_gate), forest_files/doors/doorlog.py (record_gate).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from forest_files.doors.gatecmd import run_ci
from forest_files.gitio import forget_read_objects
from tests.gate.test_ci_git_calls import _build
from tests.helpers.git import git
from tests.helpers.gittrace import git_traced
from tests.helpers.template import reused


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return reused((__name__, "repo"), tmp_path / "repo", _build)


def _traced(
    where: Path, trace: Path, monkeypatch: pytest.MonkeyPatch, reports: list[tuple[str, Path]]
) -> list[str]:
    forget_read_objects()  # what another test resolved counts for nothing here
    with git_traced(monkeypatch, trace):
        run_ci(where, "main", "text", reports)
    return [line for line in trace.read_text(encoding="utf-8").splitlines() if "git " in line]


def _recorded_heads(repo: Path) -> list[str | None]:
    conn = sqlite3.connect(repo / ".git" / "forest" / "audit.db")
    try:
        rows = conn.execute("SELECT action, head FROM audit ORDER BY seq").fetchall()
    finally:
        conn.close()
    return [head for action, head in rows if action == "ci"]


def test_ci_door_toplevel_and_head_asked_once_accepted(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """One ``rev-parse --show-toplevel`` (the door's) and one ``HEAD^{commit}`` (the
    gate's) for a whole ``forest ci`` run: the gate (gate/ci.py) and the audit record
    (doorlog.py ``record_gate``, then auditlog.py) asked each again. The record still
    names the HEAD judged."""
    lines = _traced(repo, tmp_path / "trace.txt", monkeypatch, [])
    top = [line for line in lines if " rev-parse --show-toplevel" in line]
    assert len(top) == 1, top
    head_asked = [line for line in lines if " rev-parse " in line and "HEAD^{commit}" in line]
    assert len(head_asked) == 1, head_asked
    head = git(repo, "rev-parse", "HEAD").strip()
    assert _recorded_heads(repo)[-1] == head
    assert capsys.readouterr().out.strip()  # the report printed as ever


def test_ci_door_in_subfolder_sarif_toplevel_asked_once_accepted(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Typed in ``docs/`` with a SARIF report, the gate judges the range a second time
    from the top (gatecmd.py ``_at_the_top``): the top is still asked of git once, and
    each report is written as before (text where typed, SARIF at the top)."""
    sarif = tmp_path / "out.sarif"
    lines = _traced(repo / "docs", tmp_path / "trace.txt", monkeypatch, [("sarif", sarif)])
    top = [line for line in lines if " rev-parse --show-toplevel" in line]
    assert len(top) == 1, top
    assert '"runs"' in sarif.read_text(encoding="utf-8")
    assert capsys.readouterr().out.strip()
    head = git(repo, "rev-parse", "HEAD").strip()
    assert _recorded_heads(repo)[-1] == head
