"""The top-level modules a process loaded, as ``FOREST_DEBUG_IMPORTS=1`` prints them
(doors/fastcheck.py ``finish``: one ``imports: a b c`` line on stderr at exit)."""

from __future__ import annotations


def loaded(stderr: str) -> set[str]:
    """The names on the ``imports:`` line of a process's stderr."""
    line = next(x for x in stderr.splitlines() if x.startswith("imports: "))
    return set(line.removeprefix("imports: ").split())
