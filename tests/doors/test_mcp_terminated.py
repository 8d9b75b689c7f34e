"""``forest mcp`` told to stop (SIGTERM, as an agent host stops its server, or Ctrl-C)
while its client reads nothing: the server ends within a bounded time with the
terminated (or interrupted) code and its one line, whether a write into the full
stdout pipe blocks or only the read of the next request does; the audit log of the
calls it answered stays whole. Ended by an internal error instead while a write
blocks: the boundary's line, its crash log, exit 3, within moments. (A terminal
hanging up is a stop: test_mcp_hangup.py.)"""

from __future__ import annotations

import fcntl
import json
import os
import signal
import subprocess
import termios
import time
from pathlib import Path

import pytest

from forest_files.custody.auditlog import AuditLog
from tests.helpers.cli import FOREST
from tests.helpers.git import git_env
from tests.helpers.watch import bound_repo

pytest.importorskip("mcp")
pytestmark = [pytest.mark.slow, pytest.mark.serial]  # a server process, and signals

CLIENT = {"name": "t", "version": "1"}
INIT = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": CLIENT}
WAIT = 60.0  # for the server to answer into the pipe: generous, a hang still fails
ENDS = 10.0  # for it to end once told: "a few seconds", with room for a loaded machine
CALLS = 40  # answers far over one page-sized pipe
PAGE = 4096  # the smallest pipe Linux makes


def _line(body: dict[str, object]) -> bytes:
    return json.dumps({"jsonrpc": "2.0", **body}).encode() + b"\n"


def _unread(fd: int) -> int:
    """Bytes waiting in the pipe ``fd`` reads."""
    return int.from_bytes(fcntl.ioctl(fd, termios.FIONREAD, b"\0" * 4), "little")


def _writing(pid: int) -> bool:
    """Whether a thread of ``pid`` waits in the kernel to write into a full pipe (a
    pipe's free room need not reach its size: a write waits for room for its whole)."""
    return any("pipe_write" in p.read_text() for p in Path(f"/proc/{pid}/task").glob("*/wchan"))


def _reading_tty(pid: int) -> bool:
    """Whether a thread of ``pid`` waits in the kernel to read a terminal (every
    request read, the next awaited)."""
    return any("wait_woken" in p.read_text() for p in Path(f"/proc/{pid}/task").glob("*/wchan"))


def _until(test: object, what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not test():  # type: ignore[operator]
        if time.monotonic() > deadline:
            pytest.fail(f"{what} not within {WAIT}s")
        time.sleep(0.02)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
@pytest.mark.parametrize("stdout", ["full", "idle"])
def test_mcp_stopped_while_client_reads_nothing_ends_recovers(
    tmp_path: Path, sig: signal.Signals, stdout: str
) -> None:
    """``full``: answers fill the stdout pipe nobody reads, so a write blocks; ``idle``:
    one answer waits unread and the server waits for the next request. Told to stop,
    it ends within ``ENDS`` seconds, 143 (128 + SIGTERM) or 130, its last stderr line
    ``forest: terminated`` or ``forest: interrupted`` (it printed the line, then hung
    for ever: its blocked read or write kept the process alive)."""
    root = bound_repo(tmp_path)
    proc = subprocess.Popen(
        [FOREST, "mcp"],
        cwd=root,
        env={**os.environ, **git_env()},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # as a terminal's
    )
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    out = proc.stdout.fileno()
    fcntl.fcntl(out, fcntl.F_SETPIPE_SZ, PAGE)
    try:
        sent = [_line({"id": 0, "method": "initialize", "params": INIT})]
        sent.append(_line({"method": "notifications/initialized"}))
        calls = CALLS if stdout == "full" else 1
        call = {"name": "ground", "arguments": {}}
        sent += [_line({"id": n, "method": "tools/call", "params": call}) for n in range(1, calls)]
        proc.stdin.write(b"".join(sent))
        proc.stdin.flush()
        if stdout == "full":
            _until(lambda: _writing(proc.pid), "a write blocked on the full stdout pipe")
        else:
            _until(lambda: _unread(out) > 0, "the answer to initialize")
        proc.send_signal(sig)
        code = proc.wait(timeout=ENDS)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    err = proc.stderr.read().decode(errors="replace")
    for pipe in (proc.stdin, proc.stdout, proc.stderr):
        pipe.close()
    said = "forest: terminated" if sig == signal.SIGTERM else "forest: interrupted"
    assert code == (143 if sig == signal.SIGTERM else 130), err
    assert err.splitlines()[-1] == said and "Traceback" not in err, err
    with AuditLog(root) as log:  # every call it answered recorded whole, none torn
        assert log.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


STRANDED = """
import sys, threading
from forest_files.doors.boundary import stranded
def fill():
    sys.stdout.buffer.write(b"x" * (1 << 20))  # into a pipe nobody reads: blocks
threading.Thread(target=fill, daemon=True).start()
sys.stdin.readline()  # the test saw the write block
stranded(RuntimeError("boom"), "mcp", sys.argv, repo=".")
"""


def test_mcp_internal_error_while_write_blocked_ends_recovers(tmp_path: Path) -> None:
    """A door (``forest mcp``'s ``serve``) ending in an internal error while a write it
    left behind blocks on the full stdout pipe nobody reads: the boundary's
    ``stranded`` says its internal-error line, writes its crash log and exits 3 within
    ``ENDS`` seconds (it said the line, then hung for ever flushing standard output,
    whose lock the blocked write holds). Buffered stdout, as a client launches it."""
    import sys

    root = bound_repo(tmp_path)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    proc = subprocess.Popen(
        [sys.executable, "-c", STRANDED],
        cwd=root,
        env={**env, **git_env()},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    fcntl.fcntl(proc.stdout.fileno(), fcntl.F_SETPIPE_SZ, PAGE)
    try:
        _until(lambda: _writing(proc.pid), "a write blocked on the full stdout pipe")
        proc.stdin.write(b"go\n")
        proc.stdin.close()
        code = proc.wait(timeout=ENDS)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    err = proc.stderr.read().decode(errors="replace")
    proc.stdout.close()
    proc.stderr.close()
    assert code == 3, err
    last = err.splitlines()[-1]
    assert last.startswith("forest: internal error (") and last.endswith("please report it"), err
    assert "Traceback" not in err and "Fatal Python error" not in err, err
    assert list((root / ".git" / "forest" / "crash").glob("*.log")), err
