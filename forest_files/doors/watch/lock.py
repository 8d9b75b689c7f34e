"""One watcher per repository: an flock held for the watcher's lifetime, and its pid.

Stores: ``<git-dir>/forest/watch.lock`` (the lock; the kernel releases it when the
process dies, even by ``kill -9``) and ``<git-dir>/forest/watch.pid`` (advice for
``stop``/``status``; the lock decides); root's lock in a git directory another user
owns is given to that user (kernel/handover.py). A pid file left by a dead watcher is
recovered: the next watcher overwrites it and says so.
Refuses: a second watcher while the lock is held (``WatcherRunning``, naming
the pid and how to stop it); a symlink or other non-file at the lock's name
(``StateError``, naming its removal). The pid file is replaced through a temp
file created ``O_EXCL|O_NOFOLLOW``: a link planted at either name is never
written through.
Returns: ``WatchLock`` (``acquire``/``release``), ``running(root)`` → pid or None.
Test: tests/doors/test_watch_daemon.py, tests/doors/test_state_of_another_owner.py
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path

from forest_files.kernel.cache import open_record, replace_atomically
from forest_files.kernel.errors import ForestError
from forest_files.kernel.handover import hand_over
from forest_files.kernel.paths import WATCH_LOCK, WATCH_PID
from forest_files.kernel.shellword import forest_text
from forest_files.kernel.state import refuse_linked_file, worktree_dir


class WatcherRunning(ForestError):
    """Another watcher holds this repository's lock."""


def _read_pid(root: Path) -> int | None:
    try:  # never through a link, nor waiting on a FIFO put at its name (kernel/cache.py)
        with open_record(worktree_dir(root) / WATCH_PID) as fh:
            return int(fh.read(64).decode("ascii").strip())
    except (OSError, ValueError):
        return None


def _try_lock(root: Path) -> int | None:
    """An fd holding the lock, or None when another process (or handle) holds it."""
    path = worktree_dir(root) / WATCH_LOCK
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o644)
    except OSError:
        refuse_linked_file(path, WATCH_LOCK)  # a link or a non-file: named, with its removal
        raise
    hand_over(fd, str(path))  # root's, in another user's git directory: theirs
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    return fd


def running(root: Path) -> int | None:
    """The pid of the watcher holding the lock (-1 if it wrote no pid yet), or None.
    No lock file at all: no watcher ever ran here, and asking creates nothing."""
    from forest_files.kernel.state import worktree_path

    if not os.path.exists(os.path.join(worktree_path(root, create=False), WATCH_LOCK)):
        return None
    fd = _try_lock(root)
    if fd is None:
        return _read_pid(root) or -1
    os.close(fd)  # nobody held it: no watcher (a pid file there is stale)
    return None


class WatchLock:
    def __init__(self, root: Path) -> None:
        self.root = root
        self._fd: int | None = None
        self.recovered: int | None = None  # the dead watcher's pid, when its file was left

    def acquire(self) -> None:
        fd = _try_lock(self.root)
        if fd is None:
            pid = _read_pid(self.root)
            raise WatcherRunning(
                f"a watcher already runs for {self.root} (pid {pid or '?'}); see "
                f"`{forest_text('watch', 'status')}`, stop it with `{forest_text('watch', 'stop')}`"
            )
        self._fd = fd
        old = _read_pid(self.root)
        if old is not None and old != os.getpid():
            self.recovered = old
        # Never through a link planted at the file or its temp name (cache.py).
        pid_file = worktree_dir(self.root) / WATCH_PID
        replace_atomically(str(pid_file), f"{os.getpid()}\n".encode("ascii"), mode=0o644)

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is None:
            return
        if _read_pid(self.root) == os.getpid():
            with contextlib.suppress(FileNotFoundError):
                (worktree_dir(self.root) / WATCH_PID).unlink()
        os.close(fd)
