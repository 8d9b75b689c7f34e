"""Where events land: a pending set the callback fills and the worker drains.

Stores: nothing on disk. In memory, under one lock: the paths events named
(with the last event time and whether it was a removal), flags (``custody``:
the ledger changed; ``dirs``: a watched directory moved; ``full``: reconcile
everything), paths held back until a due time (a grace period, git at work), and
the bound paths any file's event names too (``follow``: a moved, missing or
unresolved verdict, made by a search of every file, judge.py ``searching``).
Refuses: nothing; ``note`` never blocks on a check.
Returns: ``Batch`` from ``take``: when the events have been quiet for the
quiet period, or the ceiling since the first of them has passed, or a held
path is due, or the periodic reconcile is due (``periodic`` flag); None once
closed.
Test: tests/doors/test_watch.py, tests/doors/test_watch_searched.py
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Batch:
    paths: dict[str, float] = field(default_factory=dict)  # path -> last event (monotonic)
    removed: frozenset[str] = frozenset()  # paths whose last event was a delete/move away
    flags: frozenset[str] = frozenset()
    due: frozenset[str] = frozenset()  # held paths whose time came: judged as they are


class Collector:
    def __init__(self, quiet: float, ceiling: float) -> None:
        self.quiet, self.ceiling = quiet, ceiling
        self._cond = threading.Condition()
        self._paths: dict[str, float] = {}
        self._removed: set[str] = set()
        self._flags: set[str] = set()
        self._first: float | None = None
        self._last = 0.0
        self._held: dict[str, float] = {}  # path -> due
        self._held_flags: dict[str, float] = {}
        self._closed = False
        self.events = 0
        self._follow: frozenset[str] = frozenset()
        self._elsewhere = 0.0  # the last event on any file (monotonic)

    def note(self, path: str, *, removed: bool = False) -> None:
        """Record that ``path`` may have changed (the event callback's whole job)."""
        with self._cond:
            self._add(path, removed, time.monotonic())

    def _add(self, path: str, removed: bool, now: float) -> None:
        self.events += 1
        self._paths[path] = now
        if removed:
            self._removed.add(path)
        else:
            self._removed.discard(path)
        self._touch(now)

    def elsewhere(self, path: str) -> None:
        """An event on ``path``, bound or not: the followed paths are noted too."""
        now = time.monotonic()
        with self._cond:
            self._elsewhere = now
            for followed in self._follow - {path}:
                self._add(followed, False, now)

    def follow(self, paths: frozenset[str], since: float) -> None:
        """Note ``paths`` at any file's event from now on, and at once if one came
        after ``since`` (when the check that chose them began: it may not have seen it)."""
        with self._cond:
            self._follow = paths
            if self._elsewhere >= since:
                for path in paths:
                    self._add(path, False, time.monotonic())

    def flag(self, name: str) -> None:
        with self._cond:
            self.events += 1
            self._flags.add(name)
            self._touch(time.monotonic())

    def _touch(self, now: float) -> None:
        if self._first is None:
            self._first = now
        self._last = now
        self._cond.notify()

    def hold(self, paths: dict[str, float], flags: frozenset[str], due: float) -> None:
        """Give paths (and flags) back, to be taken again at ``due`` (monotonic)."""
        with self._cond:
            for path in paths:
                self._held[path] = min(due, self._held.get(path, due))
            for name in flags:
                self._held_flags[name] = min(due, self._held_flags.get(name, due))
            self._cond.notify()

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    def take(self, periodic_due: float) -> Batch | None:
        """Wait (sleeping, never spinning) for the next batch."""
        with self._cond:
            while not self._closed:
                now = time.monotonic()
                ready = self._due(now)
                if ready is not None:
                    return ready
                if now >= periodic_due:
                    return Batch(flags=frozenset({"periodic"}))
                self._cond.wait(self._next_wake(now, periodic_due) - now)
            return None

    def _due(self, now: float) -> Batch | None:
        events = bool(self._paths or self._flags)
        quiet = events and now - self._last >= self.quiet
        starved = events and self._first is not None and now - self._first >= self.ceiling
        held = [p for p, due in self._held.items() if due <= now]
        held_flags = [f for f, due in self._held_flags.items() if due <= now]
        if not (quiet or starved or held or held_flags):
            return None
        paths = dict(self._paths) if (quiet or starved) else {}
        flags = set(self._flags) if (quiet or starved) else set()
        removed = self._removed & set(paths)
        if quiet or starved:
            self._paths.clear()
            self._flags.clear()
            self._removed.clear()
            self._first = None
        due = {p for p in held if p not in paths}
        for path in held:
            paths.setdefault(path, self._held.pop(path))
        for name in held_flags:
            del self._held_flags[name]
            flags.add(name)
        return Batch(paths, frozenset(removed), frozenset(flags), frozenset(due))

    def _next_wake(self, now: float, periodic_due: float) -> float:
        wake = [periodic_due, *self._held.values(), *self._held_flags.values()]
        if self._paths or self._flags:
            wake.append(self._last + self.quiet)
            if self._first is not None:
                wake.append(self._first + self.ceiling)
        return max(min(wake), now + 0.001)
