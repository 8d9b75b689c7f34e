"""Fixtures the door tests share: process ids for the leftovers a killed writer
leaves (``NAME.<pid>.tmp``), one whose process is gone and one still running."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator

import pytest


@pytest.fixture
def dead_pid() -> int:
    """The id of a process that ran and was reaped."""
    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid


@pytest.fixture
def live_pid() -> Iterator[int]:
    """The id of a process running while the test does."""
    child = subprocess.Popen(["sleep", "60"])
    yield child.pid
    child.kill()
    child.wait()
