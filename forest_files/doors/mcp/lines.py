"""The lines of the stdio transport's input: read ``CHUNK`` at a time, each read
taking what the stream holds at once (``read1``: one read, never waiting for more),
and cut into lines where the session runs, so a thousand lines that came together
cost one blocking read, not a thousand.

Stores: nothing.
Refuses: a line longer than ``limit`` bytes before its newline: ``OVERLONG``, once
its newline (or the end of input) is read; its bytes dropped as they come, never
held whole (at most ``limit`` + 1 bytes of a line are held, plus one ``CHUNK``).
Returns: ``Lines(stream, limit)``: ``take()`` (the next line held, newline kept, the
last may have none; ``OVERLONG``; None at the end of input; or ``MORE``: read first),
``read()`` (the blocking read, run off the event loop: its bytes, empty at the end),
``feed(data)``, and ``next()`` (blocking: take, reading as needed).
Test: tests/doors/test_mcp_stdio.py, tests/doors/test_mcp_flood.py

Why: a line at a time, each read ran on a thread of its own (blocking.py), and
starting a thread and waking the event loop from it cost some 300 µs a line: a
client's 100,000 notifications took about 50 s before the next request was read.
"""

from __future__ import annotations

from typing import BinaryIO

from forest_files.kernel.bounds import MAX_MCP_LINE_BYTES

CHUNK = 64 * 1024  # bytes read at a time: an over-long line costs this much, not its length


class Overlong:
    """A line over the bound, read to its end and dropped."""


class More:
    """Nothing whole is held: read more first."""


OVERLONG = Overlong()
MORE = More()


class Lines:
    """The lines of ``stream``, each at most ``limit`` bytes before its newline."""

    def __init__(self, stream: BinaryIO, limit: int = MAX_MCP_LINE_BYTES) -> None:
        self.stream = stream
        self.limit = limit
        self._held = bytearray()
        self._seen = 0  # bytes of _held known to hold no newline
        self._dropping = False  # inside an over-long line, dropped to its newline
        self._ended = False

    def read(self) -> bytes:
        """What ``stream`` holds now, up to ``CHUNK`` bytes (blocking until some byte
        or the end of input comes; empty at the end)."""
        read1 = getattr(self.stream, "read1", None)
        return bytes(read1(CHUNK) if read1 is not None else self.stream.read(CHUNK))

    def feed(self, data: bytes) -> None:
        """``data`` read from the stream; empty: its end."""
        if not data:
            self._ended = True
        elif self._dropping:
            at = data.find(b"\n")
            self._held += data[at:] if at >= 0 else b""  # the newline ends what is dropped
        else:
            self._held += data

    def take(self) -> bytearray | Overlong | More | None:
        """The next line held, ``OVERLONG``, ``MORE``, or None at the end of input."""
        if self._dropping:
            if self._held[:1] != b"\n" and not self._ended:
                self._held.clear()
                return MORE
            del self._held[:1]
            self._dropping, self._seen = False, 0
            return OVERLONG
        at = self._held.find(b"\n", self._seen)
        if 0 <= at <= self.limit:
            line = self._held[: at + 1]
            del self._held[: at + 1]
            self._seen = 0
            return line
        if at > self.limit or len(self._held) > self.limit:
            at = self._held.find(b"\n", self.limit)
            self._held = bytearray(self._held[at:] if at >= 0 else b"")
            self._dropping = True
            return self.take()
        self._seen = len(self._held)
        if not self._ended:
            return MORE
        line, self._held = self._held, bytearray()
        return line or None

    def next(self) -> bytearray | Overlong | None:
        """The next line, reading as needed (blocking): as ``take`` never says ``MORE``."""
        while isinstance(got := self.take(), More):
            self.feed(self.read())
        return got
