"""Forest's timestamp: the wall clock in UTC, to the millisecond.

Stores: nothing. Refuses: nothing.
Returns: ``utc_now``, e.g. ``2026-01-01T12:00:00.000Z``.
Test: tests/doors/test_hook_audit_head.py (a refused hook stamps its audit record
with this alone), tests/store/test_store_hostile.py

A module of its own so that a stamp costs no more than the clock: the audit log's
append (custody/auditlog.py) never imports the store's insert module (base.py).
"""

from __future__ import annotations

from datetime import UTC, datetime


def utc_now() -> str:
    """UTC with milliseconds and a Z, Forest's timestamp format."""
    now = datetime.now(UTC)
    return now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"


__all__ = ["utc_now"]
