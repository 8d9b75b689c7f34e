"""The bound files the watcher may not read, each said once while it stays so.

Stores: nothing (in memory: each unreadable path and the line said for it).
Refuses: nothing.
Returns: ``Unreadable`` — ``take(denied, judged)`` logs one line for each path newly
unreadable, with kernel/access.py's ``chmod`` or ``chown`` (in the log, the errors
``status`` lists and the journal), forgets the paths a check read again, and gives the
line of one still unreadable ("" for none): the watcher's problem while it lasts
(each check that meets it counts in its ``error_count``, watcher.py).
Test: tests/doors/test_watch_unreadable.py, tests/doors/test_watch_unreadable_require.py
"""

from __future__ import annotations

import collections
import logging

from forest_files.doors.watch.journal import Journal
from forest_files.kernel.access import denied_line
from forest_files.kernel.repopath import under

log = logging.getLogger("forest_files.doors.watch")
THEN = "it is judged again"


class Unreadable:
    def __init__(self, journal: Journal, errors: collections.deque[str]) -> None:
        self.journal = journal
        self.errors = errors
        self._said: dict[str, str] = {}  # path -> its line, while it stays unreadable

    def take(self, denied: dict[str, PermissionError], judged: tuple[str, ...] | None) -> str:
        """``denied``: the bound paths a check could not read; ``judged``: the paths (a
        folder: what lies under it) it read (``()``: every one but ``denied``; None:
        none)."""
        for path in [p for p in self._said if p not in denied]:
            if judged is not None and (not judged or any(under(path, p) for p in judged)):
                del self._said[path]  # read again
        for path, exc in denied.items():
            line = denied_line(exc, THEN) or f"cannot read {path}"
            if self._said.get(path) != line:
                self._said[path] = line
                log.warning("error: %s", line)
                self.errors.append(line)
                self.journal.add("error", path, detail=line)
        return next(iter(self._said.values()), "")
