"""A path nobody may write, not even root: ``chattr +i`` for the length of a test.

Tests run as root in CI containers, where ``chmod a-w`` changes nothing; the
immutable flag holds for root too. Where ``chattr`` is missing or the file
system has no such flag (tmpfs, overlay), the test is skipped, never passed.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


def _chattr(flag: str, path: Path) -> bool:
    tool = shutil.which("chattr")
    if tool is None:
        return False
    done = subprocess.run([tool, flag, str(path)], capture_output=True, check=False)
    return done.returncode == 0


@contextmanager
def immutable(path: Path) -> Iterator[Path]:
    """``path`` flagged immutable inside the block (the flag always undone after)."""
    if not _chattr("+i", path):
        pytest.skip(f"chattr +i does not work on {path} here")
    try:
        yield path
    finally:
        _chattr("-i", path)
