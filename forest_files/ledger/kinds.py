"""Typed acts of ledger formats 2 and 3: one frozen type per kind, its fields, its codec.

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

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar, TypeAlias, TypeVar, get_args

from forest_files.kernel import bounds
from forest_files.kernel.repopath import check_repo_path
from forest_files.ledger import versions
from forest_files.ledger.fault import HEX64_MATCH, LedgerError, is_hex64
from forest_files.ledger.versions import BASE_VERSION

# The format's bounds, defined once in forest_files/kernel/bounds.py (with their reasons).
MAX_TEXT = bounds.MAX_TEXT_CHARS  # characters of a path, selector, signature, time, name
MAX_EXCLUDES = bounds.MAX_EXCLUDES
MAX_LINE_PREFIX = bounds.MAX_LINE_PREFIX  # characters of a ``line:`` exclusion's prefix
MAX_HEADS = bounds.MAX_HEADS
MAX_META_CHARS = bounds.MAX_META_BYTES  # UTF-8 bytes of an entry's meta as canonical JSON
MAX_TOMBSTONE_LINES = bounds.MAX_TOMBSTONE_LINES  # fingerprints one erase act carries


def _visible(value: str) -> bool:
    """Not blank: ``value.strip()`` would leave something (without making the copy)."""
    return bool(value) and not value.isspace()


class _Reader:
    """Field access for one object of one act, with refusals that name both."""

    def __init__(
        self,
        value: object,
        *,
        act_id: str,
        where: str,
        keys: frozenset[str],
        version: int = BASE_VERSION,
    ) -> None:
        self.act_id, self.where, self.version = act_id, where, version
        if type(value) is not dict and not isinstance(value, Mapping):  # dict: no ABC check
            raise self.fail("is not an object")
        if value.keys() == keys:  # the common case: exactly the kind's fields
            self.value: Mapping[str, Any] = value
            return
        unknown = sorted(set(value) - keys)
        if unknown:
            raise self.fail(
                f"has field {unknown[0]!r}, which this forest-files does not know; "
                "upgrade forest-files (an unknown field is never skipped)",
                code="unknown-field",
            )
        missing = sorted(keys - set(value))
        if missing:
            raise self.fail(f"lacks field {missing[0]!r}")
        self.value = value

    def fail(self, problem: str, *, code: str = "malformed") -> LedgerError:
        return LedgerError(
            f"act {self.act_id}: {self.where} {problem}", act_id=self.act_id, code=code
        )

    def text(self, key: str, *, blank: bool = False) -> str:
        value = self.value[key]
        if type(value) is str and len(value) <= MAX_TEXT and (blank or _visible(value)):
            return value  # the common case, without the checks' messages
        if not isinstance(value, str) or (not blank and not value.strip()):
            raise self.fail(f"field {key!r} must be a non-blank string")
        if len(value) > MAX_TEXT:
            raise self.fail(f"field {key!r} is longer than {MAX_TEXT} characters")
        return value

    def optional_text(self, key: str) -> str | None:
        return None if self.value[key] is None else self.text(key, blank=True)

    def hex64(self, key: str) -> str:
        value = self.value[key]
        if type(value) is str and len(value) == 64 and HEX64_MATCH(value) is not None:
            return value
        if not is_hex64(value):
            raise self.fail(f"field {key!r} must be 64 lowercase hex digits")
        return str(value)

    def texts(self, key: str, *, limit: int) -> tuple[str, ...]:
        value = self.value[key]
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise self.fail(f"field {key!r} must be a list of non-empty strings")
        if len(value) > limit:
            raise self.fail(f"field {key!r} holds more than {limit} items")
        if any(len(v) > MAX_TEXT for v in value):
            raise self.fail(f"field {key!r} holds an item longer than {MAX_TEXT} characters")
        return tuple(value)


def _check_excludes(reader: _Reader, excludes: tuple[str, ...]) -> tuple[str, ...]:
    """A ``line:`` exclusion is a literal prefix with a non-space character, no
    control character and at most ``MAX_LINE_PREFIX`` characters, so a replayed
    one can only remove the lines it names (files/exclude.py applies it)."""
    for item in excludes:
        if item.startswith("normalise:"):  # never through excludes: format 3's field
            raise reader.fail(
                "field 'excludes': a 'normalise:' item is not an exclusion (normalisations "
                "are the binding's 'normalise' field, ledger format 3)"
            )
        if not item.startswith("line:"):
            continue
        prefix = item[5:]
        if (
            not prefix.strip()
            or len(prefix) > MAX_LINE_PREFIX
            or any(ord(c) < 0x20 or ord(c) == 0x7F for c in prefix)
        ):
            raise reader.fail(
                "field 'excludes': a 'line:' exclusion needs a literal prefix with a "
                f"non-space character, no control character, at most {MAX_LINE_PREFIX} "
                "characters"
            )
    return excludes


def _normalise(reader: _Reader, key: str, *, empty: bool) -> tuple[str, ...] | None:
    """The optional ``normalise`` list (format 3): known ``name@version`` labels,
    sorted and distinct (empty only where ``empty``); None when absent. An unknown
    name or version fails closed: this reader could not hash the section as the
    binding declares."""
    if key not in reader.value:
        return None
    from forest_files.text.normalisers import REGISTRY

    values = reader.texts(key, limit=len(REGISTRY))
    if not values and not empty:
        raise reader.fail(f"field {key!r} must not be empty (leave it out instead)")
    unknown = [v for v in values if v not in REGISTRY]
    if unknown:
        raise reader.fail(
            f"field {key!r} names normalisation {unknown[0][:40]!r}, which this "
            f"forest-files does not know; upgrade forest-files (known: {', '.join(REGISTRY)})"
        )
    if list(values) != sorted(set(values)):
        raise reader.fail(f"field {key!r} must list distinct normalisations, sorted")
    return values


def rules_of(excludes: tuple[str, ...], normalise: tuple[str, ...] | None) -> tuple[str, ...]:
    """A binding's exclusions with its normalisations as the ``normalise:NAME@V`` items
    extract applies (text/normalisers.py)."""
    return excludes + tuple(f"normalise:{n}" for n in normalise or ())


def _check_path(reader: _Reader, key: str) -> str:
    try:
        return check_repo_path(reader.text(key))
    except ValueError as exc:
        raise reader.fail(f"field {key!r}: {exc}") from None


_T = TypeVar("_T")


def _frozen(cls: type[_T], **values: Any) -> _T:
    """A frozen dataclass of parsed ``values`` (every field, checked by the caller),
    without ``__init__``'s one ``object.__setattr__`` per field: a rebuild parses two
    records per act. The classes made this way define no ``__post_init__``."""
    made = object.__new__(cls)
    made.__dict__.update(values)
    return made


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
            made = _entry_fast(cls, value)
            if made is not None:
                return made
        r = _Reader(value, act_id=act_id, where=key, keys=cls.KEYS)
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
        return _frozen(
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


def _entry_fast(cls: type[EntryRecord], value: dict[str, Any]) -> EntryRecord | None:
    """The record of a well-formed ``value`` (exactly the entry's fields), checked by
    the rules of ``EntryRecord.parse`` in one pass; None for anything else, which the
    full parse then refuses with its message (the two accept the same records)."""
    for name in _ENTRY_TEXTS:
        text = value[name]
        if type(text) is not str or len(text) > MAX_TEXT or not _visible(text):
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
    return _frozen(
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
        r = _Reader(value, act_id=act_id, where="binding", keys=keys)
        return _frozen(
            cls,
            path=_check_path(r, "path"),
            selector=r.text("selector"),
            excludes=_check_excludes(r, r.texts("excludes", limit=MAX_EXCLUDES)),
            normalisation=r.text("normalisation"),
            hash_algo=r.text("hash_algo"),
            section_hash=r.hex64("section_hash"),
            normalise=_normalise(r, "normalise", empty=False) or (),
        )


# --- the kinds ---------------------------------------------------------------------------


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
    def parse(cls, r: _Reader) -> WriteAct:
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
    def parse(cls, r: _Reader) -> AdoptAct:
        raw = r.value["binding"]
        return _frozen(
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
    def parse(cls, r: _Reader) -> SupersedeAct:
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
    def parse(cls, r: _Reader) -> ResolveAct:
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
    def parse(cls, r: _Reader) -> SealAct:
        return _frozen(
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
    def parse(cls, r: _Reader) -> RebindAct:
        part = None
        if "supersede" in r.value:
            raw, keys = r.value["supersede"], SupersedeAct.KEYS
            inner = _Reader(raw, act_id=r.act_id, where="rebind supersede", keys=keys)
            part = SupersedeAct.parse(inner)
            if part.entry.body_hash != r.hex64("section_hash"):
                raise r.fail("field 'section_hash' must be its supersede entry's body_hash")
        return cls(
            binding=r.hex64("binding"),
            path=_check_path(r, "path"),
            selector=r.text("selector"),
            section_hash=r.hex64("section_hash"),
            by=r.text("by"),
            at=r.text("at"),
            supersede=part,
            normalise=_normalise(r, "normalise", empty=True),
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
    def parse(cls, r: _Reader) -> RetireAct:
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
    def parse(cls, r: _Reader) -> EraseAct:
        return cls(
            body_hash=r.hex64("body_hash"),
            by=r.text("by"),
            reason=r.text("reason"),
            at=r.text("at"),
            lines=_fingerprints(r, "lines"),
            tokens=_fingerprints(r, "tokens"),
        )


def _fingerprints(r: _Reader, key: str) -> tuple[str, ...] | None:
    """An optional list of distinct sorted 64-hex fingerprints (None when absent)."""
    if key not in r.value:
        return None
    values = r.texts(key, limit=MAX_TOMBSTONE_LINES)
    if not all(is_hex64(v) for v in values) or list(values) != sorted(set(values)):
        raise r.fail(f"field {key!r} must be distinct 64-hex fingerprints, sorted")
    return values


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
    return cls.parse(_Reader(fields, act_id=act_id, where=kind, keys=keys, version=version))


def bound_path_refs(payload: Payload) -> tuple[str, ...]:
    """The repository paths an act binds: an adopt's binding, a rebind's new place.
    Every other kind keeps a binding where it is or ends it, so the paths of all
    acts of a ledger are every path its binding events can name."""
    if isinstance(payload, AdoptAct):
        return () if payload.binding is None else (payload.binding.path,)
    if isinstance(payload, RebindAct):
        return (payload.path,)
    return ()


def body_refs(payload: Payload) -> tuple[str, ...]:
    """The body hashes an act refers to: its entries' and records' bodies, or the body
    an erase names (from the typed fields, no walk over the raw object)."""
    if isinstance(payload, EraseAct):
        return (payload.body_hash,)
    out: list[str] = []
    if isinstance(payload, RebindAct) and payload.supersede is not None:
        payload = payload.supersede  # a rebind that supersedes: its entry and record
    for name in ("entry", "record"):
        record = getattr(payload, name, None)
        if isinstance(record, EntryRecord):
            out.append(record.body_hash)
    return tuple(out)
