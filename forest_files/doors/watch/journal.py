"""What the watcher did, in memory: verdict changes, proposals, deferrals, errors.

Stores: the last ``LIMIT`` records (bounded: a long run does not grow).
Refuses: nothing.
Returns: ``Record`` values (kind, path, selector, detail — hashes and ids,
never text); ``wait_for`` lets a test or a caller wait on a condition with a
timeout instead of sleeping.
Test: tests/doors/test_watch.py
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

LIMIT = 10_000


@dataclass(frozen=True)
class Record:
    kind: str  # verdict | proposal | restore | deferred | held | check | error | reconciled | head
    path: str = ""
    selector: str = ""
    detail: str = ""  # a finding kind, a hash, a proposal id, a marker name
    at: float = 0.0  # monotonic


class Journal:
    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._items: deque[Record] = deque(maxlen=LIMIT)
        self.counts: dict[str, int] = {}

    def add(self, kind: str, path: str = "", selector: str = "", detail: str = "") -> None:
        with self._cond:
            self._items.append(Record(kind, path, selector, detail, time.monotonic()))
            self.counts[kind] = self.counts.get(kind, 0) + 1
            self._cond.notify_all()

    def items(self, kind: str | None = None) -> list[Record]:
        with self._cond:
            return [r for r in self._items if kind is None or r.kind == kind]

    def wait_for(self, predicate: Callable[[list[Record]], bool], timeout: float) -> bool:
        """True once ``predicate(records)`` holds; False after ``timeout`` seconds."""
        with self._cond:
            return self._cond.wait_for(lambda: predicate(list(self._items)), timeout)
