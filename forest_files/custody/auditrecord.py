"""One audit record as read back from ``audit.db``, a damaged one said, never raised.

Stores: nothing.
Refuses: nothing. ``audit.db`` is the clone's own file, and a raw INSERT passes its
append-only triggers: a row whose ``targets`` is not a JSON list of text, whose
``counts`` is not a JSON object of integers, or whose other columns are not text
(``head``, ``act_id``: text or NULL) is read as a record with ``damaged`` saying
what is wrong (one line, column names only, never the value) and its unreadable
parts empty, so a page of the log goes on past it.
Returns: ``AuditRecord``.
Test: tests/governance/test_audit_damaged_rows.py
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

_TEXT = ("at", "actor", "action", "outcome", "reason")


@dataclass(frozen=True)
class AuditRecord:
    seq: int
    at: str
    actor: str
    action: str
    outcome: str
    reason: str
    targets: tuple[str, ...]
    counts: Mapping[str, int]
    head: str | None
    act_id: str | None
    damaged: str | None = None  # what is wrong with the row (edited outside forest-files)

    def as_dict(self) -> dict[str, Any]:
        out = dict(self.__dict__)
        out["targets"], out["counts"] = list(self.targets), dict(self.counts)
        return out


def _json(value: object) -> object:
    if not isinstance(value, str | bytes):
        return None
    try:
        return json.loads(value)
    except ValueError:  # not JSON, or bytes that are not UTF-8
        return None


def _targets(value: object) -> tuple[str, ...] | None:
    found = _json(value)
    if isinstance(found, list) and all(isinstance(t, str) for t in found):
        return tuple(found)
    return None


def _counts(value: object) -> dict[str, int] | None:
    found = _json(value)
    if isinstance(found, dict) and all(
        isinstance(v, int) and not isinstance(v, bool) for v in found.values()
    ):
        return found
    return None


def record_of(row: Sequence[Any]) -> AuditRecord:
    """The record of one row of ``auditsql.PAGE`` (its ``COLUMNS``, in order)."""
    wrong = [n for n, value in zip(_TEXT, row[1:6], strict=True) if not isinstance(value, str)]
    targets, counts = _targets(row[6]), _counts(row[7])
    if targets is None:
        wrong.append("targets (not a JSON list of text)")
    if counts is None:
        wrong.append("counts (not a JSON object of integers)")
    head, act_id = (v if v is None or isinstance(v, str) else None for v in row[8:10])
    wrong += [n for n, v, kept in (("head", row[8], head), ("act_id", row[9], act_id)) if v != kept]
    at, actor, action, outcome, reason = (v if isinstance(v, str) else "?" for v in row[1:6])
    return AuditRecord(
        seq=int(row[0]),
        at=at,
        actor=actor,
        action=action,
        outcome=outcome,
        reason=reason,
        targets=targets or (),
        counts=counts or {},
        head=head,
        act_id=act_id,
        damaged=f"damaged: {', '.join(wrong)} (edited outside forest-files)" if wrong else None,
    )
