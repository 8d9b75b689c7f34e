"""The git commands a run started, counted from git's own trace (``GIT_TRACE``).

Each git process writes a ``trace: built-in: git …`` line to the file ``GIT_TRACE``
names; a test counts those lines, never the time they took. ``traced_env`` gives a
child process that variable, ``git_traced`` gives it to this process's own git calls
for a block; ``git_commands`` reads back what git ran.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.helpers.git import git_env

_BUILT_IN = "trace: built-in: "


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
