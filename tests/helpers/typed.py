"""``forest ARGS`` typed in a repository, run in this process as the console script runs
it: entry.py ``main`` (dispatch, the full CLI's group, both error boundaries), with the
suite's fixed git, standing in the repository, and the output of the command and of every
process it starts (file descriptors 1 and 2) captured, as a terminal would show them.

For a test that types many recording commands (the crash matrix's "typed again"): the
same code a typed command runs, without an interpreter start and imports of its own each
time. The light doors (``check``, ``status``, ``ci``) end their process (boundary.py
``leave``), so they, and a global option before the command, run in a process of their
own (``LIGHT``). A command still running after ``TIMEOUT`` seconds raises ``Hung``, past
the error boundary.
"""

from __future__ import annotations

import gc
import os
import signal
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager

from tests.helpers.git import git_env

TIMEOUT = 120  # seconds a command may run before the test fails
LIGHT = frozenset({"check", "ci", "status"})  # entry.py's light doors: their end is os._exit


class Hung(BaseException):
    """A typed command still running after ``TIMEOUT`` s (past the error boundary)."""


def light(args: tuple[str, ...]) -> bool:
    """Whether ``forest ARGS`` must run in a process of its own (see the module's text)."""
    return not args or args[0] in LIGHT or args[0].startswith("-")


def typed_here(args: tuple[str, ...]) -> tuple[int, str, str]:
    """``forest ARGS`` in this process, standing where this process stands: its exit code,
    standard output and standard error (its children's included)."""
    from forest_files.doors.entry import main
    from forest_files.kernel.standing import stand_at, typed_in

    kept = (sys.argv, gc.isenabled(), signal.signal(signal.SIGALRM, _hung))
    code = 0
    try:
        with _fixed_git(), _output() as said:
            signal.setitimer(signal.ITIMER_REAL, TIMEOUT)
            sys.argv = ["forest", *args]
            try:
                main()
            except SystemExit as done:
                code = done.code if isinstance(done.code, int) else int(done.code is not None)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, kept[2])
        sys.argv = kept[0]
        if kept[1]:
            gc.enable()  # entry.main turned it off for its one command (one_shot_gc)
        typed_in(None)
        stand_at(None)
    return code, said[0], said[1]


def _hung(_signum: int, _frame: object) -> None:
    raise Hung(f"still running after {TIMEOUT} s")


@contextmanager
def _fixed_git() -> Iterator[None]:
    """The suite's fixed git alone: other ``GIT_*`` variables of this process hidden."""
    fixed = git_env()
    hidden = {k: v for k, v in os.environ.items() if k.startswith("GIT_") and k not in fixed}
    before = {k: os.environ.get(k) for k in fixed}
    for name in hidden:
        del os.environ[name]
    os.environ.update(fixed)
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        os.environ.update(hidden)


@contextmanager
def _output() -> Iterator[list[str]]:
    """File descriptors 1 and 2 (and ``sys.stdout``/``sys.stderr`` on them) sent to files
    for the block; what each held, decoded, in the list after it."""
    said: list[str] = []
    streams = (sys.stdout, sys.stderr)
    for stream in streams:
        stream.flush()
    saved = (os.dup(1), os.dup(2))
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        try:
            os.dup2(out.fileno(), 1)
            os.dup2(err.fileno(), 2)
            sys.stdout = open(1, "w", encoding="utf-8", errors="surrogateescape", closefd=False)  # noqa: SIM115
            sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False)  # noqa: SIM115
            yield said
        finally:
            for stream in (sys.stdout, sys.stderr):
                try:  # noqa: SIM105
                    stream.flush()
                except (OSError, ValueError):
                    pass  # the command closed it: what it wrote is in the file
            sys.stdout, sys.stderr = streams
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            for fd in saved:
                os.close(fd)
            for held in (out, err):
                held.seek(0)
                said.append(held.read().decode("utf-8", "replace"))
