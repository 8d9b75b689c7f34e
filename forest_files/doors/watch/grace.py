"""The grace a deleted or emptied bound file gets before the watcher judges it.

A save often deletes or empties a file and writes it again a moment later (a rename
into place, a truncate then a write): judged in that gap, it would be reported
missing or drifted for nothing. So a bound path whose file is gone, or empty when it
was not at its last verdict, waits out ``grace`` seconds since its event, held in the
collector, unless its time came already (the batch's ``due``: it is judged as it is).

Stores: nothing on disk (in memory: each judged path's size at its last verdict).
Refuses: nothing.
Returns: ``Grace`` — ``ready(batch, now, bound)``, the bound paths of a batch to judge
now (each held one a ``deferred`` journal record with ``missing`` or ``empty``);
``seen(paths)``, notes their sizes after a verdict.
Test: tests/doors/test_watch.py
"""

from __future__ import annotations

import os
from pathlib import Path

from forest_files.doors.watch.collector import Batch, Collector
from forest_files.doors.watch.events import BoundSet
from forest_files.doors.watch.journal import Journal


class Grace:
    def __init__(self, root: Path, grace: float, journal: Journal, collector: Collector) -> None:
        self.root = root
        self.grace = grace
        self.journal = journal
        self.collector = collector
        self._sizes: dict[str, int] = {}

    def ready(self, batch: Batch, now: float, bound: BoundSet) -> tuple[str, ...]:
        """The bound paths of ``batch`` to judge now; a deleted or emptied file that was
        not empty waits out the grace period (its rename or write is usually coming)."""
        chosen: list[str] = []
        for path, at in batch.paths.items():
            if not bound.wants(path):
                continue
            wait_until = at + self.grace
            if path not in batch.due and now < wait_until:
                why = self._transient(path)
                if why:
                    self.journal.add("deferred", path, detail=why)
                    self.collector.hold({path: at}, frozenset(), wait_until)
                    continue
            chosen.append(path)
        return tuple(sorted(chosen))

    def seen(self, paths: set[str]) -> None:
        """Each of ``paths``' size now, after its verdict (0 when it cannot be read)."""
        for path in paths:
            try:
                self._sizes[path] = os.lstat(self.root / path).st_size
            except OSError:
                self._sizes[path] = 0

    def _transient(self, path: str) -> str:
        try:
            size = os.lstat(self.root / path).st_size
        except FileNotFoundError:
            return "missing"
        except OSError:
            return ""
        return "empty" if size == 0 and self._sizes.get(path, 0) > 0 else ""
