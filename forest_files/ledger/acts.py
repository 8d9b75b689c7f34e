"""Ledger acts: one canonical JSON object per line, named by its own hash.

Stores: nothing (pure codec).
Refuses: with ``LedgerError`` naming segment and line, never the text: lines that
are not UTF-8, not JSON, not an object, not byte-for-byte canonical, whose "id"
is missing or does not match, whose "v" is not format 2 or 3 (format 1 is
refused with one line saying so; a newer format asks for an upgrade; a
format-2 act carrying a format-3 field is refused, ledger/versions.py), whose "scope"
(the project id) is missing, whose kind is unknown, whose deps are not a
sorted list of 64-hex ids (at most ``MAX_DEPS``), or whose fields do not parse as their kind's typed
payload (``kinds``: an unknown field is refused, never skipped).
Returns: frozen ``Act`` values (envelope plus typed ``payload``); encoded lines.
Acts in dependency order are act_order.py's.
Test: tests/ledger/test_ledger_codec.py, tests/ledger/test_ledger_compiled_codec.py

Canonical form is checked and written by the compiled codec where it vouches for
the bytes (``hashing.canonical_object``); every other line goes through the json
module (``canonical.reference_object``), which gives each refusal as it always has.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from itertools import pairwise
from types import MappingProxyType
from typing import Any

from forest_files.kernel import bounds
from forest_files.kernel.errors import ForestError
from forest_files.kernel.hashing import (
    canonical_bytes,
    canonical_json,
    canonical_object,
    reference_json,
    sha256_text,
)
from forest_files.ledger import versions
from forest_files.ledger.canonical import (
    reference_canonical,
    reference_object,
    without_id,
    without_id_text,
)

# Named here too (explicit re-exports): readers of the format import them from the codec.
from forest_files.ledger.fault import LedgerError as LedgerError
from forest_files.ledger.fault import is_hex64 as is_hex64
from forest_files.ledger.kinds import KINDS as KINDS
from forest_files.ledger.kinds import Payload, body_refs, parse_payload

FORMAT_VERSION = versions.NEWEST_VERSION  # the newest format read; writers: version_for
RESERVED_KEYS = frozenset({"v", "kind", "deps", "id", "scope"})
MAX_SCOPE = bounds.MAX_SCOPE_CHARS
MAX_DEPS = bounds.MAX_ACT_DEPS  # ids in one act's deps


@dataclass(frozen=True)
class Act:
    """One decoded act. ``fields`` holds every key except v, kind, deps, scope and id;
    ``payload`` is the same fields as the kind's typed value: the ``kinds`` class
    whose ``KIND`` is ``kind`` (``kinds.Payload``)."""

    kind: str
    deps: tuple[str, ...]
    fields: Mapping[str, Any] = field(compare=False, hash=False)
    id: str
    payload: Payload = field(compare=False, hash=False, repr=False)
    scope: str = ""
    version: int = versions.BASE_VERSION
    # The canonical line this act was decoded from or built as (None: encode it). Not
    # an init field, so ``dataclasses.replace`` (a changed act) never carries it over.
    line: str | None = field(default=None, init=False, compare=False, hash=False, repr=False)

    def to_object(self) -> dict[str, Any]:
        """The JSON object of the act, including its id."""
        return {**self._body(), "id": self.id}

    def _body(self) -> dict[str, Any]:
        return {
            **self.fields,
            "v": self.version,
            "kind": self.kind,
            "deps": list(self.deps),
            "scope": self.scope,
        }


def build_act(payload: Payload, deps: Iterable[str], *, scope: str) -> Act:
    """The act of a typed payload (``kinds``), of the current format."""
    return make_act(payload.KIND, deps, payload.to_fields(), scope=scope)


def make_act(kind: str, deps: Iterable[str], fields: Mapping[str, Any], *, scope: str) -> Act:
    """Build a new act of the current format; deps are deduplicated and sorted; the
    fields must parse as the kind's typed payload."""
    if kind not in KINDS:
        raise ForestError(f"unknown act kind {kind!r}; use one of {sorted(KINDS)}")
    if not isinstance(scope, str) or not scope.strip() or len(scope) > MAX_SCOPE:
        raise ForestError("an act needs its scope: the project id of forest.toml")
    dep_list = sorted(set(deps))
    if len(dep_list) > MAX_DEPS:
        raise ForestError(
            f"an act names {len(dep_list)} deps, over the bound of {MAX_DEPS} a reader "
            "accepts; it cannot be recorded"
        )
    bad = [d for d in dep_list if not is_hex64(d)]
    if bad:
        raise ForestError("act deps must be 64-digit lowercase hex act ids")
    clash = RESERVED_KEYS.intersection(fields)
    if clash:
        raise ForestError(f"act fields may not use reserved keys {sorted(clash)}")
    version = versions.version_for(kind, fields)
    envelope = {"v": version, "kind": kind, "deps": dep_list, "scope": scope}
    built = _compiled(kind, {**fields, **envelope, "id": _PLACEHOLDER})
    if built is not None:
        return built
    try:
        # One encoding gives both the id's text and the line: the line with a
        # placeholder id, its id member cut out exactly as a reader cuts it.
        full: str | None = reference_json({**fields, **envelope, "id": _PLACEHOLDER})
        body = None if full is None else without_id_text(full, _PLACEHOLDER)
        if body is None:  # the placeholder occurs in the fields too: encode twice
            body, full = reference_json({**fields, **envelope}), None
        act_id = sha256_text(body)
    except UnicodeEncodeError as exc:  # a lone surrogate: named, with the fix
        fault = bounds.unicode_fault({**fields, "scope": scope}, kind)
        raise bounds.not_unicode(*(fault or (kind, exc.start))) from None
    except TypeError as exc:
        raise ForestError(f"act fields must be JSON values of valid Unicode text: {exc}") from None
    # Round-trip through JSON so the stored fields are exactly what a reader
    # decodes (tuples become lists) and later mutation of the input is harmless.
    act = _built(kind, json.loads(body), act_id)
    if full is not None:
        # The line a reader checks: canonical iff the fields re-encode as they decode,
        # the very condition under which the id above is the one a reader computes.
        member = f'"id":"{_PLACEHOLDER}"'
        object.__setattr__(act, "line", full.replace(member, f'"id":"{act_id}"', 1))
    return act


