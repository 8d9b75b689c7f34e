"""The act kinds that name a binding or a body by id: rebind, retire, erase.

Stores: nothing (pure types).
Refuses (``LedgerError`` naming the act, never a body): a binding id or body hash
that is not 64 lowercase hex digits, a rebind path that is not relative and clean,
a rebind's supersede whose entry is not the section it names (``section_hash``),
an unknown or unsorted normalisation, and erase fingerprints (``lines``,
``tokens``) that are not distinct sorted 64-hex values, at most
``MAX_TOMBSTONE_LINES``.
Returns: ``RebindAct``, ``RetireAct``, ``EraseAct`` (each names its ``KIND``, its
``KEYS`` and ``OPTIONAL`` fields, its ``signer``; ``parse`` one from a ``Reader``,
``to_fields`` back).
Test: tests/ledger/test_ledger_kinds.py, tests/ledger/test_ledger_normalise.py,
tests/custody/test_tombstone.py
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from forest_files.ledger.entry_kinds import SupersedeAct
from forest_files.ledger.fault import is_hex64
from forest_files.ledger.fields import (
    MAX_TOMBSTONE_LINES,
    Reader,
    check_path,
    normalise_field,
)


@dataclass(frozen=True)
class RebindAct:
    """The binding made by act ``binding`` lives at ``path``/``selector`` now.

    With ``supersede`` (optional; a renamed *and* edited section) the act also
    supersedes the binding's ground with the text found there, in the same act:
    ``section_hash`` is then the new entry's body hash and ``by`` its adopter.
    With ``normalise`` (format 3 only; absent otherwise) the binding's declared
    normalisations are that list from this act on (empty: none), and
    ``section_hash`` is the section read under them."""

    binding: str
    path: str
    selector: str
    section_hash: str
    by: str
    at: str
    supersede: SupersedeAct | None = None
    normalise: tuple[str, ...] | None = None
    KIND: ClassVar[str] = "rebind"
    KEYS: ClassVar[frozenset[str]] = frozenset(
        {"binding", "path", "selector", "section_hash", "by", "at"}
    )
    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"supersede"})

    @property
    def signer(self) -> str:
        return self.by

    def to_fields(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "binding": self.binding,
            "path": self.path,
            "selector": self.selector,
            "section_hash": self.section_hash,
            "by": self.by,
            "at": self.at,
        }
        if self.supersede is not None:  # absent, not null: older rebinds encode as before
            out["supersede"] = self.supersede.to_fields()
        if self.normalise is not None:  # format 3 (ledger/versions.py)
            out["normalise"] = list(self.normalise)
        return out

    @classmethod
    def parse(cls, r: Reader) -> RebindAct:
        part = None
        if "supersede" in r.value:
            raw, keys = r.value["supersede"], SupersedeAct.KEYS
            inner = Reader(raw, act_id=r.act_id, where="rebind supersede", keys=keys)
            part = SupersedeAct.parse(inner)
            if part.entry.body_hash != r.hex64("section_hash"):
                raise r.fail("field 'section_hash' must be its supersede entry's body_hash")
        return cls(
            binding=r.hex64("binding"),
            path=check_path(r, "path"),
            selector=r.text("selector"),
            section_hash=r.hex64("section_hash"),
            by=r.text("by"),
            at=r.text("at"),
            supersede=part,
            normalise=normalise_field(r, "normalise", empty=True),
        )


@dataclass(frozen=True)
class RetireAct:
    binding: str
    words: str
    by: str
    at: str
    KIND: ClassVar[str] = "retire"
    KEYS: ClassVar[frozenset[str]] = frozenset({"binding", "words", "by", "at"})
    OPTIONAL: ClassVar[frozenset[str]] = frozenset()

    @property
    def signer(self) -> str:
        return self.by

    def to_fields(self) -> dict[str, Any]:
        return {"binding": self.binding, "words": self.words, "by": self.by, "at": self.at}

    @classmethod
    def parse(cls, r: Reader) -> RetireAct:
        return cls(
            binding=r.hex64("binding"), words=r.text("words"), by=r.text("by"), at=r.text("at")
        )


@dataclass(frozen=True)
class EraseAct:
    """The body with ``body_hash`` is removed. ``lines`` (optional; absent, not
    empty, in erase acts made before tombstones): the tombstone, salted
    fingerprints of the erased body's long lines (custody/tombstone.py), sorted
    and distinct; an adopt or supersede that depends on this act and holds one of
    those lines is refused. ``tokens`` (format 3 only; absent otherwise): the
    fingerprints of the body's long secret-like tokens (custody/tombtokens.py)."""

    body_hash: str
    by: str
    reason: str
    at: str
    lines: tuple[str, ...] | None = None
    tokens: tuple[str, ...] | None = None
    KIND: ClassVar[str] = "erase"
    KEYS: ClassVar[frozenset[str]] = frozenset({"body_hash", "by", "reason", "at"})
    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"lines"})

    @property
    def signer(self) -> str:
        return self.by

    def to_fields(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "body_hash": self.body_hash,
            "by": self.by,
            "reason": self.reason,
            "at": self.at,
        }
        if self.lines is not None:  # absent, not null: older erases encode as before
            out["lines"] = list(self.lines)
        if self.tokens is not None:  # format 3 (ledger/versions.py)
            out["tokens"] = list(self.tokens)
        return out

    @classmethod
    def parse(cls, r: Reader) -> EraseAct:
        return cls(
            body_hash=r.hex64("body_hash"),
            by=r.text("by"),
            reason=r.text("reason"),
            at=r.text("at"),
            lines=_fingerprints(r, "lines"),
            tokens=_fingerprints(r, "tokens"),
        )


def _fingerprints(r: Reader, key: str) -> tuple[str, ...] | None:
    """An optional list of distinct sorted 64-hex fingerprints (None when absent)."""
    if key not in r.value:
        return None
    values = r.texts(key, limit=MAX_TOMBSTONE_LINES)
    if not all(is_hex64(v) for v in values) or list(values) != sorted(set(values)):
        raise r.fail(f"field {key!r} must be distinct 64-hex fingerprints, sorted")
    return values
