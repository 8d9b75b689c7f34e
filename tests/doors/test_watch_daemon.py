"""The watcher as a process: one per repository, a stale pid recovered, stop idempotent,
SIGTERM/SIGINT/SIGHUP one clean shutdown, killed -9 and restarted it catches up."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

import forest_files.doors.cli  # noqa: F401  (registers every command)
from forest_files.doors.cli import app
from forest_files.doors.watch.daemon import stop
from forest_files.doors.watch.lock import WatcherRunning, WatchLock, running
from forest_files.doors.watch.status import status
from forest_files.kernel.errors import ForestError
from forest_files.kernel.paths import WATCH_LOCK, WATCH_LOG, WATCH_PID, WATCH_STATE
from tests.helpers.git import pasted
from tests.helpers.state import local_state
from tests.helpers.watch import (
    EDITED,
    TIMEOUT,
    bound_repo,
    open_kinds,
    save_by_rename,
    until,
    watch_state,
)

runner = CliRunner()
FAST = ["--quiet", "0.1", "--ceiling", "1", "--grace", "0.5"]


@pytest.fixture
def root(tmp_path: Path) -> Iterator[Path]:
    path = bound_repo(tmp_path)
    yield path
    stopped(path)  # whatever a test left running


def _foreground(root: Path) -> subprocess.Popen[bytes]:
    # stderr to a file, never an unread pipe: a child blocked writing to a full pipe
    # would not stop, and the file is what a failure shows (``stopped``).
    with (root.parent / "watcher.stderr").open("ab") as err:
        child = subprocess.Popen(
            [sys.executable, "-m", "forest_files.doors.watch", "--repo", str(root), *FAST],
            stdout=subprocess.DEVNULL,
            stderr=err,
        )
    assert until(lambda: running(root) == child.pid), _told(root)
    return child


def _told(root: Path) -> str:
    """What the watcher said: its log and its stderr, for a failing assertion."""
    said = []
    for path in (local_state(root) / WATCH_LOG, root.parent / "watcher.stderr"):
        with contextlib.suppress(OSError):
            said.append(f"--- {path.name}\n{path.read_text(errors='replace')[-4000:]}")
    return "\n".join(said)


def stopped(root: Path) -> str:
    """``stop``; a watcher that does not stop fails the test with what it said."""
    try:
        return stop(root)
    except ForestError as exc:
        raise AssertionError(f"{exc}\n{_told(root)}") from exc


def test_watch_second_watcher_refused(root: Path) -> None:
    child = _foreground(root)
    with pytest.raises(WatcherRunning, match="forest watch stop"):
        WatchLock(root).acquire()
    out = runner.invoke(app, ["watch", "--repo", str(root)])
    assert out.exit_code == 1 and "already runs" in out.output
    assert "Ctrl-C stops" not in out.output  # the refusal alone: nothing is watching
    assert stopped(root).startswith("stopped") and child.wait(TIMEOUT) == 0


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_watch_signal_clean_shutdown_accepted(root: Path, sig: signal.Signals) -> None:
    child = _foreground(root)
    child.send_signal(sig)
    assert child.wait(TIMEOUT) == 0
    assert not (local_state(root) / WATCH_PID).exists() and running(root) is None
    assert watch_state(root)["running"] is False
    assert "stopped" in (local_state(root) / WATCH_LOG).read_text()


def test_watch_stop_idempotent_accepted(root: Path) -> None:
    assert stopped(root) == "no watcher running"
    child = _foreground(root)
    assert stopped(root).startswith("stopped")
    assert stopped(root) == "no watcher running"
    assert child.wait(TIMEOUT) == 0


def test_watch_detach_status_stop_accepted(root: Path) -> None:
    out = runner.invoke(app, ["watch", "--detach", *FAST, "--repo", str(root)])
    assert out.exit_code == 0, out.output
    save_by_rename(root / "a.md", EDITED)
    assert until(lambda: "drifted" in open_kinds(root)), watch_state(root)
    assert until(lambda: bool(status(root)["proposals"]))
    shown = runner.invoke(app, ["watch", "status", "--repo", str(root)])
    assert "drifted a.md#Title/Keep" in shown.output and "proposal " in shown.output
    assert "edited words" not in shown.output + (local_state(root) / WATCH_LOG).read_text()
    assert runner.invoke(app, ["watch", "stop", "--repo", str(root)]).exit_code == 0
    assert runner.invoke(app, ["watch", "stop", "--repo", str(root)]).output.startswith("no")


def test_watch_detach_never_runs_the_repositorys_argparse_refused(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``argparse.py`` at the repository root (the watcher's cwd) and on PYTHONPATH:
    the detached watcher is an isolated child (``kernel.spawn``), it never runs it."""
    marker = tmp_path / "ran"
    plant = f"open({str(marker)!r}, 'a').write('x')\nraise SystemExit(9)\n"
    (root / "argparse.py").write_text(plant, encoding="utf-8")
    trap = tmp_path / "trap"
    trap.mkdir()
    (trap / "argparse.py").write_text(plant, encoding="utf-8")
    monkeypatch.setenv("PYTHONPATH", str(trap))
    out = runner.invoke(app, ["watch", "--detach", *FAST, "--repo", str(root)])
    assert out.exit_code == 0, out.output
    save_by_rename(root / "a.md", EDITED)
    assert until(lambda: "drifted" in open_kinds(root)), watch_state(root)
    assert runner.invoke(app, ["watch", "stop", "--repo", str(root)]).exit_code == 0
    assert not marker.exists()


