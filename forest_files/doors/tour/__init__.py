"""``forest tour``: the whole tool, walked through in a throwaway repository.

Stores: a workspace with the tour's repository (``canon/``) in a new temporary
directory, removed at the end whatever happens (an error, Ctrl-C, SIGTERM); or,
with ``--keep DIR``, in DIR, which is kept.
Refuses: a ``--keep`` directory that exists and is not empty (``ForestError``,
nothing written); a step whose command answers unexpectedly (session.py).
Returns: nothing; prints each step (narration, ``$`` command, indented output).
Test: tests/doors/test_tour.py
"""

from __future__ import annotations

import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
from contextlib import suppress
from pathlib import Path
from types import FrameType
from typing import TextIO

from forest_files.doors.tour.session import Session
from forest_files.doors.tour.steps import STEPS
from forest_files.kernel.errors import ForestError


def run_tour(keep: Path | None = None, out: TextIO | None = None) -> None:
    """Walk every step of ``steps.STEPS``; leave nothing behind unless ``keep``."""
    work = _workspace(keep)
    previous = signal.getsignal(signal.SIGTERM)
    try:
        session = Session(work, out or sys.stdout)
        _terminate_as_interrupt()
        try:
            _walk(session, keep)
        finally:
            _stop_watcher(session)
    finally:
        if keep is None:
            shutil.rmtree(work, ignore_errors=True)
        with suppress(ValueError):  # not the main thread: nothing was set
            signal.signal(signal.SIGTERM, previous)


def _walk(s: Session, keep: Path | None) -> None:
    where = "kept" if keep is not None else "removed at the end; `forest tour --keep DIR` keeps it"
    s.say(f"forest tour: a throwaway repository in {s.repo} ({where})")
    for n, (narration, step) in enumerate(STEPS, 1):
        s.say()
        s.say(f"{n}/{len(STEPS)}  {narration}")
        step(s)
    s.say()
    s.say("tour complete: every change to bound text went through a recorded act, or was refused")
    if keep is not None:
        s.say(f"look around: cd {shlex.quote(str(s.repo))}")
        for command in (
            "forest status",
            "forest log",
            "forest log 'characters.md#Elias'",
            "git log --oneline --all",
            "forest ci --base main",
        ):
            s.say(f"  {command}")


def _workspace(keep: Path | None) -> Path:
    if keep is None:
        return Path(tempfile.mkdtemp(prefix="forest-tour-"))
    keep = keep.expanduser().absolute()
    if keep.exists() and (not keep.is_dir() or any(keep.iterdir())):
        raise ForestError(
            f"--keep {shlex.quote(str(keep))} exists and is not an empty directory; "
            "name a new one: forest tour --keep DIR"
        )
    keep.mkdir(parents=True, exist_ok=True)
    return keep


def _terminate_as_interrupt() -> None:
    """SIGTERM ends the tour as Ctrl-C does, so its ``finally`` clauses run."""

    def interrupt(_sig: int, _frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    with suppress(ValueError):  # not the main thread: leave signals alone
        signal.signal(signal.SIGTERM, interrupt)


def _stop_watcher(s: Session) -> None:
    """A watcher the tour started and did not stop is stopped before its files go."""
    if s.watching:
        with suppress(OSError, subprocess.SubprocessError):
            subprocess.run(
                [*s.forest, "watch", "stop"],
                cwd=s.repo,
                env=s.env,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                timeout=60,
                check=False,
            )
        s.watching = False
