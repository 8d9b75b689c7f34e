"""A watcher that cannot keep a proposal (its file may not grow: ``RLIMIT_FSIZE`` in the
watcher's process alone, as a full disk or a quota): the drift is said and notified
once, the proposal is tried again on a backoff (not after every quiet period), and a
watcher with room keeps it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from forest_files.custody.proposals import ProposalStore
from forest_files.doors.watch.daemon import stop
from forest_files.doors.watch.lock import running
from forest_files.kernel.paths import WATCH_LOG
from tests.helpers.state import local_state
from tests.helpers.watch import (
    EDITED,
    TIMEOUT,
    bound_repo,
    fake_notify_send,
    save_by_rename,
    until,
    watch_state,
)

pytestmark = [
    pytest.mark.slow,  # real watcher processes, a few seconds of retries
    pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE is POSIX"),
]

FAST = ["--quiet", "0.1", "--ceiling", "1", "--grace", "0.5", "--notify"]
LIMIT = 40 * 1024  # room for the index's shared memory, not for a 70 KB proposal
FILLER = "lorem ipsum " * 6000
BIG = EDITED.replace("edited words", "edited words " + FILLER)


def _cap() -> None:
    import resource

    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT, LIMIT))


def _start(root: Path, env: dict[str, str], *, limited: bool) -> subprocess.Popen[bytes]:
    child = subprocess.Popen(
        [sys.executable, "-m", "forest_files.doors.watch", "--repo", str(root), *FAST],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
        preexec_fn=_cap if limited else None,
    )
    assert until(lambda: running(root) == child.pid and watch_state(root).get("checks", 0) >= 1)
    return child


def _proposals(root: Path) -> list[str | None]:
    with ProposalStore(root) as store:
        return [p.text for p in store.open_proposals()]


def test_watch_proposal_no_room_said_once_retried_later_recovers(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    out = tmp_path / "notified.jsonl"
    fake_notify_send(tmp_path / "bin", out)
    env = {**os.environ, "PATH": f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}"}
    child = _start(root, env, limited=True)
    try:
        save_by_rename(root / "a.md", BIG)
        # three tries failed: at the save, then after waits of 1 s and 2 s
        assert until(lambda: int(watch_state(root).get("error_count", 0)) >= 3), watch_state(root)
        assert "local.db" in str(watch_state(root).get("problem"))
        assert len(out.read_text(encoding="utf-8").splitlines()) == 1  # one notification
        log = (local_state(root) / WATCH_LOG).read_text(encoding="utf-8")
        assert log.count("drifted a.md#Title/Keep") == 1, log  # one drift block
    finally:
        assert stop(root).startswith("stopped") and child.wait(TIMEOUT) == 0
    assert (root / "a.md").read_text(encoding="utf-8") == BIG
    child = _start(root, env, limited=False)  # room again: the proposal is kept
    try:
        assert until(lambda: [FILLER in (t or "") for t in _proposals(root)] == [True])
    finally:
        assert stop(root).startswith("stopped") and child.wait(TIMEOUT) == 0
    calls = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(calls) == 2, calls  # the new watcher's start-up verdict: one more
