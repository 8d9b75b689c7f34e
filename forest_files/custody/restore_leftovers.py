"""Temp files a killed restore left beside the files it writes: removed once their writer is gone.

A restore writes each file's new bytes to ``.forest-<pid>-XXXXXXXX.forest-restore``
in the file's directory and renames it into place (restore_files.py ``Staged``);
a SIGKILL between the two leaves it there, untracked, holding text of the file.
Stores: nothing; ``sweep_leftovers`` removes, in the directories of the given
paths only (not below them), each entry whose name is exactly that pattern
(mkstemp's eight characters; or an older version's ``.forest-XXXXXXXX.forest-restore``)
and that is a regular file (``lstat``: a symlink is never followed nor removed, a
directory never entered) once its writer is gone: its pid runs no process here,
or it is older than ``STALE_SECONDS`` (an older version's name carries no pid:
age alone). A restore running meanwhile (another terminal, the watcher) keeps its
own temp file: its pid is alive and its file young.
Refuses: nothing; a file it cannot remove is kept and named.
A proposal adopt writes the proposed text in the same way (restore_rewrite.py), so
its temp files are these too, swept after it as after a restore.
Returns: ``Swept``: the repository paths removed, and those kept (a writer that
may still be running), each with the ``rm`` that removes it; ``swept_lines``: what
a door says of them.
Test: tests/custody/test_restore_leftovers.py,
tests/custody/test_crash_matrix_erase_resolve_adopt.py
"""

from __future__ import annotations

import os
import re
import stat
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from forest_files.custody.content import escapes
from forest_files.custody.restore_files import TMP_PREFIX, TMP_SUFFIX
from forest_files.kernel.pids import writer_gone

# mkstemp's names: eight of "a-z", "0-9" and "_" (tempfile._RandomNameSequence).
_LEFTOVER = re.compile(
    re.escape(TMP_PREFIX) + r"(?:(?P<pid>[0-9]{1,10})-)?[a-z0-9_]{8}" + re.escape(TMP_SUFFIX)
)


@dataclass(frozen=True)
class Swept:
    removed: tuple[str, ...] = ()  # repository paths
    kept: tuple[str, ...] = ()  # a restore may still be writing them


def is_leftover_name(name: str) -> bool:
    """Whether ``name`` is exactly a restore's temp file name."""
    return _LEFTOVER.fullmatch(name) is not None


def _sweep_dir(root: Path, folder: str, now: float, removed: list[str], kept: list[str]) -> None:
    if escapes(root, folder or "."):
        return  # a symlinked directory out of the repository: restore never writes there
    try:
        entries = sorted(os.scandir(root / folder), key=lambda e: e.name)
    except OSError:
        return
    for entry in entries:
        found = _LEFTOVER.fullmatch(entry.name)
        if found is None:
            continue
        try:
            st = entry.stat(follow_symlinks=False)
        except FileNotFoundError:
            continue  # its writer renamed it into place meanwhile
        if not stat.S_ISREG(st.st_mode):
            continue  # a symlink or directory by that name is nobody's temp file
        rel = f"{folder}/{entry.name}" if folder else entry.name
        if not writer_gone(None if found["pid"] is None else int(found["pid"]), st.st_mtime, now):
            kept.append(rel)
            continue
        try:
            os.unlink(entry.path)
        except FileNotFoundError:
            continue
        except OSError:
            kept.append(rel)
            continue
        removed.append(rel)


def sweep_leftovers(root: Path, paths: Iterable[str], *, now: float | None = None) -> Swept:
    """Remove the leftovers of killed restores in the directories of ``paths``
    (repository paths, POSIX); see the module header."""
    clock = time.time() if now is None else now
    removed: list[str] = []
    kept: list[str] = []
    for folder in sorted({p.rpartition("/")[0] for p in paths}):
        _sweep_dir(root, folder, clock, removed, kept)
    return Swept(tuple(removed), tuple(kept))


def swept_lines(swept: Swept) -> list[str]:
    """What a door says of ``swept``: how many were removed (the first named), and
    those a writer may still be writing, with one ``rm`` for them."""
    from forest_files.kernel.shellword import command_text, in_batches, printable

    lines = []
    if swept.removed:
        more = f" and {len(swept.removed) - 1} more" if len(swept.removed) > 1 else ""
        lines.append(
            f"removed {printable(swept.removed[0])}{more}: temp files an interrupted "
            "restore or proposal adopt left behind"
        )
    if swept.kept:
        steps = in_batches(("rm", "--"), list(swept.kept))  # ARG_MAX: one line a step
        rm = " && ".join(command_text(step) for step in steps)
        lines.append(
            f"kept {len(swept.kept)} temp file(s) of a restore or proposal adopt still "
            f"running or interrupted within the hour ({printable(swept.kept[0])}); once "
            f"none runs: {rm}"
        )
    return lines


__all__ = ["Swept", "is_leftover_name", "sweep_leftovers", "swept_lines"]
