"""Reading review answers: one key without Enter on a terminal, a line otherwise.

Stores: nothing; on a terminal the mode is set to cbreak (no echo, no line
buffering, signals kept: Ctrl-C still interrupts) only while a key is awaited,
and restored whatever happens.
Refuses: nothing itself: an empty line of words is returned as "" and the
session refuses it (session.py). There is never a default answer.
Returns: ``Console.key`` a one-character string (lower-cased; ``""`` at end of
input or Ctrl-D), ``Console.line`` the line typed (``None`` at end of input or
Ctrl-D), ``Console.say`` prints. When stdin is not a terminal each key is the
first character of a line (so a pipe can answer, line by line).
Test: tests/doors/test_review_pty.py, tests/doors/test_review_session.py
"""

from __future__ import annotations

import os
import select
import sys
import termios
import tty
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

_EOF_KEYS = ("\x04", "")  # Ctrl-D in cbreak mode arrives as a byte


class Console:
    """Prompts on ``out``, answers from ``fd`` (a terminal) or ``stream`` (lines)."""

    def __init__(self, stream: TextIO | None = None, out: TextIO | None = None) -> None:
        self.stream = stream if stream is not None else sys.stdin
        self.out = out if out is not None else sys.stdout
        try:
            self.fd: int | None = self.stream.fileno()
        except (AttributeError, OSError, ValueError):
            self.fd = None
        self.tty = self.fd is not None and os.isatty(self.fd)

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def _prompt(self, prompt: str) -> None:
        self.out.write(prompt)
        self.out.flush()

    def key(self, prompt: str) -> str:
        """One key, lower-cased; "" at end of input (Ctrl-D, a closed pipe). On a
        terminal the prompt is printed only once cbreak mode is set, so a key (or a
        Ctrl-C) pressed the moment it shows is read as a key (or interrupts the read),
        never echoed into a line or lost in the middle of setting up."""
        if not self.tty or self.fd is None:
            self._prompt(prompt)
            line = self.stream.readline()
            if not line:
                self.say()
                return ""
            self.say(line.strip()[:1])
            return line.strip()[:1].lower() or "\n"  # an empty line is a key, not EOF
        with _cbreak(self.fd):
            self._prompt(prompt)
            got = _one_key(self.fd)
        if got == "\x03":  # Ctrl-C that reached us as a byte (ISIG cleared elsewhere)
            raise KeyboardInterrupt
        shown = got if got.isprintable() else repr(got)
        self.say("" if got in _EOF_KEYS else shown)
        return "" if got in _EOF_KEYS else got.lower()

    def line(self, prompt: str) -> str | None:
        """A line as typed (stripped); None at end of input. No default, ever."""
        self._prompt(prompt)
        if not self.tty or self.fd is None:
            got = self.stream.readline()
            if got:
                self.say(got.rstrip("\n"))
        else:
            got = _read_line(self.fd)
        if not got:
            if self.tty:
                self.say()
            return None
        return got.strip()


@contextmanager
def _cbreak(fd: int) -> Iterator[None]:
    """Terminal ``fd`` in cbreak mode (signals kept) for the block, its mode given
    back whatever happens."""
    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd, termios.TCSANOW)
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def _one_key(fd: int) -> str:
    """A key pressed on terminal ``fd`` (in cbreak mode); an escape sequence (an
    arrow key) is read whole and returned as one unknown key."""
    data = os.read(fd, 1)
    if data == b"\x1b" or (data and data[0] >= 0x80):
        while select.select([fd], [], [], 0.05)[0]:
            more = os.read(fd, 16)
            if not more:
                break
            data += more
    return data.decode("utf-8", "replace")


def _read_line(fd: int) -> str:
    """A line read from terminal ``fd`` in its own (canonical) mode; "" at Ctrl-D."""
    chunks: list[bytes] = []
    while True:
        data = os.read(fd, 4096)
        if not data:
            break
        chunks.append(data)
        if data.endswith(b"\n"):
            break
    return b"".join(chunks).decode("utf-8", "replace")
