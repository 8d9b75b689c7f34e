"""Routes printed while a merge is under way (``MERGE_HEAD``): pasted, they leave the
merge committable.

A merge stages what it merged, so a drifted bound file the other branch brought in is
in the index as well as the working tree. ``forest check``'s restore route wrote the
ground back to the working tree only: the file then showed ``MM`` and the merge's
commit was refused again by the pre-commit hook (whose own route adds the ``git add``).
The same outside a merge, when the user staged the drift by hand (``git add FILE``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, git, make_repo, pasted, write
from tests.helpers.gittrace import git_traced

ALPHA = "a.md#Doc/Alpha"
DOC = "# Doc\n\n## Alpha\n\nalpha\n\n## Beta\n\nbeta\n"


def _merging_drift(tmp_path: Path) -> Path:
    """Branch ``other`` drifted Alpha (committed past the hook); ``main`` merges it
    with ``--no-commit``: the drift is staged, the merge waits for its commit."""
    from forest_files.doors import hooks as githooks

    root = make_repo(tmp_path)
    write(root, "a.md", DOC)
    write(root, "notes.txt", "x\n")
    commit_all(root, "init")
    ok(root, "init")
    ok(root, "adopt", ALPHA, "--words", "as it stands")
    commit_all(root, "adopt")
    githooks.install(root)
    git(root, "checkout", "-q", "-b", "other")
    write(root, "a.md", DOC.replace("alpha\n", "alpha changed\n"))
    git(root, "commit", "-q", "--no-verify", "-am", "drift")
    git(root, "checkout", "-q", "main")
    write(root, "notes.txt", "y\n")
    git(root, "commit", "-q", "-am", "main")
    assert pasted(root, "git merge -q --no-commit other").returncode == 0
    assert git(root, "status", "--porcelain", "--", "a.md") == "M  a.md"
    return root


@pytest.mark.slow  # two branches, a merge, and the merge's commit through the hook
def test_drift_staged_by_merge_restore_route_pasted_merge_committable_recovers(
    tmp_path: Path,
) -> None:
    root = _merging_drift(tmp_path)
    shown = forest(root, "check", "--json")
    assert shown.exit_code == 1, shown.output
    (found,) = json.loads(shown.stdout)["findings"]
    assert found["kind"] == "drifted", found
    (restore,) = [r["command"] for r in found["routes"] if r["label"] == "restore ground"]
    assert restore.endswith("&& git add -- a.md"), restore
    done = pasted(root, restore)
    assert done.returncode == 0, done.stderr
    assert git(root, "status", "--porcelain", "--", "a.md") == ""  # not MM: staged too
    committed = pasted(root, "git commit -q --no-edit")
    assert committed.returncode == 0, committed.stdout + committed.stderr
    assert git(root, "rev-parse", "-q", "--verify", "HEAD^2")  # the merge concluded
    assert (root / "a.md").read_text() == DOC


def _staged_drift(tmp_path: Path) -> Path:
    """No merge: Alpha drifted and staged by hand (``git add``), hooks installed."""
    from forest_files.doors import hooks as githooks

    root = make_repo(tmp_path)
    write(root, "a.md", DOC)
    commit_all(root, "init")
    ok(root, "init")
    ok(root, "adopt", ALPHA, "--words", "as it stands")
    commit_all(root, "adopt")
    githooks.install(root)
    write(root, "a.md", DOC.replace("alpha\n", "alpha changed\n"))
    git(root, "add", "--", "a.md")
    assert git(root, "status", "--porcelain", "--", "a.md") == "M  a.md"
    return root


@pytest.mark.slow  # the commit after the route goes through the installed hook
def test_drift_staged_by_hand_restore_route_pasted_commit_accepted(tmp_path: Path) -> None:
    root = _staged_drift(tmp_path)
    write(root, "notes.txt", "x\n")
    git(root, "add", "--", "notes.txt")
    shown = forest(root, "check", "--json")
    assert shown.exit_code == 1, shown.output
    (found,) = json.loads(shown.stdout)["findings"]
    (restore,) = [r for r in found["routes"] if r["label"] == "restore ground"]
    assert restore["command"].endswith("&& git add -- a.md"), restore
    assert "unstaged edits too" in restore["note"], restore
    done = pasted(root, restore["command"])
    assert done.returncode == 0, done.stderr
    assert git(root, "status", "--porcelain", "--", "a.md") == ""  # not MM: staged too
    committed = pasted(root, "git commit -q -m notes")
    assert committed.returncode == 0, committed.stdout + committed.stderr
    assert (root / "a.md").read_text() == DOC


def test_drift_not_staged_restore_route_stages_nothing_accepted(tmp_path: Path) -> None:
    root = _staged_drift(tmp_path)
    git(root, "reset", "-q", "--", "a.md")  # the drift in the working tree alone
    shown = forest(root, "check", "--json")
    (found,) = json.loads(shown.stdout)["findings"]
    (restore,) = [r["command"] for r in found["routes"] if r["label"] == "restore ground"]
    assert restore == "forest restore 'a.md#Doc/Alpha'", restore


def test_drifts_staged_by_hand_one_git_call_for_all_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_repo(tmp_path)
    for name in ("a.md", "b.md"):
        write(root, name, DOC)
    commit_all(root, "init")
    ok(root, "init")
    ok(root, "adopt", ALPHA, "b.md#Doc/Alpha", "--words", "as it stands")
    commit_all(root, "adopt")
    for name in ("a.md", "b.md"):
        write(root, name, DOC.replace("alpha\n", "alpha changed\n"))
    git(root, "add", "--", "a.md")  # b.md's drift in the working tree alone
    trace = tmp_path / "trace.txt"
    with git_traced(monkeypatch, trace):
        shown = forest(root, "check", "--json")
    routes = {
        f["path"]: r["command"]
        for f in json.loads(shown.stdout)["findings"]
        for r in f["routes"]
        if r["label"] == "restore ground"
    }
    assert routes == {
        "a.md": "forest restore 'a.md#Doc/Alpha' && git add -- a.md",
        "b.md": "forest restore 'b.md#Doc/Alpha'",
    }
    asked = [line for line in trace.read_text().splitlines() if "git diff --cached" in line]
    assert len(asked) == 1, asked
