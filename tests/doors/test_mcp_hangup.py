"""``forest mcp`` whose terminal hangs up: its window closed or its ssh session dropped
(stdin a terminal: the read of the next request fails with EIO, and the kernel sends
SIGHUP when it is the session's terminal), or a plain SIGHUP. The environment, not a
bug: it ends as the other stop signals do, ``forest: terminated`` and 129 (128 +
SIGHUP), within moments, never an internal error or a crash log, whether it waited
for the next request or a write into a full stdout pipe blocked."""

from __future__ import annotations

import fcntl
import os
import signal
import subprocess
import termios
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.doors.test_mcp_terminated import (
    CALLS,
    ENDS,
    INIT,
    PAGE,
    _line,
    _reading_tty,
    _until,
    _writing,
)
from tests.helpers.cli import FOREST
from tests.helpers.git import git_env
from tests.helpers.watch import bound_repo

pytest.importorskip("mcp")
pty = pytest.importorskip("pty")
tty = pytest.importorskip("tty")
pytestmark = [pytest.mark.slow, pytest.mark.serial]  # a server process, and signals

HUNG_UP = 128 + signal.SIGHUP


def _session_terminal() -> None:
    """In the child: a session of its own whose controlling terminal is its stdin, so
    closing the terminal's other end sends it SIGHUP, as closing a window does."""
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def _serve(root: Path, slave: int, *, session: bool) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    return subprocess.Popen(
        [FOREST, "mcp"],
        cwd=root,
        env={**env, **git_env()},
        stdin=slave,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=_session_terminal if session else None,
    )


def _send(master: int, data: bytes) -> None:
    while data:  # a terminal's input queue takes a few KiB at a time
        data = data[os.write(master, data[:1024]) :]


class _Master:
    """The terminal's other end, open until the test hangs it up."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def hang_up(self) -> None:
        os.close(self.fd)
        self.fd = -1


@contextmanager
def _reaped(proc: subprocess.Popen[bytes], master: _Master) -> Iterator[None]:
    """The block, then the terminal closed if it is still open and ``proc`` killed if
    it still runs: nothing outlives a failed test."""
    try:
        yield
    finally:
        if master.fd >= 0:
            os.close(master.fd)
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _ended(proc: subprocess.Popen[bytes], root: Path) -> None:
    """``proc`` ended as a hang-up ends it: 129, one ``forest: terminated`` line last,
    no traceback, no crash log."""
    assert proc.stdout is not None and proc.stderr is not None
    err = proc.stderr.read().decode(errors="replace")
    proc.stdout.close()
    proc.stderr.close()
    assert proc.returncode == HUNG_UP, err
    assert err.splitlines()[-1] == "forest: terminated", err
    assert "internal error" not in err and "Traceback" not in err, err
    assert not list((root / ".git" / "forest" / "crash").glob("*.log")), err


@pytest.mark.parametrize("how", ["signal", "closed", "session"])
def test_mcp_terminal_hung_up_while_reading_ends_recovers(tmp_path: Path, how: str) -> None:
    """Stdin a terminal, initialize answered, the next request awaited; then
    ``signal``: SIGHUP alone; ``closed``: the terminal's other end closed (the read
    fails with EIO, no signal: not the session's terminal); ``session``: the session's
    own terminal closed (SIGHUP and EIO together, whichever comes first). It ended
    ``internal error (ExceptionGroup)``, exit 3 and a crash log, at EIO."""
    root = bound_repo(tmp_path)
    master, slave = pty.openpty()
    tty.setraw(slave)
    proc = _serve(root, slave, session=how == "session")
    os.close(slave)
    assert proc.stdout is not None
    end = _Master(master)
    with _reaped(proc, end):
        _send(master, _line({"id": 0, "method": "initialize", "params": INIT}))
        assert b'"id":0' in proc.stdout.readline()
        _until(lambda: _reading_tty(proc.pid), "the read of the next request")
        if how == "signal":
            proc.send_signal(signal.SIGHUP)
        else:
            end.hang_up()
        proc.wait(timeout=ENDS)
    _ended(proc, root)


def test_mcp_terminal_hung_up_while_write_blocked_ends_recovers(tmp_path: Path) -> None:
    """Answers fill the stdout pipe nobody reads, so a write blocks; the terminal the
    requests come from hangs up, so the next read fails (EIO). It ends within ``ENDS``
    seconds as a hang-up (it ended in an internal error and a crash log). Buffered
    stdout, as a client launches it: the blocked write holds its lock."""
    root = bound_repo(tmp_path)
    master, slave = pty.openpty()
    tty.setraw(slave)
    proc = _serve(root, slave, session=False)
    os.close(slave)
    assert proc.stdout is not None
    fcntl.fcntl(proc.stdout.fileno(), fcntl.F_SETPIPE_SZ, PAGE)
    end = _Master(master)
    with _reaped(proc, end):
        call = {"name": "ground", "arguments": {}}
        sent = [_line({"id": 0, "method": "initialize", "params": INIT})]
        sent.append(_line({"method": "notifications/initialized"}))
        sent += [_line({"id": n, "method": "tools/call", "params": call}) for n in range(1, CALLS)]
        _send(master, b"".join(sent))
        _until(lambda: _writing(proc.pid), "a write blocked on the full stdout pipe")
        _until(lambda: _reading_tty(proc.pid), "the read of the next request")
        end.hang_up()  # the blocked read fails with EIO
        proc.wait(timeout=ENDS)
    _ended(proc, root)
