"""``python -m forest_files.doors.watch``: the detached watcher's entry (``forest watch --detach``).

Stores: see daemon.py; a crash log for an internal error (doors/boundary.py).
Refuses: bad options (exit 2), a second watcher (exit 1); a damaged index or
ledger exits 3, and so does an internal error, its crash log named on stderr
(the watch log, where a detached watcher's stderr goes).
Returns: the exit code. Free of typer: the child starts fast. ``--typed-in DIR`` (the
parent's): the commands it prints are reached from DIR (``--typed-absolute``: by the
top's absolute path, as the user typed it).
Test: tests/doors/test_watch_daemon.py, tests/doors/test_boundary.py,
tests/doors/test_watch_detach.py
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def _options(argv: list[str] | None) -> argparse.Namespace:
    from forest_files.doors.watch.settings import WatchSettings

    p = argparse.ArgumentParser(prog="python -m forest_files.doors.watch")
    p.add_argument("--repo", type=Path, default=Path("."))
    p.add_argument("--quiet", type=float, default=WatchSettings.quiet)
    p.add_argument("--ceiling", type=float, default=WatchSettings.ceiling)
    p.add_argument("--grace", type=float, default=WatchSettings.grace)
    p.add_argument("--reconcile", type=float, default=WatchSettings.reconcile)
    p.add_argument("--poll", action="store_true")
    p.add_argument("--poll-interval", type=float, default=WatchSettings.poll_interval)
    p.add_argument("--notify", action="store_true")
    # Where the user typed `forest watch --detach` (detach.py): what the watcher prints
    # is reached from there, as the foreground watcher's is.
    p.add_argument("--typed-in", default=None, help=argparse.SUPPRESS)
    # The user reached the work tree by an absolute path (``-C /abs/repo``, ``--repo
    # /abs/repo``): the commands it prints reach it by that path too.
    p.add_argument("--typed-absolute", action="store_true", help=argparse.SUPPRESS)
    return p.parse_args(argv)


def _watch(a: argparse.Namespace) -> int:
    from forest_files.doors.watch.daemon import run_foreground
    from forest_files.doors.watch.settings import WatchSettings

    if a.typed_in is not None:
        from forest_files.custody.repository import find_root
        from forest_files.kernel.standing import stand_at, typed_in

        typed_in(a.typed_in, absolute=a.typed_absolute)
        stand_at(find_root(a.repo))

    settings = WatchSettings(
        quiet=a.quiet,
        ceiling=a.ceiling,
        grace=a.grace,
        reconcile=a.reconcile,
        poll=a.poll,
        poll_interval=a.poll_interval,
    )
    return run_foreground(a.repo, settings, notify=a.notify)


def main(argv: list[str] | None = None) -> int:
    from forest_files.doors.boundary import run_guarded

    args = sys.argv[1:] if argv is None else argv
    a = _options(args)  # a bad option: argparse's usage line, exit 2
    line = [sys.executable, "-m", "forest_files.doors.watch", *args]
    return run_guarded(
        "watch", lambda: _watch(a), line, repo=a.repo, prefix="forest watch", audit=None
    )


if __name__ == "__main__":
    sys.exit(main())
