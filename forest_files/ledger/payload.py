"""The one list of the ledger's act kinds, and the parse of an act's fields into one.

Stores: nothing (pure types).
Refuses (``LedgerError`` naming the act, never a body): an unknown act kind, a
field newer than the act's ledger format (``versions.refuse_newer``), and
whatever the kind's own ``parse`` refuses.
Returns: ``Payload`` (the union of one class per kind, whose ``KIND`` names it),
``PAYLOAD_TYPES`` and ``KINDS`` read from it, ``parse_payload``.
Test: tests/ledger/test_ledger_kinds.py, tests/ledger/test_ledger_codec.py
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, TypeAlias, get_args

from forest_files.ledger import versions
from forest_files.ledger.entry_kinds import (
    AdoptAct,
    ResolveAct,
    SealAct,
    SupersedeAct,
    UnsealAct,
    WriteAct,
)
from forest_files.ledger.fault import LedgerError
from forest_files.ledger.fields import Reader
from forest_files.ledger.ref_kinds import EraseAct, RebindAct, RetireAct
from forest_files.ledger.versions import BASE_VERSION

# The act kinds of ledger format 2, listed once: one payload class per kind, each
# naming its kind (``KIND``). The codec, the applier and the docs test read them here.
Payload: TypeAlias = (
    WriteAct
    | AdoptAct
    | SupersedeAct
    | ResolveAct
    | SealAct
    | UnsealAct
    | RebindAct
    | RetireAct
    | EraseAct
)
PAYLOAD_TYPES: Mapping[str, type[Payload]] = MappingProxyType(
    {kind.KIND: kind for kind in get_args(Payload)}
)
KINDS = frozenset(PAYLOAD_TYPES)


def parse_payload(
    kind: str, fields: Mapping[str, Any], *, act_id: str, version: int = BASE_VERSION
) -> Payload:
    """The typed payload of an act's fields in ledger format ``version``; refuses
    unknown kinds and fields, and a format-3 field in a format-2 act."""
    cls = PAYLOAD_TYPES.get(kind)
    if cls is None:
        raise LedgerError(f"act {act_id}: unknown act kind {kind!r}", act_id=act_id)
    keys = cls.KEYS
    optional = cls.OPTIONAL | versions.allowed(kind, version)
    if optional and isinstance(fields, Mapping):
        keys = keys | (optional & fields.keys())  # an optional field only when present
    versions.refuse_newer(kind, fields, version, act_id=act_id)
    return cls.parse(Reader(fields, act_id=act_id, where=kind, keys=keys, version=version))
