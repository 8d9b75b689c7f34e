"""Fixtures of the custody tests: a folder on another file system than the test's own,
for a git directory the old layout's files must be copied to (a rename fails with
``EXDEV``): tests/custody/test_relocate_no_space.py, test_relocate_killed.py."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

_SHM = Path("/dev/shm")


@pytest.fixture
def git_dir_elsewhere(tmp_path: Path) -> Iterator[Path]:
    """A folder on another file system than ``tmp_path`` for the git directory."""
    if sys.platform == "win32" or not _SHM.is_dir() or not os.access(_SHM, os.W_OK):
        pytest.skip("no /dev/shm to put the git directory on")
    if os.stat(_SHM).st_dev == os.stat(tmp_path).st_dev:
        pytest.skip("/dev/shm is on the test's own file system")
    there = Path(tempfile.mkdtemp(dir=_SHM))
    try:
        yield there
    finally:
        shutil.rmtree(there, ignore_errors=True)
