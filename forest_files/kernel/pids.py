"""Whether the writer of a temp file named by its process id is gone, and the one sweep
of such files: the ledger writer's, an atomic replace's, a capture's part file.

Stores: nothing; ``sweep_dead`` removes, in one folder, the entries a pattern names
whose writer is gone: its pid runs no process here, or the file is ``STALE_SECONDS``
old (a pid reused: this process's own id counts as alive, so its young files stay);
a link is removed, never followed; a directory only where the caller says so; listed
and removed in one descriptor of the folder (kernel/paths.py ``open_folder``).
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

from forest_files.kernel.paths import open_folder

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
    folder: str | os.PathLike[str] | int,
    name: re.Pattern[str],
    *,
    now: float | None = None,
    dirs: bool = False,
) -> list[str]:
    """Remove each entry of ``folder`` whose whole name ``name`` matches (its group
    ``pid`` the writer's) and whose writer is gone; with ``dirs``, a directory so named
    too (removed whole). ``folder``: a folder's descriptor the caller holds, or a path,
    opened here (kernel/paths.py ``open_folder``: in a state directory, from its git
    directory with no link followed). Listed and removed in that descriptor, so a
    folder swapped for a link meanwhile never leads a removal elsewhere. The names
    removed, sorted."""
    if isinstance(folder, int) or not _BY_FD:
        return _sweep_in(folder, name, now, dirs)
    try:
        at = open_folder(os.fspath(folder))
    except OSError:
        return []  # gone, or a link: nothing to sweep there
    try:
        return _sweep_in(at, name, now, dirs)
    finally:
        os.close(at)


def _sweep_in(
    at: str | os.PathLike[str] | int, name: re.Pattern[str], now: float | None, dirs: bool
) -> list[str]:
    try:
        entries = list(os.scandir(at))
    except OSError:
        return []
    dir_fd = at if isinstance(at, int) else None
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
        target = entry.name if dir_fd is not None else entry.path
        try:
            if stat.S_ISDIR(st.st_mode):
                if not dirs:
                    continue
                shutil.rmtree(target, dir_fd=dir_fd)
            else:
                os.unlink(target, dir_fd=dir_fd)
        except FileNotFoundError:
            continue
        except OSError:
            continue  # not ours to remove: kept
        removed.append(entry.name)
    return sorted(removed)


# Listed and removed in the folder's descriptor where the system allows (POSIX)
_BY_FD = os.scandir in os.supports_fd and os.unlink in os.supports_dir_fd


__all__ = ["STALE_SECONDS", "pid_alive", "sweep_dead", "writer_gone"]
