"""``forest proposal show ID`` on a proposal whose ground an erase removed prints the
same diff through both doors: where ``.git/forest`` may be written (ground's words from
the index: its erased marker) and where it is read-only to a user who is not root
(tests/helpers/unprivileged.py; ground's words from the in-step binding map and the
ledger: proposals/view.py ``_read_only``).

The erased live ground is made as tests/governance/test_erased_ground.py makes it: a
forget on main merged into a branch that adopted the identical text. The proposal was
captured on that branch before the merge, its text holding none of the erased lines
(so the merge's purge keeps it).

Before the fix the read-only door read the body file the erase deleted and showed
ground as empty text (``{+## Keys+}``) where the writable door shows ``[-[erased]-]``.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from forest_files.custody.record import adopt_sections
from forest_files.custody.repository import Repository
from forest_files.custody.targets import read_section
from forest_files.doors.watch import judge
from forest_files.store.entryrow import ERASED_MARK
from tests.helpers.cli import forest
from tests.helpers.custody import BY, MAX, age_files
from tests.helpers.forgetting import SECRET, SENTINEL, SIDE, erased_on_main_adopted_on_side
from tests.helpers.git import git, isolate, write
from tests.helpers.read_only_state import state_digests
from tests.helpers.unprivileged import hand_over, open_folder, run_as_user, unprivileged_bin

EDITED = SIDE.replace("The keys live in the vault.\n", "No key here.\n").replace(f"{SECRET}\n", "")


def _adopt(root: Path, target: str) -> None:
    with Repository(root) as repo:
        adopt_sections(repo, [read_section(root, target, (), max_bytes=MAX)], words="ok", by=BY)


def _erased_with_proposal(folder: Path) -> tuple[Path, str]:
    """main: the secret pasted into a.md#Keys, superseded and forgotten; side: b.md#Keys
    adopted holding the identical section, a proposal captured for it, then main merged
    into side and synced (b.md#Keys's live ground is erased). The root, the proposal."""
    root = erased_on_main_adopted_on_side(folder, "erased")
    write(root, "b.md", EDITED)
    (item,) = judge.check(root, ("b.md",), threading.Event())
    captured = judge.capture(root, item, (), 1 << 20)
    assert captured is not None
    git(root, "merge", "-q", "--no-edit", "main")
    sync = forest(root, "sync")
    assert sync.exit_code == 0 and "0 proposal(s)" in sync.stderr, sync.stderr
    return root, captured.split(" ")[0]


def test_proposal_show_erased_ground_read_only_detected() -> None:
    with open_folder() as folder, pytest.MonkeyPatch.context() as patch:
        isolate(patch)
        bin_dir = unprivileged_bin(folder)
        repo, pid = _erased_with_proposal(folder)
        writable = forest(repo, "proposal", "show", pid)
        age_files(repo)
        hand_over(repo)
        done = run_as_user(repo, "forest status", bin_dir)  # the index in step, by its user
        assert "erased-content b.md#Notes/Keys" in done.stdout, done.stdout + done.stderr
        for top, _dirs, files in os.walk(repo / ".git" / "forest"):
            os.chmod(top, 0o555)
            for name in files:
                os.chmod(os.path.join(top, name), 0o444)
        before = state_digests(repo)

        shown = run_as_user(repo, f"forest proposal show {pid}", bin_dir)

        assert writable.exit_code == 0, writable.stderr
        assert f"[-{ERASED_MARK}-]{{+## Keys+}}" in writable.stdout, writable.stdout
        assert shown.returncode == 0, shown.stderr
        assert shown.stdout == writable.stdout  # two doors, one diff
        assert SENTINEL not in shown.stdout + shown.stderr
        assert state_digests(repo) == before
