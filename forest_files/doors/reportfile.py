"""A report file a door writes (``forest ci --report FORMAT=FILE``), whole or not at
all: a CI that reads it later never takes a report cut short for the verdict.

Stores: the file named: a regular file, or none yet, through kernel/cache.py
``replace_atomically`` (a temporary file beside it, renamed over it; a write that
fails, a full disk or ``ulimit -f``, leaves the old file as it was, or no file); a
symbolic link's target the same way; anything else (/dev/stdout, a FIFO, /dev/full)
written in place: it cannot be renamed over, and holds no earlier report. Before
writing, the ``FILE.<pid>.tmp`` an earlier run killed between its write and its rename
left beside it (its writer gone) is removed (kernel/cache.py ``sweep_leftovers``).
Refuses: nothing; a write's OSError is raised (doors/gatecmd.py says it in one line).
Returns: None.
Test: tests/doors/test_ci_report_whole.py
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

NEW_FILE_MODE = 0o666  # less the umask, as ``open(FILE, "w")`` makes it


def write_whole(target: Path, text: str) -> None:
    """``text`` (UTF-8) as the whole content of ``target``, or ``target`` untouched."""
    from forest_files.kernel.cache import replace_atomically, sweep_leftovers

    real = os.path.realpath(target)  # a link is written through, as before, not replaced
    try:
        mode = os.stat(real).st_mode
    except FileNotFoundError:
        mode = stat.S_IFREG | NEW_FILE_MODE
    if not stat.S_ISREG(mode):  # a device or a pipe: nothing to keep; a folder: its error
        with open(real, "w", encoding="utf-8") as fh:
            fh.write(text)
        return
    sweep_leftovers(real)  # a killed run's temp file: a CI uploading `out/*` would take it
    replace_atomically(real, text.encode("utf-8"), mode=stat.S_IMODE(mode))
