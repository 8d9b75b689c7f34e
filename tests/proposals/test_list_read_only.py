"""``forest proposals`` is a read: as a user who is not root (tests/helpers/unprivileged.py)
whose ``.git/forest`` is ``0555`` (a read-only state folder, or someone else's clone),
it lists the open proposals from files opened read-only, closes nothing, writes
nothing, and says on stderr that nothing was changed; once the folder may be written,
the same listing closes the proposal its section left behind, as before.

Before the fix the listing opened ``local.db`` read-write and settled first: refused,
exit 1, ``local.db: attempt to write a readonly database; chmod …``, for a read.
"""

from __future__ import annotations

import hashlib
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


@pytest.mark.parametrize("command", ["forest proposals", "forest proposal list --json"])
def test_proposals_list_state_folder_read_only_accepted(command: str) -> None:
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
        write(repo, "a.md", DOC)  # the edit undone: a writing listing closes it
        hand_over(repo)
        state = repo / ".git" / "forest"
        state.chmod(0o555)
        before = _state(repo)

        done = run_as_user(repo, command, bin_dir)

        assert done.returncode == 0, done.stderr
        assert pid in done.stdout, done.stdout
        if "--json" in command:
            assert done.stderr == "", done.stderr
        else:
            assert done.stdout.splitlines()[-1] == "1 open proposal(s)", done.stdout
            (note,) = done.stderr.splitlines()
            assert note.startswith(f"forest: note: nothing was changed: {state} "), note
        assert _state(repo) == before  # nothing written, nothing made

        state.chmod(0o755)
        again = run_as_user(repo, "forest proposals", bin_dir)
        assert again.returncode == 0, again.stderr
        assert again.stdout.splitlines()[-1] == "0 open proposal(s)", again.stdout
        assert f"closed proposal {pid} " in again.stderr, again.stderr
