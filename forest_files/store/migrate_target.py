"""The target file of a migration: refused if anything is there, built beside it, linked in.

Stores: a temporary file beside the target (``.<name>.*.migrating``), linked to
the target's name only when the copy is finished (a checked rename where the
filesystem has no hard links), then the directory synced; a failed run
removes the temporary file and its SQLite side files.
Refuses: an existing target, even an empty one or a dangling link, or a
leftover SQLite journal (-wal, -shm, -journal) beside it; a target directory
that does not exist; a target that appeared while the copy ran.
Returns: the temporary path (``temp_beside``); nothing else.
Test: tests/face/test_migrate.py (through ``forest_files.migrate``)
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from forest_files.kernel.cache import fsync_dir
from forest_files.kernel.errors import ForestError

_SIDE_FILES = ("-wal", "-shm", "-journal")


def refuse_existing_target(new: Path) -> None:
    for path in (new, *(Path(f"{new}{s}") for s in _SIDE_FILES)):
        if path.exists() or path.is_symlink():
            raise ForestError(
                f"refusing to overwrite existing file: {path}; choose a new target path"
            )


def temp_beside(new: Path) -> Path:
    try:
        fd, name = tempfile.mkstemp(prefix=f".{new.name}.", suffix=".migrating", dir=new.parent)
    except FileNotFoundError:
        raise ForestError(f"target directory does not exist: {new.parent}") from None
    os.close(fd)
    return Path(name)


def publish(tmp: Path, new: Path) -> None:
    """Give the finished file its name without ever replacing one that appeared meanwhile."""
    try:
        os.link(tmp, new)
    except FileExistsError:
        raise ForestError(f"refusing to overwrite existing file: {new}") from None
    except OSError:
        # No hard links on this filesystem: a checked rename (racy only here).
        if new.exists():
            raise ForestError(f"refusing to overwrite existing file: {new}") from None
        os.replace(tmp, new)
    else:
        tmp.unlink()
    fsync_dir(new.parent)


def discard(tmp: Path) -> None:
    for path in _with_side_files(tmp):
        path.unlink(missing_ok=True)


def _with_side_files(path: Path) -> Iterator[Path]:
    yield path
    for suffix in _SIDE_FILES:
        yield Path(f"{path}{suffix}")
