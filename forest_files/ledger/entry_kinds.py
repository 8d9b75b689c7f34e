"""The act kinds that carry entry records: write, adopt, supersede, resolve, seal, unseal.

Stores: nothing (pure types).
Refuses (``LedgerError`` naming the act, never a body): what ``EntryRecord.parse``
and ``BindSpec.parse`` refuse in the act's records, a ``old``, ``pick`` or ``target``
that is not 64 lowercase hex digits, and a resolve whose ``heads`` are not two or
more distinct sorted content ids (at most ``MAX_HEADS``).
Returns: ``WriteAct``, ``AdoptAct``, ``SupersedeAct``, ``ResolveAct``, ``SealAct``,
``UnsealAct`` (each names its ``KIND``, its ``KEYS`` and ``OPTIONAL`` fields, its
``signer``; ``parse`` one from a ``Reader``, ``to_fields`` back); ``seal_act``.
Test: tests/ledger/test_ledger_kinds.py, tests/ledger/test_ledger_codec.py
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from forest_files.ledger.act_records import BindSpec, EntryRecord
from forest_files.ledger.fault import is_hex64
from forest_files.ledger.fields import MAX_HEADS, Reader, make_frozen


@dataclass(frozen=True)
class WriteAct:
    entry: EntryRecord
    KIND: ClassVar[str] = "write"
    KEYS: ClassVar[frozenset[str]] = frozenset({"entry"})
    OPTIONAL: ClassVar[frozenset[str]] = frozenset()

    @property
    def signer(self) -> str:
        return self.entry.signature

    def to_fields(self) -> dict[str, Any]:
        return {"entry": self.entry.to_fields()}

    @classmethod
    def parse(cls, r: Reader) -> WriteAct:
        return cls(EntryRecord.parse(r.value["entry"], act_id=r.act_id, key="entry"))


@dataclass(frozen=True)
class AdoptAct:
    entry: EntryRecord
    record: EntryRecord
    binding: BindSpec | None
    KIND: ClassVar[str] = "adopt"
    KEYS: ClassVar[frozenset[str]] = frozenset({"entry", "record", "binding"})
    OPTIONAL: ClassVar[frozenset[str]] = frozenset()

    @property
    def signer(self) -> str:
        return self.record.signature

    def to_fields(self) -> dict[str, Any]:
        return {
            "entry": self.entry.to_fields(),
            "record": self.record.to_fields(),
            "binding": None if self.binding is None else self.binding.to_fields(),
        }

    @classmethod
    def parse(cls, r: Reader) -> AdoptAct:
        raw = r.value["binding"]
        return make_frozen(
            cls,
            entry=EntryRecord.parse(r.value["entry"], act_id=r.act_id, key="entry"),
            record=EntryRecord.parse(r.value["record"], act_id=r.act_id, key="record"),
            binding=None
            if raw is None
            else BindSpec.parse(raw, act_id=r.act_id, version=r.version),
        )


@dataclass(frozen=True)
class SupersedeAct:
    old: str
    entry: EntryRecord
    record: EntryRecord
    KIND: ClassVar[str] = "supersede"
    KEYS: ClassVar[frozenset[str]] = frozenset({"old", "entry", "record"})
    OPTIONAL: ClassVar[frozenset[str]] = frozenset()

    @property
    def signer(self) -> str:
        return self.record.signature

    def to_fields(self) -> dict[str, Any]:
        return {"old": self.old, "entry": self.entry.to_fields(), "record": self.record.to_fields()}

    @classmethod
    def parse(cls, r: Reader) -> SupersedeAct:
        return cls(
            old=r.hex64("old"),
            entry=EntryRecord.parse(r.value["entry"], act_id=r.act_id, key="entry"),
            record=EntryRecord.parse(r.value["record"], act_id=r.act_id, key="record"),
        )


@dataclass(frozen=True)
class ResolveAct:
    heads: tuple[str, ...]
    pick: str
    entry: EntryRecord
    record: EntryRecord
    KIND: ClassVar[str] = "resolve"
    KEYS: ClassVar[frozenset[str]] = frozenset({"heads", "pick", "entry", "record"})
    OPTIONAL: ClassVar[frozenset[str]] = frozenset()

    @property
    def signer(self) -> str:
        return self.record.signature

    def to_fields(self) -> dict[str, Any]:
        return {
            "heads": list(self.heads),
            "pick": self.pick,
            "entry": self.entry.to_fields(),
            "record": self.record.to_fields(),
        }

    @classmethod
    def parse(cls, r: Reader) -> ResolveAct:
        heads = r.texts("heads", limit=MAX_HEADS)
        if (
            len(heads) < 2
            or not all(is_hex64(h) for h in heads)
            or list(heads) != sorted(set(heads))
        ):
            raise r.fail("field 'heads' must name two or more distinct content ids, sorted")
        return cls(
            heads=heads,
            pick=r.hex64("pick"),
            entry=EntryRecord.parse(r.value["entry"], act_id=r.act_id, key="entry"),
            record=EntryRecord.parse(r.value["record"], act_id=r.act_id, key="record"),
        )


@dataclass(frozen=True)
class SealAct:
    """A seal of ``target``: its body leaves every retrieval path until unsealed."""

    target: str
    record: EntryRecord
    KIND: ClassVar[str] = "seal"
    KEYS: ClassVar[frozenset[str]] = frozenset({"target", "record"})
    OPTIONAL: ClassVar[frozenset[str]] = frozenset()
    sealing: ClassVar[bool] = True  # False for the unseal, the same fields the other way

    @property
    def signer(self) -> str:
        return self.record.signature

    def to_fields(self) -> dict[str, Any]:
        return {"target": self.target, "record": self.record.to_fields()}

    @classmethod
    def parse(cls, r: Reader) -> SealAct:
        return make_frozen(
            cls,
            target=r.hex64("target"),
            record=EntryRecord.parse(r.value["record"], act_id=r.act_id, key="record"),
        )


@dataclass(frozen=True)
class UnsealAct(SealAct):
    """An unseal of ``target``: a seal's fields, undoing it (a ``SealAct`` with
    ``sealing`` False, so one applier judges both directions)."""

    KIND: ClassVar[str] = "unseal"
    sealing: ClassVar[bool] = False


def seal_act(target: str, record: EntryRecord, *, sealing: bool) -> SealAct:
    """The seal (or, ``sealing`` False, the unseal) of ``target`` by ``record``."""
    return (SealAct if sealing else UnsealAct)(target=target, record=record)
