"""A background thread its starter can always wait for, even after a Ctrl-C.

forest-files runs work beside its main thread in two places: the bodies of a
bulk adoption written while the acts are recorded (ledger/early_bodies.py), and
a child's job fed and its answer drained (kernel/spawn.py). Both are waited for
twice when Ctrl-C lands: once where the work is used, once by the clean-up that
takes back what the work wrote. ``Thread.join`` cannot be trusted for the
second wait on the Pythons forest-files supports: a join that a signal handler's
exception interrupts, while the thread still runs, releases the thread's state
lock and marks it stopped (the bpo-45274 change, in CPython 3.9.8 to 3.12), so
the next join returns at once and the clean-up races the thread (a bulk
adoption interrupted by Ctrl-C left the bodies written after its clean-up in the
ledger). So the thread sets an event when its target returns, and waiting is on
that event, which an interrupted wait leaves as it was.

Stores: nothing.
Refuses: nothing; the target handles its own errors (an exception leaving it is
printed by ``threading``, as for any thread).
Returns: ``Background``: ``start``, ``started``, ``wait``.
Test: tests/kernel/test_background.py, tests/ledger/test_ledger_strays.py
"""

from __future__ import annotations

import threading
from collections.abc import Callable


class Background:
    """One daemon thread running ``target`` once."""

    def __init__(self, target: Callable[[], None]) -> None:
        self._target = target
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._launched = False

    def _run(self) -> None:
        try:
            self._target()
        finally:
            self._done.set()

    def start(self) -> None:
        """Start it; raises what ``Thread.start`` raises. A Ctrl-C that lands while
        ``Thread.start`` waits for the new thread comes after the thread was made: it
        runs, and ``wait`` waits for it. Only a thread the system refused never runs."""
        self._launched = True
        try:
            self._thread.start()
        except RuntimeError:  # "can't start new thread": nothing runs
            self._launched = False
            raise

    @property
    def started(self) -> bool:
        """True once ``start`` was called and the system did not refuse the thread."""
        return self._launched

    def wait(self) -> None:
        """Return once the target has returned (at once if it was never started)."""
        if self._launched:
            self._done.wait()
