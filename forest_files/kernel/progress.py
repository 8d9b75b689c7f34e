"""Progress of a long loop on stderr, drawn only when stderr is a terminal.

``forest rebuild``, a sync that replays many acts, ``forest verify``, ``forest ci``
over a range and a bulk ``forest adopt`` report "label n/total" on one line,
redrawn at most every ``INTERVAL`` seconds and erased when the loop ends, so what
is left on the terminal is the command's own output. Never drawn on a pipe or a
file (CI logs, tests capturing stderr), with ``-q``, or with ``TERM=dumb``.

Stores: nothing.
Refuses: nothing.
Returns: ``Progress`` (a context manager: ``step()``/``advance(n)``) and ``tracked``
(an iterable wrapped with a Progress).
Test: tests/kernel/test_progress.py

Light on purpose: only ``os``, ``sys`` and ``time`` (library loops import it).
"""

from __future__ import annotations

import os
import sys
import time

from forest_files.kernel import verbosity

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from typing import TextIO, TypeVar

    T = TypeVar("T")

INTERVAL = 0.1  # seconds between redraws
MIN_TOTAL = 2  # a loop of one step draws nothing
_ERASE = "\r\x1b[K"


def _terminal(stream: TextIO | None) -> bool:
    if stream is None or verbosity.quiet() or os.environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


class Progress:
    """``label n/total`` on stderr while a loop runs, when stderr is a terminal."""

    def __init__(self, label: str, total: int, stream: TextIO | None = None) -> None:
        self.label = label
        self.total = total
        self.done = 0
        self._stream = sys.stderr if stream is None else stream
        self._on = total >= MIN_TOTAL and _terminal(self._stream)
        self._drawn = False
        self._last = float("-inf")  # the first step draws (monotonic() may start near 0)

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def step(self) -> None:
        self.advance(1)

    def advance(self, n: int) -> None:
        self.done += n
        if not self._on:
            return
        now = time.monotonic()
        if now - self._last >= INTERVAL:
            self._last = now
            self._write(f"{_ERASE}{self.label} {min(self.done, self.total)}/{self.total}")
            self._drawn = True

    def close(self) -> None:
        """Erase the line if anything was drawn (idempotent)."""
        if self._drawn:
            self._write(_ERASE)
            self._drawn = False
        self._on = False

    def _write(self, text: str) -> None:
        try:
            self._stream.write(text)
            self._stream.flush()
        except (OSError, ValueError):
            self._on = False  # a closed terminal: the loop goes on without it


def tracked(items: Iterable[T], label: str, total: int) -> Iterator[T]:
    """Each of ``items``, with a Progress of ``total`` steps advanced per item."""
    with Progress(label, total) as bar:
        for item in items:
            yield item
            bar.step()