def test_watch_killed_and_restarted_catches_up_recovers(root: Path) -> None:
    child = _foreground(root)
    os.kill(child.pid, signal.SIGKILL)
    child.wait(TIMEOUT)
    assert (local_state(root) / WATCH_PID).exists()  # stale, and seen as such:
    # a `git` the watcher was starting holds a copy of the lock's descriptor from its
    # fork until its exec closes it (O_CLOEXEC), which a loaded machine may delay
    assert until(lambda: running(root) is None), _told(root)
    save_by_rename(root / "a.md", EDITED)  # while nobody watches
    again = _foreground(root)
    assert until(lambda: "drifted" in open_kinds(root)), watch_state(root)
    assert f"stale pid file (pid {child.pid}" in (local_state(root) / WATCH_LOG).read_text()
    assert stopped(root).startswith("stopped") and again.wait(TIMEOUT) == 0


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs /proc/PID/task")
def test_watch_signal_to_another_thread_still_stops_accepted(root: Path) -> None:
    """The kernel may hand a process's SIGTERM to any thread that does not block it
    (here: sent to one by its thread id). The main thread, asleep in its read, is
    woken through the wakeup fd and stops the watcher cleanly."""
    child = _foreground(root)
    assert until(lambda: len(list(Path(f"/proc/{child.pid}/task").iterdir())) > 1)
    threads = sorted(int(t.name) for t in Path(f"/proc/{child.pid}/task").iterdir())
    os.kill(next(t for t in threads if t != child.pid), signal.SIGTERM)
    assert child.wait(TIMEOUT) == 0, _told(root)
    assert running(root) is None and "stopped" in (local_state(root) / WATCH_LOG).read_text()


@pytest.mark.parametrize("command", ["status", "stop", "--detach"])
def test_watch_lock_symlink_refused(root: Path, tmp_path: Path, command: str) -> None:
    """A symlink planted at ``watch.lock``: one ``forest:`` line naming its removal
    (before: an internal error, exit 3, and a crash log), the link's target never
    opened for writing; the printed ``rm`` pasted lets the watcher start."""
    theirs = tmp_path / "theirs.txt"
    theirs.write_text("theirs\n", encoding="utf-8")
    lock = local_state(root) / WATCH_LOCK
    lock.parent.mkdir(parents=True, exist_ok=True)
    lock.unlink(missing_ok=True)
    os.symlink(theirs, lock)
    done = pasted(root, f"forest watch {command}")
    lines = done.stderr.splitlines()
    assert done.returncode == 1 and len(lines) == 1, done.stderr
    assert lines[0].startswith("forest: ") and "watch.lock: a symlink" in lines[0]
    assert theirs.read_text(encoding="utf-8") == "theirs\n"
    assert not (local_state(root) / "crash").exists()
    fix = lines[0].split("(", 1)[1].split(")", 1)[0]  # rm -- …
    assert pasted(root, fix).returncode == 0 and not lock.is_symlink()
    assert pasted(root, "forest watch status").returncode == 0


