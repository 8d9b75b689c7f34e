"""``forest ci`` refused: the work tree's top asked of git once, refusal report included.

The door asks git for the work tree's top where the user stands (doors/gatecmd.py
``_stand``) and hands it to the gate; a refusal's report (gate/refusal.py, and the
shallow clone's check of gate/shallow.py ``unfetched_report``) took the same top from
two more ``git rev-parse --show-toplevel``. Counted from git's own trace (``GIT_TRACE``).

Test: forest_files/gate/refusal.py (one_finding), forest_files/gate/shallow.py,
forest_files/doors/gatecmd.py (_refused).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forest_files.doors.gatecmd import run_ci
from forest_files.gitio import UnknownRef
from tests.helpers.custody import adopted_repo
from tests.helpers.gittrace import git_traced


def test_ci_base_not_a_commit_toplevel_asked_once_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A base naming no commit is refused, its JSON report the one ``refused`` finding
    (its detail without the work tree's path), the top asked of git once."""
    repo = adopted_repo(tmp_path, "docs/canon.md", "# Canon\n\nRules.\n")
    trace = tmp_path / "trace.txt"
    with git_traced(monkeypatch, trace), pytest.raises(UnknownRef):
        run_ci(repo, "no-such-ref", "json", [])
    doc = json.loads(capsys.readouterr().out)
    (found,) = doc["findings"]
    assert found["kind"] == "refused" and "no-such-ref" in found["detail"], found
    assert str(repo) not in found["detail"], found
    lines = trace.read_text(encoding="utf-8").splitlines()
    asked = [line for line in lines if " rev-parse --show-toplevel" in line]
    assert len(asked) == 1, asked
