"""``forest proposals`` and ``forest watch status`` where ``.git/forest`` may not be
written (a user who is not root, the folder ``0555``: tests/helpers/read_only_state.py)
say of a proposal the text left behind what ``forest proposal show`` says of it there,
and what the writable listing records: settled (here ``discarded``, back at ground),
not listed among the open ones, in one note naming ``forest proposals``, which closes it
where the folder may be written. ``--json`` is the record as it stands (``open``).

Before the fix both listed it as open (``1 open proposal(s)``; ``proposal ID …``) while
the read-only show said ``discarded`` and the writable listing closed it.
"""

from __future__ import annotations

import json

from tests.helpers.read_only_state import proposal_read_only, state_digests, state_modes
from tests.helpers.unprivileged import run_as_user


def test_proposals_list_left_behind_read_only_detected() -> None:
    with proposal_read_only() as ro:
        repo, bin_dir, pid, state, before = ro.repo, ro.bin_dir, ro.pid, ro.state, ro.before

        listed = run_as_user(repo, "forest proposals", bin_dir)
        status = run_as_user(repo, "forest watch status", bin_dir)
        rows = run_as_user(repo, "forest proposals --json", bin_dir)
        shown = run_as_user(repo, f"forest proposal show {pid}", bin_dir)

        assert state_digests(repo) == before  # nothing closed, nothing written
        assert shown.stdout.startswith(f"proposal {pid} discarded for a.md#Title/Keep"), shown
        note = (
            f"forest: note: nothing was changed: {state} may not be written here, so 1 "
            f"proposal still recorded as open is settled: {pid} discarded for "
            "a.md#Title/Keep (back at ground); `forest proposals` where it may be "
            "written closes it"
        )
        assert listed.returncode == 0 and listed.stderr.splitlines() == [note], listed.stderr
        assert listed.stdout.splitlines() == ["0 open proposal(s)"], listed.stdout
        assert status.returncode == 0 and status.stderr.splitlines() == [note], status.stderr
        assert f"proposal {pid}" not in status.stdout, status.stdout
        (row,) = json.loads(rows.stdout)  # the record as it stands
        assert (row["id"], row["status"], rows.stderr) == (pid, "open", ""), rows

        state_modes(state, 0o755, 0o644)  # the writable door: it closes what the other one said
        closed = run_as_user(repo, "forest proposals", bin_dir)
        assert closed.returncode == 0, closed.stderr
        assert closed.stdout == listed.stdout  # two doors, one listing
        assert f"closed proposal {pid} (a.md#Title/Keep): back at ground" in closed.stderr
        again = run_as_user(repo, f"forest proposal show {pid} --json", bin_dir)
        assert json.loads(again.stdout)["status"] == "discarded", again.stdout
