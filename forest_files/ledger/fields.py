"""Field access for one object of an act, and the checks the kinds share.

Stores: nothing (pure functions and the format's bounds).
Refuses (``LedgerError`` naming the act and the object, never a body): a value
that is not an object, a field this reader does not know (code ``unknown-field``),
a missing field, a text that is blank or over ``MAX_TEXT``, a hash or id that is
not 64 lowercase hex digits, a list over its limit, a ``line:`` exclusion that is
not a clean literal prefix, a ``normalise:`` item among exclusions, an unknown or
unsorted normalisation, and a repository path that is not relative and clean.
Returns: ``Reader`` (one object's checked fields, and ``fail`` to refuse one),
``check_excludes``, ``normalise_field``, ``check_path``, ``rules_of``, ``visible``,
``make_frozen``; the bounds ``MAX_TEXT``, ``MAX_EXCLUDES``, ``MAX_LINE_PREFIX``,
``MAX_HEADS``, ``MAX_META_CHARS``, ``MAX_TOMBSTONE_LINES`` (forest_files/kernel/bounds.py).
Test: tests/ledger/test_ledger_kinds.py, tests/ledger/test_ledger_kinds_fast.py,
tests/text/test_selector_rules.py
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from forest_files.kernel import bounds
from forest_files.kernel.repopath import check_repo_path
from forest_files.ledger.fault import HEX64_MATCH, LedgerError, is_hex64
from forest_files.ledger.versions import BASE_VERSION

# The format's bounds, defined once in forest_files/kernel/bounds.py (with their reasons).
MAX_TEXT = bounds.MAX_TEXT_CHARS  # characters of a path, selector, signature, time, name
MAX_EXCLUDES = bounds.MAX_EXCLUDES
MAX_LINE_PREFIX = bounds.MAX_LINE_PREFIX  # characters of a ``line:`` exclusion's prefix
MAX_HEADS = bounds.MAX_HEADS
MAX_META_CHARS = bounds.MAX_META_BYTES  # UTF-8 bytes of an entry's meta as canonical JSON
MAX_TOMBSTONE_LINES = bounds.MAX_TOMBSTONE_LINES  # fingerprints one erase act carries


def visible(value: str) -> bool:
    """Not blank: ``value.strip()`` would leave something (without making the copy)."""
    return bool(value) and not value.isspace()


class Reader:
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
        if type(value) is str and len(value) <= MAX_TEXT and (blank or visible(value)):
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


def check_excludes(reader: Reader, excludes: tuple[str, ...]) -> tuple[str, ...]:
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


def normalise_field(reader: Reader, key: str, *, empty: bool) -> tuple[str, ...] | None:
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


def check_path(reader: Reader, key: str) -> str:
    try:
        return check_repo_path(reader.text(key))
    except ValueError as exc:
        raise reader.fail(f"field {key!r}: {exc}") from None


_T = TypeVar("_T")


def make_frozen(cls: type[_T], **values: Any) -> _T:
    """A frozen dataclass of parsed ``values`` (every field, checked by the caller),
    without ``__init__``'s one ``object.__setattr__`` per field: a rebuild parses two
    records per act. The classes made this way define no ``__post_init__``."""
    made = object.__new__(cls)
    made.__dict__.update(values)
    return made
