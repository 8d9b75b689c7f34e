"""The target file of a migration: refused if anything is there, built beside it, linked in.

Stores: a temporary file beside the target (``.<name>.*.migrating``), linked to
the target's name only when the copy is finished (a checked rename where the
filesystem has no hard links), then the directory synced; a failed run
removes the temporary file and its SQLite side files. Root's temporary file in a
``.git/forest`` another user owns is given to that user (kernel/handover.py).
Refuses: an existing target, even an empty one or a dangling link, or a
leftover SQLite journal (-wal, -shm, -journal) beside it; a target directory
that does not exist; a target that appeared while the copy ran; a target folder this
user may not enter or write, in one line naming the target and kernel/access.py's fix.
Returns: the temporary path (``temp_beside``); nothing else.
Test: tests/face/test_migrate.py (through ``forest_files.migrate``),
tests/store/test_migrate_target_access.py, tests/doors/test_state_of_another_owner.py
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from forest_files.kernel.access import access_fix
from forest_files.kernel.cache import fsync_dir
from forest_files.kernel.errors import ForestError
from forest_files.kernel.handover import hand_over

_SIDE_FILES = ("-wal", "-shm", "-journal")


def refuse_existing_target(new: Path) -> None:
    for path in (new, *(Path(f"{new}{s}") for s in _SIDE_FILES)):
        try:
            there = path.exists() or path.is_symlink()
        except OSError as exc:  # a folder on the way this user may not enter (root's 0700)
            raise _out_of_reach(new, exc) from None
        if there:
            raise ForestError(
                f"refusing to overwrite existing file: {path}; choose a new target path"
            )


def temp_beside(new: Path) -> Path:
    try:
        fd, name = tempfile.mkstemp(prefix=f".{new.name}.", suffix=".migrating", dir=new.parent)
    except FileNotFoundError:
        raise ForestError(f"target directory does not exist: {new.parent}") from None
    except OSError as exc:  # a folder this user may not write: named by the target, not ours
        raise _out_of_reach(new, exc) from None
    hand_over(fd, name)  # root's, in another user's state folder: theirs, and SQLite's side files
    os.close(fd)
    return Path(name)


def _out_of_reach(new: Path, exc: OSError) -> ForestError:
    """The one line for a target whose folder this user may not enter or write: the
    target and kernel/access.py's fix (its folder's ``chmod``, another user's ``chown``)."""
    fix = access_fix(str(new), exc)
    return ForestError(
        f"cannot write target {new} ({exc.strerror}); {fix}, then run the command again"
    )


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
