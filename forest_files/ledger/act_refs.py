"""What an act refers to outside itself: the repository paths it binds, the bodies it names.

Stores: nothing.
Refuses: nothing (read from typed payloads, already checked).
Returns: ``bound_path_refs``, ``body_refs`` and ``entry_records``, tuples read from the
typed fields; ``erased_bodies``, the body hashes a ledger's erase acts remove (the only
evidence of an erasure: an index's erased rows are claims).
Test: tests/custody/test_applier_equivalence.py, tests/ledger/test_ledger_codec.py
"""

from __future__ import annotations

from collections.abc import Iterable

from forest_files.ledger.act_records import EntryRecord
from forest_files.ledger.entry_kinds import AdoptAct
from forest_files.ledger.payload import Payload
from forest_files.ledger.ref_kinds import EraseAct, RebindAct


def bound_path_refs(payload: Payload) -> tuple[str, ...]:
    """The repository paths an act binds: an adopt's binding, a rebind's new place.
    Every other kind keeps a binding where it is or ends it, so the paths of all
    acts of a ledger are every path its binding events can name."""
    if isinstance(payload, AdoptAct):
        return () if payload.binding is None else (payload.binding.path,)
    if isinstance(payload, RebindAct):
        return (payload.path,)
    return ()


def entry_records(payload: Payload) -> tuple[EntryRecord, ...]:
    """The entries an act writes, as it records them: its entry and record (a rebind
    that supersedes: its supersession's). Every entry row of an index is one of these
    or the repository's anchor (``forest fsck`` holds each row to its record)."""
    if isinstance(payload, RebindAct) and payload.supersede is not None:
        payload = payload.supersede  # a rebind that supersedes: its entry and record
    found = (getattr(payload, name, None) for name in ("entry", "record"))
    return tuple(r for r in found if isinstance(r, EntryRecord))


def body_refs(payload: Payload) -> tuple[str, ...]:
    """The body hashes an act refers to: its entries' and records' bodies, or the body
    an erase names (from the typed fields, no walk over the raw object)."""
    if isinstance(payload, EraseAct):
        return (payload.body_hash,)
    return tuple(r.body_hash for r in entry_records(payload))


def erased_bodies(payloads: Iterable[Payload]) -> frozenset[str]:
    """Body hashes the erase acts among ``payloads`` remove (their bodies may be absent)."""
    return frozenset(p.body_hash for p in payloads if isinstance(p, EraseAct))
