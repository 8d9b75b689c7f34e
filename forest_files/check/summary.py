"""The one-line summary every door ends a check with, in a module of its own: the
warm ``forest check`` prints it from a remembered verdict without importing the
finding model (model.py builds dataclasses at import).

Stores: nothing. Refuses: nothing.
Returns: ``summary_line``.
Test: tests/doors/test_fastcheck.py, tests/doors/test_doors.py
"""

from __future__ import annotations


def summary_line(checked: int, failed: int, where: str) -> str:
    return f"{checked} binding(s) checked against the {where}: {failed} not clean"
