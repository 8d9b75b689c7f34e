"""Ledger format versions: what each reads, and which fields only format 3 may carry.

Format 3 is format 2 plus fields listed in ``FORMAT3_FIELDS``, by the object
they sit in: ``"<kind>"`` for an act's top level, ``"<kind>.<key>"`` for an
object nested under ``key`` (a later change adds, say, ``"adopt.binding"``
fields here and nowhere else). Everything else of format 2 holds unchanged in
format 3: canonical JSON, ids, bounds, fail closed. A writer writes format 3
only for an act that carries such a field (``version_for``), so every act
without one encodes byte for byte as format 2 did, and an older reader stops
only at an act it could not judge.

Stores: nothing (tables).
Refuses: nothing itself; ``kinds.parse_payload`` refuses a format-3 field in a
format-2 act (``malformed``), and the codec a version it does not read.
Returns: the version a new act is written in; the extra fields a version allows.
Test: tests/ledger/test_ledger_format3.py
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

BASE_VERSION = 2  # what a writer writes when no format-3 field is present
NEWEST_VERSION = 3  # the newest format this reader reads

# Fields only format 3 allows, by where they sit (see the module docstring).
FORMAT3_FIELDS: Mapping[str, frozenset[str]] = MappingProxyType(
    {
        "erase": frozenset({"tokens"}),  # token fingerprints of the tombstone
        "adopt.binding": frozenset({"normalise"}),  # declared normalisations (name@version)
        "rebind": frozenset({"normalise"}),  # a binding's normalisations, changed by a holder
    }
)


def allowed(where: str, version: int) -> frozenset[str]:
    """The optional fields of format 3 that ``where`` may carry in ``version``."""
    if version < 3:
        return frozenset()
    return FORMAT3_FIELDS.get(where, frozenset())


def refuse_newer(kind: str, fields: object, version: int, *, act_id: str) -> None:
    """LedgerError (``malformed``) when an act of ``version`` < 3 carries a field only
    format 3 has: never read as format 2, never skipped."""
    if version >= NEWEST_VERSION or not isinstance(fields, Mapping):
        return
    newer = sorted(allowed(kind, NEWEST_VERSION) & fields.keys())
    if newer:
        from forest_files.ledger.fault import LedgerError

        raise LedgerError(
            f"act {act_id}: {kind} field {newer[0]!r} exists only in ledger format 3 "
            f'("v":3); this act says format {version}',
            act_id=act_id,
        )


def version_for(kind: str, fields: Mapping[str, Any]) -> int:
    """3 when the act carries a format-3 field (at its top level or in a nested
    object), else 2."""
    for where, names in FORMAT3_FIELDS.items():
        head, _, key = where.partition(".")
        if head != kind:
            continue
        obj = fields.get(key) if key else fields
        if isinstance(obj, Mapping) and names & obj.keys():
            return 3
    return BASE_VERSION
