"""Running the watcher as a process: foreground, stopped, and its status (detached: detach.py).

Stores: the lock and pid file (lock.py); a rotating log ``<git-dir>/forest/watch.log``
(1 MiB, 3 kept; lines carry paths, selectors, hashes — never section text; each file
root opens in another user's git directory given to that user); the
state ``<git-dir>/forest/watch.json`` (mode, fallback, open findings, recent
errors, the error in force, the git marker a batch waits on) once it has read
forest.toml and the bindings and observes (the handshake ``--detach`` waits on;
an earlier watcher's is removed when the lock is taken), and after every batch.
With ``--notify`` one desktop notification per newly failed finding: its
headline (kind, selector, lines), never its text; a missing or failing
``notify-send`` is logged once.
Refuses: a second watcher (lock.py); a watcher that ignores SIGTERM (naming kill).
Returns: ``run_foreground`` (0 after SIGTERM, SIGINT or SIGHUP: one clean
shutdown), ``stop`` (idempotent: a message); what ``status`` shows: status.py.
Test: tests/doors/test_watch_daemon.py, tests/doors/test_watch_detach.py,
tests/doors/test_state_of_another_owner.py, tests/doors/test_not_utf8_folder.py
"""

from __future__ import annotations

import contextlib
import gc
import json
import logging
import logging.handlers
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Callable, Mapping
from io import TextIOWrapper
from pathlib import Path
from typing import Any

from forest_files.check.findings import Reported
from forest_files.doors.watch.lock import WatchLock, running
from forest_files.doors.watch.respond import Alert, Sink
from forest_files.doors.watch.settings import WatchSettings
from forest_files.doors.watch.watcher import Watcher
from forest_files.kernel.cache import replace_atomically
from forest_files.kernel.errors import ForestError
from forest_files.kernel.paths import WATCH_LOG, WATCH_STATE
from forest_files.kernel.shellword import forest_text, printable
from forest_files.kernel.state import (
    open_append,
    refuse_linked_file,
    worktree_dir,
)

log = logging.getLogger("forest_files.doors.watch")


class OwnersLog(logging.handlers.RotatingFileHandler):
    """The watcher's rotating log: each file it opens (the first, and the one each
    rotation starts) never through a link put at its name (the owner of a git
    directory root works in may plant one as a rotation renames the log away), and
    given to that owner when root makes it there (kernel/state.py ``open_append``),
    so the owner's own watcher can go on writing it."""

    def _open(self) -> TextIOWrapper:  # the one place the handler opens a file
        fd = open_append(self.baseFilename, WATCH_LOG)
        return os.fdopen(fd, "a", encoding=self.encoding, errors=self.errors)


def _log_to_file(root: Path) -> logging.Handler:
    path = worktree_dir(root) / WATCH_LOG
    for kept in (path, *(path.with_name(f"{path.name}.{n}") for n in range(1, 4))):
        refuse_linked_file(kept, WATCH_LOG)  # the handler opens and rotates by name
    # backslashreplace: a line naming a byte that is not UTF-8 (a surrogate) is written,
    # never lost to a logging traceback
    handler = OwnersLog(
        path, maxBytes=1 << 20, backupCount=3, encoding="utf-8", errors="backslashreplace"
    )
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    return handler


def write_state(root: Path, w: Watcher, *, stopped: bool = False) -> None:
    state = {
        "pid": os.getpid(),
        "running": not stopped,
        "mode": w.observers.mode,
        "fallback": w.observers.fallback,
        "head": w.head,
        "open": [
            {"kind": r.finding.kind, "selector": r.finding.selector, "path": r.finding.path}
            for r in w.open_findings()
        ],
        "errors": list(w.errors),
        "problem": w.problem,
        "held": w.held,
        "error_count": w.error_count,
        "events": w.collector.events,
        "checks": w.journal.counts.get("check", 0),
    }
    # Never through a link planted at the file or its temp name (cache.py).
    path = worktree_dir(root) / WATCH_STATE
    replace_atomically(str(path), json.dumps(state, sort_keys=True).encode("utf-8"), mode=0o644)