def _compiled(kind: str, obj: dict[str, Any]) -> Act | None:
    """``make_act`` by the compiled codec: the act, or None when it cannot vouch that its
    bytes are the json module's (a float, a tuple, a value it prints otherwise)."""
    data = canonical_bytes(obj)
    decoded = None if data is None else canonical_object(data)
    if data is None or decoded != obj:
        return None
    body = without_id(data, _PLACEHOLDER)
    if body is None:
        return None
    act_id = hashlib.sha256(body).hexdigest()
    del decoded["id"]
    act = _built(kind, decoded, act_id)
    member = f'"id":"{_PLACEHOLDER}"'.encode("ascii")
    line = data.replace(member, f'"id":"{act_id}"'.encode("ascii"), 1)
    object.__setattr__(act, "line", line.decode("utf-8"))
    return act


def _built(kind: str, obj: dict[str, Any], act_id: str) -> Act:
    try:
        return _from_object(obj, act_id)
    except LedgerError as exc:
        raise ForestError(f"cannot build a {kind} act: {exc.reason}") from None


# A 64-hex id no act has (its member text is cut out of the encoding; see make_act).
_PLACEHOLDER = "0" * 64


def encode_act(act: Act) -> str:
    """The act's canonical line, without the trailing newline."""
    if act.line is not None:  # built or decoded as exactly this line
        return act.line
    return canonical_json(act.to_object())


def _from_object(obj: dict[str, Any], act_id: str) -> Act:
    rest = {k: v for k, v in obj.items() if k not in RESERVED_KEYS}
    payload = parse_payload(obj["kind"], rest, act_id=act_id, version=obj["v"])
    # Every field at once, without the frozen __init__'s per-field setattr (a rebuild
    # makes one Act per line); Act defines no __post_init__.
    act = object.__new__(Act)
    act.__dict__.update(
        kind=obj["kind"],
        deps=tuple(obj["deps"]),
        fields=MappingProxyType(rest),
        id=act_id,
        scope=obj["scope"],
        version=obj["v"],
        payload=payload,
        line=None,
    )
    return act


def decode_line(line: bytes, *, segment: str, lineno: int) -> Act:
    """Parse one line (without its LF) and check every rule of its format (2 or 3)."""

    def fail(reason: str, code: str = "malformed", act_id: str | None = None) -> LedgerError:
        return LedgerError(reason, segment=segment, line=lineno, act_id=act_id, code=code)

    obj = canonical_object(line)  # the compiled codec vouches for the line, or:
    if obj is None:
        text, obj = reference_object(line, fail)
        _check_version(obj.get("v"), fail)
        reference_canonical(text, obj, fail)
    else:
        _check_version(obj.get("v"), fail)
    claimed = obj.pop("id", None)
    if not isinstance(claimed, str):
        raise fail('"id" missing or not a string')
    without = without_id(line, claimed)
    if without is None:
        actual = sha256_text(canonical_json(obj))
    else:
        actual = hashlib.sha256(without).hexdigest()
    if claimed != actual:
        raise fail(
            f"act id {claimed} does not match its content (hashes to {actual})",
            "id-mismatch",
            act_id=claimed,
        )
    kind = obj.get("kind")
    if not isinstance(kind, str) or kind not in KINDS:
        raise fail(f"unknown act kind in ledger format {obj['v']}", act_id=claimed)
    deps = obj.get("deps")
    if isinstance(deps, list) and len(deps) > MAX_DEPS:
        raise fail(
            f'"deps" holds {len(deps)} act ids, over the bound of {MAX_DEPS}', act_id=claimed
        )
    if not isinstance(deps, list) or not all(is_hex64(d) for d in deps):
        raise fail('"deps" is not a list of 64-hex act ids', act_id=claimed)
    if any(a >= b for a, b in pairwise(deps)):
        raise fail('"deps" is not strictly sorted', act_id=claimed)
    scope = obj.get("scope")
    if not isinstance(scope, str) or not scope.strip() or len(scope) > MAX_SCOPE:
        raise fail('"scope" (the project id) missing or not a short string', act_id=claimed)
    try:
        act = _from_object(obj, claimed)
    except LedgerError as exc:
        raise LedgerError(
            exc.reason, segment=segment, line=lineno, act_id=claimed, code=exc.code
        ) from None
    object.__setattr__(act, "line", line.decode("utf-8"))  # checked canonical above
    return act


def _check_version(version: object, fail: Callable[[str, str], LedgerError]) -> None:
    if isinstance(version, bool) or not isinstance(version, int):
        raise fail('"v" (ledger format version) missing or not an integer', "bad-version")
    if version > FORMAT_VERSION:
        raise fail(
            f"written by a newer forest-files: needs ledger format {version}; upgrade forest-files",
            "bad-version",
        )
    if version == 1:
        raise fail(
            "ledger format 1 (forest-files before 0.2): no reader and no converter for it",
            "bad-version",
        )
    if version < 1:
        raise fail(f"unknown ledger format {version}", "bad-version")


def body_hashes(act: Act) -> frozenset[str]:
    """The body hashes an act refers to (from its typed payload)."""
    return frozenset(body_refs(act.payload))
