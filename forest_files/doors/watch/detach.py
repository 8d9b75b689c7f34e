"""``forest watch --detach``: start the watcher as a child, and say so only once it watches.

The child is started by ``kernel.spawn`` (isolated, its own session, its stderr
appended to the watch log). The handshake is the one the watcher keeps anyway:
its pid file (the lock is held) and then its state file, which
``run_foreground`` writes only once the watcher has read forest.toml and the
bindings and is observing (daemon.py); the state an earlier watcher left is
removed first. A child that exits instead is heard through its log: its one
``forest watch:`` line, said after the log's length when it was started.
Stores: nothing itself (the log, through the child).
Refuses: a watcher already running (naming ``forest watch stop``, as the user
reaches it: ``forest_text``); a child that did not start: its own refusal
(``the watcher did not start: …``), as the refusal type its exit code stands for
(2 a broken forest.toml, 3 a damaged ledger or index), else its exit code and
the log; one that did not start in ``START_TIMEOUT`` seconds (stopped). The child
is handed the directory the user typed the command in (``--typed-in``), so the
commands its refusal and its log lines name are reached from there (``forest -C
../repo verify``), by the top's absolute path when the user typed one
(``--typed-absolute``).
Returns: the watching child's pid.
Test: tests/doors/test_watch_detach.py, tests/doors/test_watch_daemon.py
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

from forest_files.doors.watch.lock import running
from forest_files.kernel import spawn as childproc
from forest_files.kernel.errors import ForestError, StoreBusy, StoreCorruption, UnusableConfig
from forest_files.kernel.exits import EXIT_BUSY, EXIT_CORRUPT, EXIT_USAGE
from forest_files.kernel.paths import WATCH_LOG, WATCH_STATE
from forest_files.kernel.shellword import forest_text, printable
from forest_files.kernel.standing import reach, where_typed
from forest_files.kernel.state import open_append, worktree_dir

START_TIMEOUT = 120.0  # its start reads the bindings: a first index of a large tree


def detach(root: Path, args: list[str]) -> int:
    """Start a watcher in its own session; return its pid once it has read forest.toml
    and the bindings and observes (else its refusal, as a ``ForestError``)."""
    from forest_files.custody.repository import find_root

    root = find_root(root)
    if (pid := running(root)) is not None:
        raise ForestError(
            f"a watcher already runs for {root} (pid {pid}); `{forest_text('watch', 'stop')}`"
        )
    log_path = worktree_dir(root) / WATCH_LOG
    with os.fdopen(open_append(log_path, WATCH_LOG), "ab") as err:
        said_from = os.fstat(err.fileno()).st_size  # the child's refusal is said after this
        # Isolated, in its own session (kernel.spawn): the repository's own modules
        # (an ``argparse.py`` at its root) are never imported by it.
        # Where the user typed `forest watch --detach`: the commands the child's refusal
        # (or any line it says) names are reached from there, as the foreground's are.
        typed = where_typed()
        # One word, --typed-in=DIR: a directory whose name starts with "-" stays its value.
        here: tuple[str, ...] = (f"--typed-in={typed}",) if typed is not None else ()
        if typed is not None and os.path.isabs(reach()):  # the user typed an absolute -C
            here += ("--typed-absolute",)  # or --repo: the child's lines keep it too
        started = childproc.spawn(
            "forest_files.doors.watch", "--repo", str(root), *here, *args, log=err, cwd=root
        )
    if started is None:
        raise ForestError(
            "the watcher could not be started here; run it in the foreground: "
            + forest_text("watch")
        )
    return _handshake(root, started.proc, log_path, said_from)


def _handshake(root: Path, child: subprocess.Popen[bytes], log_path: Path, said_from: int) -> int:
    """Wait until the child watches (its pid and its state file: ``_watching``), or
    exits: then say why, in its own words when its log has them."""
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if _watching(root, child.pid):
            return child.pid
        try:
            code = child.wait(timeout=0.05)
        except subprocess.TimeoutExpired:
            continue
        if (other := running(root)) is not None:  # a watcher started beside this one won
            raise ForestError(
                f"a watcher already runs for {root} (pid {other}); `{forest_text('watch', 'stop')}`"
            )
        if (why := _refusal(log_path, said_from)) is not None:  # exits as the child did
            raise _REFUSED_AS.get(code, ForestError)(f"the watcher did not start: {why}")
        raise ForestError(f"the watcher exited at start ({code}); see {log_path}")
    child.terminate()
    raise ForestError(f"the watcher did not start in {START_TIMEOUT:.0f} s; see {log_path}")


def _watching(root: Path, pid: int) -> bool:
    """Whether the watcher ``pid`` holds the lock and has written its state: it read
    forest.toml and the bindings and observes (``run_foreground``)."""
    if running(root) != pid:
        return False
    from forest_files.kernel.cache import open_record

    try:  # never through a link, nor waiting on a FIFO put at its name
        with open_record(worktree_dir(root) / WATCH_STATE) as fh:
            state = json.loads(fh.read())
    except (OSError, ValueError):
        return False  # not written yet (or mid-replace: read again)
    return isinstance(state, dict) and state.get("pid") == pid and state.get("running") is True


# The child's exit code (kernel/exits.py) as the refusal that gives it here again.
_REFUSED_AS: dict[int, type[ForestError]] = {
    EXIT_USAGE: UnusableConfig,
    EXIT_CORRUPT: StoreCorruption,
    EXIT_BUSY: StoreBusy,
}
_REFUSAL_BYTES = 1 << 16  # of the log, from where it ended when the child was started


def _refusal(log_path: Path, start: int) -> str | None:
    """The child's one ``forest watch:`` line in its log (its stderr), after ``start``."""
    try:  # never through a link planted at the log's name meanwhile
        fd = os.open(log_path, os.O_RDONLY | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0))
        with os.fdopen(fd, "rb") as fh:
            fh.seek(start)
            said = fh.read(_REFUSAL_BYTES).decode("utf-8", "surrogateescape")
    except OSError:
        return None
    lines = [x for x in said.splitlines() if x.startswith("forest watch: ")]
    # Spelled as `forest check` spells names: a byte that is not UTF-8 as \xNN.
    return printable(lines[-1][len("forest watch: ") :]) if lines else None
