"""The records an act carries inside it: an entry's and a binding's (``EntryRecord``, ``BindSpec``).

Stores: nothing (pure types).
Refuses (``LedgerError`` naming the act, never a body): an entry record with a
field missing, unknown or of the wrong type, a content id or body hash that is not
64 lowercase hex digits, meta that ``bounds.check_meta`` refuses, more origins than
``bounds.MAX_ACT_ORIGINS``; a binding whose path is not relative and clean, whose
exclusions or normalisations ``fields`` refuses, or whose ``normalise`` field is
newer than the act's ledger format.
Returns: ``EntryRecord`` and ``BindSpec`` values (``parse`` one, ``to_fields``
back); ``entry_fast``, the one-pass check of a well-formed entry record (None for
anything the full parse must judge).
Test: tests/ledger/test_ledger_kinds.py, tests/ledger/test_ledger_kinds_fast.py
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from forest_files.kernel import bounds
from forest_files.ledger import versions
from forest_files.ledger.fault import HEX64_MATCH, is_hex64
from forest_files.ledger.fields import (
    MAX_EXCLUDES,
    MAX_TEXT,
    Reader,
    check_excludes,
    check_path,
    make_frozen,
    normalise_field,
    rules_of,
    visible,
)
from forest_files.ledger.versions import BASE_VERSION

# --- entries ---------------------------------------------------------------------------


@dataclass(frozen=True)
class EntryRecord:
    """The immutable fields of one entry, as an act declares them."""

    content_id: str
    scope: str
    created_at: str
    jurisdiction: str
    bucket: str
    source: str | None
    signature: str
    body_hash: str
    meta: Mapping[str, Any]
    nonce: str
    origins: tuple[tuple[str, str], ...]

    KEYS: ClassVar[frozenset[str]] = frozenset(
        {
            "content_id",
            "scope",
            "created_at",
            "jurisdiction",
            "bucket",
            "source",
            "signature",
            "body_hash",
            "meta",
            "nonce",
            "origins",
        }
    )

    @property
    def stamp(self) -> tuple[str, str]:
        return (self.created_at, self.nonce)

    def to_fields(self) -> dict[str, Any]:
        return {
            "content_id": self.content_id,
            "scope": self.scope,
            "created_at": self.created_at,
            "jurisdiction": self.jurisdiction,
            "bucket": self.bucket,
            "source": self.source,
            "signature": self.signature,
            "body_hash": self.body_hash,
            "meta": dict(self.meta),
            "nonce": self.nonce,
            "origins": [list(o) for o in self.origins],
        }

    @classmethod
    def parse(cls, value: object, *, act_id: str, key: str) -> EntryRecord:
        if type(value) is dict and value.keys() == cls.KEYS:
            made = entry_fast(cls, value)
            if made is not None:
                return made
        r = Reader(value, act_id=act_id, where=key, keys=cls.KEYS)
        meta = r.value["meta"]
        if type(meta) is not dict and not isinstance(meta, Mapping):
            raise r.fail("field 'meta' must be an object")
        try:
            bounds.check_meta(meta, "field 'meta'")
        except bounds.BoundsRefused as exc:
            raise r.fail(str(exc)) from None
        origins = r.value["origins"]
        if not isinstance(origins, list) or not all(
            isinstance(o, list) and len(o) == 2 and is_hex64(o[0]) and isinstance(o[1], str)
            for o in origins
        ):
            raise r.fail("field 'origins' must be a list of [content_id, kind] pairs")
        if len(origins) > bounds.MAX_ACT_ORIGINS:
            raise r.fail(f"field 'origins' holds more than {bounds.MAX_ACT_ORIGINS} pairs")
        text = r.text
        return make_frozen(
            cls,
            content_id=r.hex64("content_id"),
            scope=text("scope"),
            created_at=text("created_at"),
            jurisdiction=text("jurisdiction"),
            bucket=text("bucket"),
            source=r.optional_text("source"),
            signature=text("signature"),
            body_hash=r.hex64("body_hash"),
            meta=dict(meta),
            nonce=text("nonce", blank=True),
            origins=tuple((str(c), str(k)) for c, k in origins),
        )


_ENTRY_TEXTS = ("scope", "created_at", "jurisdiction", "bucket", "signature")


def entry_fast(cls: type[EntryRecord], value: dict[str, Any]) -> EntryRecord | None:
    """The record of a well-formed ``value`` (exactly the entry's fields), checked by
    the rules of ``EntryRecord.parse`` in one pass; None for anything else, which the
    full parse then refuses with its message (the two accept the same records)."""
    for name in _ENTRY_TEXTS:
        text = value[name]
        if type(text) is not str or len(text) > MAX_TEXT or not visible(text):
            return None
    cid, body, source, nonce = (
        value["content_id"], value["body_hash"], value["source"], value["nonce"]
    )  # fmt: skip
    if not (type(cid) is str and len(cid) == 64 and HEX64_MATCH(cid) is not None):
        return None
    if not (type(body) is str and len(body) == 64 and HEX64_MATCH(body) is not None):
        return None
    if source is not None and (type(source) is not str or len(source) > MAX_TEXT):
        return None
    if type(nonce) is not str or len(nonce) > MAX_TEXT:
        return None
    origins, meta = value["origins"], value["meta"]
    if type(origins) is not list or len(origins) > bounds.MAX_ACT_ORIGINS:
        return None
    for o in origins:
        if type(o) is not list or len(o) != 2 or not is_hex64(o[0]) or type(o[1]) is not str:
            return None
    if type(meta) is not dict:
        return None
    try:
        bounds.check_meta(meta, "field 'meta'")
    except bounds.BoundsRefused:
        return None
    return make_frozen(
        cls,
        content_id=cid,
        scope=value["scope"],
        created_at=value["created_at"],
        jurisdiction=value["jurisdiction"],
        bucket=value["bucket"],
        source=source,
        signature=value["signature"],
        body_hash=body,
        meta=dict(meta),
        nonce=nonce,
        origins=tuple((c, k) for c, k in origins),
    )


@dataclass(frozen=True)
class BindSpec:
    """Where an adopted section lives: path, full selector, exclusions, hash rules.
    ``normalise`` (format 3; absent when empty): the declared normalisations."""

    path: str
    selector: str
    excludes: tuple[str, ...]
    normalisation: str
    hash_algo: str
    section_hash: str
    normalise: tuple[str, ...] = ()

    KEYS: ClassVar[frozenset[str]] = frozenset(
        {"path", "selector", "excludes", "normalisation", "hash_algo", "section_hash"}
    )

    def to_fields(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "selector": self.selector,
            "excludes": list(self.excludes),
            "normalisation": self.normalisation,
            "hash_algo": self.hash_algo,
            "section_hash": self.section_hash,
            **({"normalise": list(self.normalise)} if self.normalise else {}),
        }

    @property
    def rules(self) -> tuple[str, ...]:
        """Exclusions and normalisations, as extract takes them."""
        return rules_of(self.excludes, self.normalise)

    @classmethod
    def parse(cls, value: object, *, act_id: str, version: int = BASE_VERSION) -> BindSpec:
        keys = cls.KEYS
        if isinstance(value, Mapping) and "normalise" in value:
            versions.refuse_newer("adopt.binding", value, version, act_id=act_id)
            keys = keys | versions.allowed("adopt.binding", version)
        r = Reader(value, act_id=act_id, where="binding", keys=keys)
        return make_frozen(
            cls,
            path=check_path(r, "path"),
            selector=r.text("selector"),
            excludes=check_excludes(r, r.texts("excludes", limit=MAX_EXCLUDES)),
            normalisation=r.text("normalisation"),
            hash_algo=r.text("hash_algo"),
            section_hash=r.hex64("section_hash"),
            normalise=normalise_field(r, "normalise", empty=False) or (),
        )
