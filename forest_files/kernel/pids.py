"""Whether the writer of a temp file named by its process id is gone, and the one sweep
of such files: the ledger writer's, an atomic replace's, a capture's part file.

Stores: nothing; ``sweep_dead`` removes, in one folder, the entries a pattern names
whose writer is gone: its pid runs no process here, or the file is ``STALE_SECONDS``
old (a pid reused: this process's own id counts as alive, so its young files stay);
a link is removed, never followed; a directory only where the caller says so; listed
and removed in one hold of the folder (kernel/held.py ``hold``).
Refuses: nothing (an entry that cannot be read or removed is kept).
Returns: ``pid_alive``: False only when this machine has no process with that id
(this process's own id, another user's process, and any id off POSIX count as
alive: the caller then goes by the file's age); ``writer_gone``; the names removed.
Test: tests/ledger/test_ledger_strays.py, tests/doors/test_hostile_owner_captures.py,
tests/custody/test_restore_leftovers.py,
tests/doors/test_hooks_install_leftovers.py, tests/custody/test_crash_matrix.py
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import time

from forest_files.kernel.held import HeldFolder, hold

# A temp file lives for one write and one rename: one this old was left by a writer
# that is gone, whatever process its pid names now.
STALE_SECONDS = 3600


def pid_alive(pid: int) -> bool:
    """True unless no process ``pid`` runs here (a file of ours from a dead namesake
    goes by age alone)."""
    if pid == os.getpid():
        return True
    if os.name != "posix":
        return True  # os.kill(pid, 0) would terminate the process on Windows
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: alive, another user's
        return True
    return True


def writer_gone(pid: int | None, mtime: float, now: float) -> bool:
    """A temp file's writer is gone: its pid runs nothing here, or the file is stale
    (a name without a pid goes by its age alone)."""
    return (pid is not None and not pid_alive(pid)) or now - mtime >= STALE_SECONDS


def sweep_dead(
    folder: str | os.PathLike[str] | HeldFolder,
    name: re.Pattern[str],
    *,
    now: float | None = None,
    dirs: bool = False,
) -> list[str]:
    """Remove each entry of ``folder`` whose whole name ``name`` matches (its group
    ``pid`` the writer's) and whose writer is gone; with ``dirs``, a directory so named
    too (removed whole). ``folder``: a folder the caller holds, or a path, held here
    (kernel/held.py ``hold``: in a state directory, opened from its git directory with
    no link followed). Listed and removed in that hold, so a folder swapped for a link
    meanwhile never leads a removal elsewhere. The names removed, sorted."""
    if isinstance(folder, HeldFolder):
        return _sweep_in(folder, name, now, dirs)
    try:
        held = hold(folder)
    except OSError:
        return []  # gone, or a link: nothing to sweep there
    with held:
        return _sweep_in(held, name, now, dirs)


def _sweep_in(held: HeldFolder, name: re.Pattern[str], now: float | None, dirs: bool) -> list[str]:
    try:
        entries = list(held.scandir())
    except OSError:
        return []
    clock = time.time() if now is None else now
    removed: list[str] = []
    for entry in entries:
        found = name.fullmatch(entry.name)
        if found is None:
            continue
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError:
            continue  # another sweeper, or its writer, took it
        if not writer_gone(int(found["pid"]), st.st_mtime, clock):
            continue
        if stat.S_ISDIR(st.st_mode) and not dirs:
            continue
        if _remove(held, entry.name, stat.S_ISDIR(st.st_mode)):
            removed.append(entry.name)
    return sorted(removed)


def _remove(held: HeldFolder, name: str, folder: bool) -> bool:
    """``name`` removed from ``held`` (a folder whole); False if it could not be."""
    try:
        if folder:
            path, at = held.where(name)
            shutil.rmtree(path, dir_fd=at)
        else:
            held.unlink(name)
    except OSError:  # gone meanwhile, or not ours to remove: kept
        return False
    return True


__all__ = ["STALE_SECONDS", "pid_alive", "sweep_dead", "writer_gone"]
