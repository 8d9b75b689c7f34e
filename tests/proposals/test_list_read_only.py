"""``forest proposals`` is a read: as a user who is not root (tests/helpers/unprivileged.py)
whose ``.git/forest`` is read-only (a read-only state folder, or someone else's clone),
it lists the open proposals from files opened read-only, closes nothing, writes
nothing, and says on stderr that nothing was changed (and, in text, that the proposal
its section left behind is settled: tests/proposals/test_list_settled_read_only.py);
once the folder may be written, the same listing closes it, as before.

Before the fix the listing opened ``local.db`` read-write and settled first: refused,
exit 1, ``local.db: attempt to write a readonly database; chmod …``, for a read.
"""

from __future__ import annotations

import pytest

from tests.helpers.read_only_state import proposal_read_only, state_digests, state_modes
from tests.helpers.unprivileged import run_as_user


@pytest.mark.parametrize("command", ["forest proposals", "forest proposal list --json"])
def test_proposals_list_state_folder_read_only_accepted(command: str) -> None:
    with proposal_read_only() as ro:
        repo, bin_dir, pid, state, before = ro.repo, ro.bin_dir, ro.pid, ro.state, ro.before

        done = run_as_user(repo, command, bin_dir)

        assert done.returncode == 0, done.stderr
        if "--json" in command:  # the record as it stands
            assert pid in done.stdout and done.stderr == "", done.stdout + done.stderr
        else:  # settled (back at ground), said as the writing door records it
            assert done.stdout.splitlines()[-1] == "0 open proposal(s)", done.stdout
            (note,) = done.stderr.splitlines()
            assert note.startswith(f"forest: note: nothing was changed: {state} "), note
            assert f"settled: {pid} discarded for a.md#Title/Keep (back at ground)" in note
        assert state_digests(repo) == before  # nothing written, nothing made

        state_modes(state, 0o755, 0o644)
        again = run_as_user(repo, "forest proposals", bin_dir)
        assert again.returncode == 0, again.stderr
        assert again.stdout.splitlines()[-1] == "0 open proposal(s)", again.stdout
        assert f"closed proposal {pid} " in again.stderr, again.stderr
