"""Typed acts of ledger formats 2 and 3: the one import path of the kinds, fields and codec.

Stores: nothing (pure types).
Refuses (``LedgerError`` naming the act, never a body): a field this reader
does not know in a kind it knows (fail closed: a skipped tombstone or policy
would fail open), a missing field, a value of the wrong type, a hash or id
that is not 64 lowercase hex digits, a repository path that is not relative
and clean, and anything over the format's fixed bounds (``MAX_TEXT``,
``MAX_EXCLUDES``, ``MAX_HEADS``, ``MAX_META_CHARS``, ``MAX_TOMBSTONE_LINES``: all
from forest_files/kernel/bounds.py; meta is checked by ``bounds.check_meta``: JSON
values only, depth, integer size, finite floats, canonical size).
Returns: ``Payload`` values (``EntryRecord``, ``BindSpec`` and one class per
act kind, whose ``KIND`` names it); ``parse_payload`` turns decoded fields into
one, ``to_fields`` back. ``Payload`` is the one list of the format's kinds:
``PAYLOAD_TYPES`` and ``KINDS`` are read from it (the codec's ``acts.KINDS`` is
this set).
Test: tests/ledger/test_ledger_kinds.py, tests/ledger/test_ledger_codec.py

This module holds no code of its own: it hands on, under the names callers have
always imported, the rooms that do the work:

* ``fields`` — one object's field access (``Reader``), the checks the kinds
  share and the format's bounds;
* ``act_records`` — ``EntryRecord`` and ``BindSpec``, the records acts carry;
* ``entry_kinds`` — the kinds that carry entry records;
* ``ref_kinds`` — the kinds that name a binding or a body by id;
* ``payload`` — ``Payload``, ``PAYLOAD_TYPES``, ``KINDS``, ``parse_payload``;
* ``act_refs`` — the paths an act binds, the bodies it names and the entries it writes.

The kinds (docs/ledger-format.md has the full field tables):

* ``adopt`` — one user adoption: the imported entry, its adoption record and,
  for a file section, its binding, together;
* ``write`` — an entry ground depends on without being adopted in the same act;
* ``supersede``, ``resolve`` — a new ground entry and its adoption record;
* ``seal``, ``unseal`` — a sealing or unsealing record of a target (``SealAct``,
  ``UnsealAct``: one shape, ``sealing`` tells the direction);
* ``rebind``, ``retire`` — where a binding's ground lives now, or its end;
* ``erase`` — the body with a given hash is removed (its entries stay).
"""

from __future__ import annotations

from forest_files.ledger.act_records import BindSpec, EntryRecord
from forest_files.ledger.act_refs import body_refs, bound_path_refs, entry_records
from forest_files.ledger.entry_kinds import (
    AdoptAct,
    ResolveAct,
    SealAct,
    SupersedeAct,
    UnsealAct,
    WriteAct,
    seal_act,
)
from forest_files.ledger.fault import LedgerError
from forest_files.ledger.fields import (
    MAX_EXCLUDES,
    MAX_HEADS,
    MAX_LINE_PREFIX,
    MAX_META_CHARS,
    MAX_TEXT,
    MAX_TOMBSTONE_LINES,
    rules_of,
)
from forest_files.ledger.payload import KINDS, PAYLOAD_TYPES, Payload, parse_payload
from forest_files.ledger.ref_kinds import EraseAct, RebindAct, RetireAct

__all__ = [
    "KINDS",
    "MAX_EXCLUDES",
    "MAX_HEADS",
    "MAX_LINE_PREFIX",
    "MAX_META_CHARS",
    "MAX_TEXT",
    "MAX_TOMBSTONE_LINES",
    "PAYLOAD_TYPES",
    "AdoptAct",
    "BindSpec",
    "EntryRecord",
    "EraseAct",
    "LedgerError",
    "Payload",
    "RebindAct",
    "ResolveAct",
    "RetireAct",
    "SealAct",
    "SupersedeAct",
    "UnsealAct",
    "WriteAct",
    "body_refs",
    "bound_path_refs",
    "entry_records",
    "parse_payload",
    "rules_of",
    "seal_act",
]
