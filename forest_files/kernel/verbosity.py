"""How much a door says: quiet (errors and the verdict line), normal, or verbose.

Stores: one process-wide level, set once by the command line (doors/cli/command.py,
``-q``/``-v`` on every command); library callers never set it and get ``NORMAL``.
Refuses: nothing.
Returns: ``level()``, ``set_level()``; ``quiet()``/``verbose()`` for the callers that
say more or less (kernel/progress.py draws nothing when quiet); ``SAID``, the log
record attribute of a line the door already printed (``-v`` echoes it no more).
Test: tests/doors/test_cli_voice.py

Light on purpose: imported by kernel/progress.py, which library loops import.
"""

from __future__ import annotations

QUIET = -1
NORMAL = 0
VERBOSE = 1

_level = NORMAL

# A log record with this attribute true (``extra={SAID: True}``) holds a line the door
# has already printed on standard output (the foreground watcher's findings, logged
# for its log file): ``-v``'s echo of the log on stderr leaves it out, else the line
# reads twice in a terminal.
SAID = "forest_said"


def set_level(value: int) -> None:
    """Set the process's level (clamped to QUIET..VERBOSE)."""
    global _level
    _level = max(QUIET, min(VERBOSE, value))


def level() -> int:
    return _level


def quiet() -> bool:
    return _level <= QUIET


def verbose() -> bool:
    return _level >= VERBOSE