def test_watch_pid_and_state_temp_symlink_not_followed_refused(root: Path, tmp_path: Path) -> None:
    """Links planted at the temp names the pid file and the state file are written
    under (``NAME.PID.tmp``): never written through; the files are written anyway."""
    from forest_files.doors.watch.daemon import write_state
    from tests.helpers.watch import watching

    state = local_state(root)
    state.mkdir(parents=True, exist_ok=True)
    theirs = tmp_path / "theirs.txt"
    theirs.write_text("theirs\n", encoding="utf-8")
    for name in (WATCH_PID, WATCH_STATE):
        os.symlink(theirs, state / f"{name}.{os.getpid()}.tmp")
    lock = WatchLock(root)
    lock.acquire()
    try:
        with watching(root) as w:
            write_state(root, w)
        assert (state / WATCH_PID).read_text(encoding="ascii") == f"{os.getpid()}\n"
        assert json.loads((state / WATCH_STATE).read_text(encoding="utf-8"))["running"]
    finally:
        lock.release()
    assert theirs.read_text(encoding="utf-8") == "theirs\n"
    assert not list(state.glob("*.tmp"))


def test_watch_status_spells_names_as_check_accepted(root: Path) -> None:
    """A required file whose name is not UTF-8: `forest watch status` names it as
    `forest check` does (``\\xe9``), not with a replacement character."""
    with (root / "forest.toml").open("a", encoding="utf-8") as fh:
        fh.write('\n[require]\n"new/*.md" = "file"\n')
    (root / "new").mkdir()
    (root / os.fsdecode(b"new/caf\xe9.md")).write_text("# Menu\n", encoding="utf-8")
    _foreground(root)
    assert until(lambda: "unbound" in open_kinds(root)), watch_state(root)
    shown = runner.invoke(app, ["watch", "status", "--repo", str(root)])
    checked = runner.invoke(app, ["check", "--repo", str(root)])
    assert "unbound new/caf\\xe9.md" in checked.stdout, checked.stdout
    assert "  unbound new/caf\\xe9.md" in shown.stdout.splitlines(), shown.stdout


def test_watch_log_symlink_foreground_leaves_no_lock_refused(root: Path, tmp_path: Path) -> None:
    """A link at ``watch.log`` refuses the foreground watcher after it took the lock:
    the lock and the pid file are let go again (before: the pid file was left naming
    a watcher that never ran, and a process that went on, as the MCP server or a
    test does, held the lock: ``status`` named it as a running watcher)."""
    theirs = tmp_path / "theirs.txt"
    theirs.write_text("theirs\n", encoding="utf-8")
    state = local_state(root)
    state.mkdir(parents=True, exist_ok=True)
    os.symlink(theirs, state / WATCH_LOG)
    out = pasted(root, "forest watch")
    assert out.returncode == 1 and "watch.log: a symlink" in out.stderr, out.stderr
    assert "watching" not in out.stderr  # one line: the refusal
    assert running(root) is None and not (state / WATCH_PID).exists()
    assert theirs.read_text(encoding="utf-8") == "theirs\n"
    (state / WATCH_LOG).unlink()


