"""The git commands a run started, counted from git's own trace (``GIT_TRACE``).

Each git process writes a ``trace: built-in: git …`` line to the file ``GIT_TRACE``
names; a test counts those lines, never the time they took. ``traced_forest`` runs the
console script a user types as a process of its own, traced; ``traced_env`` gives any
child process that variable, ``git_traced`` gives it to this process's own git calls
for a block; ``git_commands`` reads back what git ran.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.helpers.git import git_env

_BUILT_IN = "trace: built-in: "
ENTRY = "from forest_files.doors.entry import main; main()"  # the ``forest`` console script


def git_commands(trace: Path) -> list[str]:
    """Each git command the trace file records (``git rev-parse …``), in order; none
    when no git process wrote to it."""
    said = trace.read_text(encoding="utf-8") if trace.exists() else ""
    return [x.split(_BUILT_IN, 1)[1] for x in said.splitlines() if f"{_BUILT_IN}git " in x]


def traced_env(trace: Path) -> dict[str, str]:
    """This process's environment and the test git's, git tracing to ``trace`` (emptied
    first, so that it holds one run's commands)."""
    trace.unlink(missing_ok=True)
    return {**os.environ, **git_env(), "GIT_TRACE": str(trace)}


@contextmanager
def git_traced(monkeypatch: pytest.MonkeyPatch, trace: Path) -> Iterator[Path]:
    """Git tracing to ``trace`` for the block's git processes (this process's children),
    no longer after it; ``trace``."""
    monkeypatch.setenv("GIT_TRACE", str(trace))
    try:
        yield trace
    finally:
        monkeypatch.delenv("GIT_TRACE")


def traced_forest(
    repo: Path, *args: str, python: tuple[str, ...] = ()
) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    """``forest ARGS`` as its own process in ``repo`` (``python``: the interpreter's
    options, ``-X importtime``), to its end: its output, and the git commands it ran."""
    trace = repo.parent / "git-trace.txt"
    done = subprocess.run(
        [sys.executable, *python, "-c", ENTRY, *args],
        cwd=repo,
        env=traced_env(trace),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return done, git_commands(trace)
