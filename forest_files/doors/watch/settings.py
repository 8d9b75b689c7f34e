"""The watcher's timings, in one frozen value.

Stores: nothing.
Refuses: a non-positive quiet period, a ceiling shorter than it, a negative
grace or a reconcile interval under a second (``ForestError`` naming the option).
Returns: ``WatchSettings``.
Test: tests/doors/test_watch.py
"""

from __future__ import annotations

from dataclasses import dataclass

from forest_files.kernel.errors import ForestError


@dataclass(frozen=True)
class WatchSettings:
    quiet: float = 0.2  # seconds without an event before a batch is judged
    ceiling: float = 2.0  # a batch is judged at the latest this long after its first event
    grace: float = 1.0  # a deleted or emptied bound file waits this long for its rename
    reconcile: float = 300.0  # a full check at least this often (events are hints)
    poll: bool = False  # PollingObserver (network and container mounts)
    poll_interval: float = 1.0
    git_retry: float = 0.25  # how often to look again while git is mid-operation
    restart_events: int = 1_000_000  # restart the observer after this many events (memory)

    def __post_init__(self) -> None:
        if self.quiet <= 0:
            raise ForestError("--quiet must be a positive number of seconds (e.g. 0.2)")
        if self.ceiling < self.quiet:
            raise ForestError("--ceiling must be at least --quiet (e.g. 2.0)")
        if self.grace < 0:
            raise ForestError("--grace must be zero or more seconds (e.g. 1.0)")
        if self.reconcile < 1:
            raise ForestError("--reconcile must be at least 1 second (e.g. 300)")
        if self.poll_interval <= 0:
            raise ForestError("--poll-interval must be a positive number of seconds")