def test_watch_two_detach_at_once_loser_told_why_refused(root: Path) -> None:
    """Two ``forest watch --detach`` at once: one watcher runs; the other is told a
    watcher already runs, with its pid and how to stop it (before: when both passed
    the first look, "the watcher exited at start (1); see …watch.log")."""
    import threading

    from forest_files.doors.watch.detach import detach

    gate = threading.Barrier(2)
    said: list[str] = []
    pids: list[int] = []

    def start() -> None:
        gate.wait(TIMEOUT)
        try:
            pids.append(detach(root, FAST))
        except ForestError as exc:
            said.append(str(exc))

    threads = [threading.Thread(target=start) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(TIMEOUT * 2)
    assert len(pids) == 1 and len(said) == 1, (pids, said)
    assert f"a watcher already runs for {root} (pid {pids[0]})" in said[0], said
    assert "forest watch stop" in said[0]


def test_watch_status_says_waiting_for_git_accepted(root: Path) -> None:
    """An edit while git is mid-merge is only collected: `forest watch status` says
    the watcher waits for git (what it lists predates git) and points at `forest
    check`; once git is done the edit is judged and the line is gone."""
    _foreground(root)
    assert until(lambda: watch_state(root).get("checks", 0) >= 1), watch_state(root)
    marker = root / ".git" / "MERGE_HEAD"
    marker.write_text("")
    save_by_rename(root / "a.md", EDITED)
    assert until(lambda: watch_state(root).get("held") == "MERGE_HEAD"), watch_state(root)
    shown = runner.invoke(app, ["watch", "status", "--repo", str(root)]).stdout
    assert "  waiting for git (MERGE_HEAD): " in shown and "`forest check`" in shown, shown
    marker.unlink()
    assert until(lambda: "drifted" in open_kinds(root)), watch_state(root)
    assert not watch_state(root).get("held")
    assert (
        "waiting for git" not in runner.invoke(app, ["watch", "status", "--repo", str(root)]).stdout
    )


def test_watch_status_and_stop_with_broken_config_accepted(root: Path) -> None:
    """forest.toml made invalid while a watcher runs: `forest watch status` and
    `forest watch stop`, run in the repository, still answer (before: the `watch`
    group read forest.toml first and refused both, exit 2, so the watcher could be
    neither seen nor stopped); `forest watch` itself still refuses it."""
    good = (root / "forest.toml").read_text(encoding="utf-8")
    child = _foreground(root)
    assert until(lambda: watch_state(root).get("checks", 0) >= 1), _told(root)  # loaded
    save_by_rename(root / "forest.toml", good + "\n[watch\n")
    assert until(lambda: "not valid TOML" in str(watch_state(root).get("problem"))), _told(root)
    shown = pasted(root, "forest watch status")
    assert shown.returncode == 0 and "failing now:" in shown.stdout, shown.stderr
    refused = pasted(root, "forest watch")
    assert refused.returncode == 2 and "forest.toml" in refused.stderr, refused.stderr
    ended = pasted(root, "forest watch stop")
    assert ended.returncode == 0 and "stopped the watcher" in ended.stdout, ended.stderr
    assert child.wait(TIMEOUT) == 0


def test_watch_verbose_finding_said_once_accepted(root: Path) -> None:
    """``forest watch -v`` in a terminal: each finding line once, on standard output.
    Before: the -v log on stderr echoed every line the watcher had just printed, so a
    drift read twice (the second time behind ``forest: forest_files.doors.watch:``);
    what only the log says (watching, stopped) is still on stderr."""
    out, err = root.parent / "watch.out", root.parent / "watch.err"
    code = "from forest_files.doors.entry import main; main()"
    with out.open("wb") as o, err.open("wb") as e:
        child = subprocess.Popen(
            [sys.executable, "-c", code, "watch", "-v", "--repo", str(root), *FAST],
            stdout=o,
            stderr=e,
        )
    assert until(lambda: running(root) == child.pid), err.read_text()
    save_by_rename(root / "a.md", EDITED)
    assert until(lambda: "holds this text" in out.read_text()), err.read_text()
    assert stopped(root).startswith("stopped") and child.wait(TIMEOUT) == 0
    said = out.read_text() + err.read_text()
    assert said.count("drifted a.md#Title/Keep") == 1, said
    assert said.count("holds this text") == 1, said
    assert "watching" in err.read_text() and "stopped" in err.read_text()
    assert "drifted a.md#Title/Keep" in (local_state(root) / WATCH_LOG).read_text()