def notifier() -> Alert:
    """Send a newly failed finding's headline as a desktop notification (notify-send).
    A missing tool is said once at start; a failing one once, then it is not run again."""
    from forest_files.check.text import headline

    tool = shutil.which("notify-send")
    if tool is None:
        log.warning("notify: notify-send is not on PATH; no desktop notifications")

    def send(r: Reported) -> None:
        nonlocal tool
        if tool is None:
            return
        try:
            done = subprocess.run(
                [tool, "forest-files", headline(r)],
                check=False,
                timeout=10,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            failed = f"exit {done.returncode}" if done.returncode else ""
        except (OSError, subprocess.TimeoutExpired) as exc:
            failed = type(exc).__name__
        if failed:
            log.warning("notify: %s failed (%s); no more desktop notifications", tool, failed)
            tool = None

    return send


def settle_gc() -> None:
    """The watcher runs for hours: cyclic collection on (the console script turned it
    off for one-shot commands, entry.py), and what start-up built frozen, so later
    collections need not scan it."""
    gc.enable()
    gc.freeze()


def run_foreground(
    root: Path,
    settings: WatchSettings,
    *,
    sink: Sink | None = None,
    notify: bool = False,
    started: Callable[[], None] | None = None,
) -> int:
    """Watch until SIGTERM, SIGINT or SIGHUP; then stop once, cleanly. ``started`` is
    called once the watcher holds the lock and the log, has read forest.toml and the
    bindings and observes (a refusal says nothing else); the state file is written
    first, the handshake a detached watcher's parent waits on (``detach``)."""
    from forest_files.custody.repository import find_root

    root = find_root(root)
    lock = WatchLock(root)
    # Handlers before the lock: once the pid file names us, a signal must find them.
    # A handler only writes a byte to a pipe that the main thread waits on: it takes
    # no lock (``Event.set`` does, and a handler runs on the main thread, which may
    # hold that very lock: the signal module's docs warn of the deadlock).
    # The pipe is also the wakeup fd: a signal the kernel hands to another thread (the
    # observer's, the worker's) still wakes the main thread's read, which otherwise
    # sleeps on until its own read ends and only then runs the handler.
    wake, poke = os.pipe()
    os.set_blocking(poke, False)
    previous = {s: signal.signal(s, lambda *_: _poke(poke)) for s in _SIGNALS}
    woken = signal.set_wakeup_fd(poke, warn_on_full_buffer=False)
    try:
        lock.acquire()
        try:
            handler = _log_to_file(root)  # a link planted at the log: refused here
            _forget_state(root)  # an earlier watcher's: this one's is written once it watches
        except BaseException:
            lock.release()  # no pid file naming a watcher that never ran
            raise
    except BaseException:
        _restore(previous, woken)
        _close(wake, poke)
        raise
    w = Watcher(root, settings, sink=sink, alert=notifier() if notify else None)
    try:
        if lock.recovered is not None:
            log.info("recovered a stale pid file (pid %s was not running)", lock.recovered)
        w.on_batch = lambda: write_state(root, w)
        w.start()
        settle_gc()
        log.info("watching %s (%s; pid %s)", printable(str(root)), w.observers.mode, os.getpid())
        write_state(root, w)  # the handshake: it has read forest.toml and observes
        if started is not None:
            started()
        os.read(wake, 1)  # until a signal: a read a handler interrupts goes on (PEP 475)
        log.info("stopping (signal)")
    finally:
        w.stop()
        write_state(root, w, stopped=True)
        _restore(previous, woken)
        _close(wake, poke)
        lock.release()
        log.info("stopped")
        log.removeHandler(handler)
        handler.close()
    return 0


_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


def _forget_state(root: Path) -> None:
    """Remove the state file an earlier watcher left (a link planted there: the link)."""
    with contextlib.suppress(FileNotFoundError):
        (worktree_dir(root) / WATCH_STATE).unlink()


def _restore(previous: Mapping[signal.Signals, Any], woken: int) -> None:
    signal.set_wakeup_fd(woken)
    for sig, old in previous.items():
        signal.signal(sig, old)


def _poke(fd: int) -> None:
    with contextlib.suppress(OSError):  # full (a storm of signals) or closed: woken already
        os.write(fd, b"x")


def _close(*fds: int) -> None:
    for fd in fds:
        with contextlib.suppress(OSError):
            os.close(fd)


_STOP_TIMEOUT = 60.0  # above the watcher's own bound: its batch 30 s + its observer 10 s


def stop(root: Path, timeout: float = _STOP_TIMEOUT) -> str:
    """Ask the running watcher to stop and wait until it has; fine when none runs."""
    from forest_files.custody.repository import find_root

    root = find_root(root)
    pid = running(root)
    if pid is None:
        return "no watcher running"
    if pid > 0:
        with contextlib.suppress(ProcessLookupError):  # it died meanwhile: fine
            os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while running(root) is not None:
        if time.monotonic() > deadline:
            raise ForestError(
                f"the watcher (pid {pid}) did not stop in {timeout:.0f} s "
                f"(its log: {worktree_dir(root) / WATCH_LOG}); "
                f"`kill -9 {pid}`, then `{forest_text('watch', 'status')}`"
            )
        time.sleep(0.05)  # polling another process's lock: there is no event to wait on
    return f"stopped the watcher (pid {pid})"
