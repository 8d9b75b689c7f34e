"""Body files written on a thread while the index records the acts that cite them.

A bulk adoption knows every body (the section texts and the adopting words)
before it records anything. Creating ten thousand files is system-call and
journal work that releases the GIL, so it overlaps the Python and SQLite work of
recording instead of following it.

Stores: ``<ledger>/bodies/…`` through ``segments.write_bodies`` (temp file in
``.forest/cache/tmp``, rename; bodies before the segment that cites them, as
always).
Refuses: nothing itself; an error on the thread is raised again by ``finish``.
Returns: the hashes written, so the segment write skips them. ``discard``
removes the files this writer created, and the prefix directories that
leaves empty, so a refused adoption (or a write that failed halfway) leaves no
body and no empty directory behind (verify would name it a stray); files that
were already there, intact or repaired, are never removed.
Test: tests/test_file_custody.py, tests/test_ledger_strays.py
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Mapping
from pathlib import Path

from forest_files.ledger.segments import write_bodies


class EarlyBodies:
    """One background ``write_bodies`` call."""

    def __init__(self, ledger_dir: Path, bodies: Mapping[str, str]) -> None:
        self.hashes = frozenset(bodies)
        self._created: list[Path] = []
        self._error: BaseException | None = None
        self._thread = threading.Thread(
            target=self._run, args=(Path(ledger_dir), dict(bodies)), daemon=True
        )
        try:
            self._thread.start()  # waits for the thread: Ctrl-C can land here
        except BaseException:
            self.discard()  # the caller never holds this writer to discard it
            raise

    def _run(self, ledger_dir: Path, bodies: dict[str, str]) -> None:
        try:
            write_bodies(ledger_dir, bodies, self._created)  # filled as files land
        except BaseException as exc:  # handed to the recording thread by finish()
            self._error = exc

    def finish(self) -> frozenset[str]:
        """Wait for the writes; the hashes now on disk (or the thread's error)."""
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self.hashes

    def discard(self) -> None:
        """Wait, then remove every file this writer created and each directory
        that leaves empty."""
        if self._thread.ident is not None:  # it started (it may not have: no threads left)
            self._thread.join()
        for path in self._created:
            path.unlink(missing_ok=True)
        for directory in sorted({p.parent for p in self._created}):
            # Only an empty one goes; a concurrent writer whose rename then misses
            # it brings the directory back with its file (see ``placing``).
            with contextlib.suppress(OSError):
                os.rmdir(directory)
