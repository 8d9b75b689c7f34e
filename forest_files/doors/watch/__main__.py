"""``python -m forest_files.doors.watch``: the detached watcher's entry (``forest watch --detach``).

Stores: see daemon.py. Refuses: bad options (exit 2), a second watcher (exit 1).
Returns: the exit code. Free of typer: the child starts fast.
Test: tests/test_watch_daemon.py
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    from forest_files.doors.watch.daemon import run_foreground
    from forest_files.doors.watch.settings import WatchSettings
    from forest_files.kernel.errors import ForestError
    from forest_files.kernel.exits import exit_code, one_line

    p = argparse.ArgumentParser(prog="python -m forest_files.doors.watch")
    p.add_argument("--repo", type=Path, default=Path("."))
    p.add_argument("--quiet", type=float, default=WatchSettings.quiet)
    p.add_argument("--ceiling", type=float, default=WatchSettings.ceiling)
    p.add_argument("--grace", type=float, default=WatchSettings.grace)
    p.add_argument("--reconcile", type=float, default=WatchSettings.reconcile)
    p.add_argument("--poll", action="store_true")
    p.add_argument("--poll-interval", type=float, default=WatchSettings.poll_interval)
    p.add_argument("--notify", action="store_true")
    a = p.parse_args(argv)
    try:
        settings = WatchSettings(
            quiet=a.quiet,
            ceiling=a.ceiling,
            grace=a.grace,
            reconcile=a.reconcile,
            poll=a.poll,
            poll_interval=a.poll_interval,
        )
        return run_foreground(a.repo, settings, notify=a.notify)
    except (ForestError, OSError) as exc:
        print(f"forest watch: {one_line(exc)}", file=sys.stderr)
        return exit_code(exc)


if __name__ == "__main__":
    sys.exit(main())
