"""The index proof holds a binding at its latest place: the one its adopt act named,
or its last rebind's. It accepted any place the binding's acts ever named, so a
binding row moved back behind the triggers to where it stood before a rebind passed
it: ``forest check`` judged the old place, never naming the edit of the section the
binding was moved to, ``forest fsck`` said ok, and a retired binding so moved was
believed by ``forest log``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forest_files.custody import bindmap, verdict
from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, make_repo, write
from tests.helpers.state import behind_the_triggers

BACK = "UPDATE binding_events SET selector = 'doc.md#T/A' WHERE kind = 'rebind'"


@pytest.fixture
def moved(tmp_path: Path) -> Path:
    """``doc.md#T/A`` adopted, its heading renamed ``B`` and the binding rebound there;
    then a section ``A`` holding the ground's text again, after ``B`` (a section ``Z``
    after each)."""
    repo = make_repo(tmp_path)
    ok(repo, "init")
    write(repo, "doc.md", "# T\n\n## A\n\nkept words\n\n## Z\n\nz\n")
    commit_all(repo, "a")
    ok(repo, "adopt", "doc.md#T/A", "--words", "one")
    write(repo, "doc.md", "# T\n\n## B\n\nkept words\n\n## Z\n\nz\n")
    commit_all(repo, "b")
    ok(repo, "rebind", "doc.md#T/A", "doc.md#T/B", "--words", "moved")
    write(repo, "doc.md", "# T\n\n## B\n\nkept words\n\n## A\n\nkept words\n\n## Z\n\nz\n")
    commit_all(repo, "c")
    assert forest(repo, "check").exit_code == 0
    return repo


def _forge(repo: Path) -> None:
    behind_the_triggers(repo, BACK)
    bindmap.forget(bindmap.worktree_record(str(repo)))
    verdict.forget(str(repo))


def test_check_binding_row_moved_back_to_an_earlier_place_rebuilt_detected(
    moved: Path,
) -> None:
    write(moved, "doc.md", "# T\n\n## B\n\nforged words\n\n## A\n\nkept words\n\n## Z\n\nz\n")
    _forge(moved)
    done = forest(moved, "check")
    assert done.exit_code == 1, done.stdout
    assert "drifted doc.md#T/B" in done.stdout, done.stdout
    assert "a place no act named" in done.stderr and "rebuilt it from the ledger" in done.stderr


def test_fsck_retired_binding_row_moved_back_named_detected(moved: Path) -> None:
    ok(moved, "retire", "doc.md#T/B", "--words", "gone")
    assert forest(moved, "fsck").exit_code == 0
    _forge(moved)
    done = forest(moved, "fsck", "--json")
    assert done.exit_code == 3, done.stdout
    (fault,) = json.loads(done.stdout)["faults"]
    assert fault["code"] == "index-proof" and "a place no act named" in fault["detail"]
    log = forest(moved, "log", "doc.md#T/B")
    assert log.exit_code == 0 and "rebuilt it from the ledger" in log.stderr
    assert log.stdout.splitlines()[0] == "doc.md#T/B (retired)"
