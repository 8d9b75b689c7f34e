"""``forest proposal show`` and ``forest watch status`` are reads: as a user who is not
root (tests/helpers/unprivileged.py) whose ``.git/forest`` is read-only (a read-only state
folder, or someone else's clone), they read ``local.db`` read-only (proposals/settle.py
``writable``, then ``ProposalStore.reading``), close nothing and write nothing.

Before the fix both opened ``local.db`` read-write (and settled first): refused, exit 1,
``local.db: attempt to write a readonly database; chmod …``, for a read.
"""

from __future__ import annotations

import json

from tests.helpers.read_only_state import proposal_read_only, state_digests, state_modes
from tests.helpers.unprivileged import run_as_user


def test_proposal_show_watch_status_state_folder_read_only_accepted() -> None:
    with proposal_read_only() as ro:
        repo, bin_dir, pid, state, before = ro.repo, ro.bin_dir, ro.pid, ro.state, ro.before

        show = run_as_user(repo, f"forest proposal show {pid} --json", bin_dir)
        status = run_as_user(repo, "forest watch status", bin_dir)
        as_json = run_as_user(repo, "forest watch status --json", bin_dir)

        assert show.returncode == 0 and show.stderr == "", show.stderr
        shown = json.loads(show.stdout)
        assert (shown["id"], shown["status"]) == (pid, "open"), shown  # nothing closed
        assert status.returncode == 0, status.stderr  # settled: said as the listing says it
        assert f"proposal {pid}" not in status.stdout, status.stdout
        assert f"settled: {pid} discarded for a.md#Title/Keep" in status.stderr, status.stderr
        assert as_json.returncode == 0 and as_json.stderr == "", as_json.stderr
        assert [p["id"] for p in json.loads(as_json.stdout)["proposals"]] == [pid]
        assert state_digests(repo) == before  # nothing written, nothing made

        state_modes(
            state, 0o755, 0o644
        )  # may be written: the status closes what the text left behind
        again = run_as_user(repo, "forest watch status --json", bin_dir)
        assert again.returncode == 0, again.stderr
        assert json.loads(again.stdout)["proposals"] == [], again.stdout
