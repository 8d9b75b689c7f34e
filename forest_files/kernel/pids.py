"""Whether a process that left a temp file named by its id may still be running.

Stores: nothing. Refuses: nothing.
Returns: ``pid_alive``: False only when this machine has no process with that id
(this process's own id, another user's process, and any id off POSIX count as
alive: the caller then goes by the file's age).
Test: tests/ledger/test_ledger_strays.py, tests/custody/test_restore_leftovers.py
"""

from __future__ import annotations

import os


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


__all__ = ["pid_alive"]
