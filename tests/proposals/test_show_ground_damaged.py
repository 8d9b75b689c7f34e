"""``forest proposal show ID`` where the ledger lacks the body file of the proposal's
ground (a damaged ledger: the file deleted by hand, no erase act recording it) says so
alike through both doors, on one repository: where ``.git/forest`` may be written (the
index brought in step still holds ground's words, which no clone could rebuild) and
where it is read-only to a user who is not root (tests/helpers/unprivileged.py; the
ledger's body file is ground's words: proposals/ground_words.py).

Before the fix the read-only door showed ground as empty text (``{+## Keep+}``, every
line added) and the writable door the index's words, neither saying the ledger was
damaged.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.helpers.git import isolate
from tests.helpers.read_only_state import proposal_handed_over, state_digests
from tests.helpers.unprivileged import open_folder, run_as_user


def _modes(state: Path, folders: int, files: int) -> None:
    for top, _dirs, names in os.walk(state):
        os.chmod(top, folders)
        for name in names:
            os.chmod(os.path.join(top, name), files)


def test_proposal_show_ground_body_missing_refused() -> None:
    with open_folder() as folder, pytest.MonkeyPatch.context() as patch:
        isolate(patch)
        repo, bin_dir, pid = proposal_handed_over(folder, "damaged")  # a.md keeps the edit
        done = run_as_user(repo, "forest status", bin_dir)  # the index in step, by its user
        assert "drifted" in done.stdout, done.stdout + done.stderr
        bodies = (repo / ".forest" / "ledger" / "bodies").rglob("*.txt")
        (ground,) = [b for b in bodies if "kept words" in b.read_text(encoding="utf-8")]
        ground.unlink()  # the ledger damaged; the index still in step
        state = repo / ".git" / "forest"
        _modes(state, 0o555, 0o444)
        before = state_digests(repo)

        shown = run_as_user(repo, f"forest proposal show {pid}", bin_dir)

        assert state_digests(repo) == before
        _modes(state, 0o755, 0o644)
        writable = run_as_user(repo, f"forest proposal show {pid}", bin_dir)
        assert writable.returncode == 3 and writable.stdout == "", writable.stdout
        (line,) = writable.stderr.splitlines()
        assert line.startswith(f"forest: ledger: body {ground.stem} of ground "), line
        assert "is missing, and no erase act records it" in line, line
        assert line.endswith("(`forest verify` lists every fault of the ledger)"), line
        assert (shown.returncode, shown.stdout, shown.stderr) == (3, "", writable.stderr)
        verify = run_as_user(repo, "forest verify", bin_dir)  # the route: it names the fix
        assert f"git checkout HEAD -- .forest/ledger/bodies/{ground.stem[:2]}/" in verify.stderr
