"""Whether the writer of a temp file named by its process id is gone, and the one sweep
of such files: the ledger writer's, an atomic replace's, a capture's part file.

Stores: nothing; ``sweep_dead`` removes, in one folder, the entries a pattern names
whose writer is gone: its pid runs no process here, or the file is ``STALE_SECONDS``
old (a pid reused: this process's own id counts as alive, so its young files stay);
a link is removed, never followed; a directory only where the caller says so.
Refuses: nothing (an entry that cannot be read or removed is kept).
Returns: ``pid_alive``: False only when this machine has no process with that id
(this process's own id, another user's process, and any id off POSIX count as
alive: the caller then goes by the file's age); ``writer_gone``; the names removed.
Test: tests/ledger/test_ledger_strays.py, tests/custody/test_restore_leftovers.py,
tests/doors/test_hooks_install_leftovers.py, tests/custody/test_crash_matrix.py
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import time

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
    folder: str | os.PathLike[str],
    name: re.Pattern[str],
    *,
    now: float | None = None,
    dirs: bool = False,
) -> list[str]:
    """Remove each entry of ``folder`` whose whole name ``name`` matches (its group
    ``pid`` the writer's) and whose writer is gone; with ``dirs``, a directory so named
    too (removed whole). The names removed, sorted."""
    try:
        entries = list(os.scandir(folder))
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
        try:
            if stat.S_ISDIR(st.st_mode):
                if not dirs:
                    continue
                shutil.rmtree(entry.path)
            else:
                os.unlink(entry.path)
        except FileNotFoundError:
            continue
        except OSError:
            continue  # not ours to remove: kept
        removed.append(entry.name)
    return sorted(removed)


__all__ = ["STALE_SECONDS", "pid_alive", "sweep_dead", "writer_gone"]
