"""``forest proposal show`` and ``forest watch status`` are reads: as a user who is not
root (tests/helpers/unprivileged.py) whose ``.git/forest`` is ``0555`` (a read-only state
folder, or someone else's clone), they read ``local.db`` read-only (proposals/settle.py
``writable``, then ``ProposalStore.reading``), close nothing and write nothing.

Before the fix both opened ``local.db`` read-write (and settled first): refused, exit 1,
``local.db: attempt to write a readonly database; chmod …``, for a read.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from tests.helpers.cli import ok
from tests.helpers.git import commit_all, isolate, make_repo, write
from tests.helpers.unprivileged import hand_over, open_folder, run_as_user, unprivileged_bin
from tests.helpers.watch import DOC, EDITED, captured_proposal


def _state(repo: Path) -> dict[str, str]:
    """Every file of ``.git/forest`` with the SHA-256 of its bytes."""
    return {
        p.relative_to(repo).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted((repo / ".git" / "forest").rglob("*"))
        if p.is_file()
    }


def test_proposal_show_watch_status_state_folder_read_only_accepted() -> None:
    with open_folder() as folder, pytest.MonkeyPatch.context() as patch:
        isolate(patch)
        bin_dir = unprivileged_bin(folder)
        repo = make_repo(folder, "read-only")
        ok(repo, "init")
        write(repo, "a.md", DOC)
        commit_all(repo, "init")
        ok(repo, "adopt", "a.md#Keep", "--words", "the doc")
        commit_all(repo, "adopt")
        pid = captured_proposal(repo, EDITED)
        write(repo, "a.md", DOC)  # the edit undone: a writing door closes it
        hand_over(repo)
        state = repo / ".git" / "forest"
        state.chmod(0o555)
        before = _state(repo)

        show = run_as_user(repo, f"forest proposal show {pid} --json", bin_dir)
        status = run_as_user(repo, "forest watch status", bin_dir)
        as_json = run_as_user(repo, "forest watch status --json", bin_dir)

        assert show.returncode == 0 and show.stderr == "", show.stderr
        shown = json.loads(show.stdout)
        assert (shown["id"], shown["status"]) == (pid, "open"), shown  # nothing closed
        assert status.returncode == 0 and status.stderr == "", status.stderr
        assert f"proposal {pid} a.md#Title/Keep" in status.stdout, status.stdout
        assert as_json.returncode == 0 and as_json.stderr == "", as_json.stderr
        assert [p["id"] for p in json.loads(as_json.stdout)["proposals"]] == [pid]
        assert _state(repo) == before  # nothing written, nothing made

        state.chmod(0o755)  # may be written: the status closes what the text left behind
        again = run_as_user(repo, "forest watch status --json", bin_dir)
        assert again.returncode == 0, again.stderr
        assert json.loads(again.stdout)["proposals"] == [], again.stdout
