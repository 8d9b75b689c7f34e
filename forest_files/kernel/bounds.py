"""Every input bound of forest-files, named once with its reason, and the validators.

Stores: nothing (constants and pure checks; standard library only, so the hook's
fast path may import it for nothing).
Refuses (``BoundsRefused``, a ``ForestError``: exit 1): a text that is not a
string, blank, longer than its bound, not valid Unicode text (a lone surrogate:
``not_unicode``, the one wording every layer uses), or holding a NUL or control
character; an entry id outside SQLite's integer range; metadata that
is not a JSON object of JSON values (tuples, sets, non-string keys refused),
nests deeper than ``MAX_META_DEPTH`` (the top-level object is level 1), holds an
integer of more than ``MAX_META_INT_BITS`` bits (bool is checked first) or a
NaN/infinite float, or whose canonical JSON is over ``MAX_META_BYTES`` UTF-8
bytes (RecursionError, OverflowError and ValueError become the same refusal);
a list longer than its bound; a body over its byte bound. Every message names
the field and the bound and says what to do; none echoes the value (a body or a
secret may be in it).
Returns: the checked value, so a check can wrap an argument.
Test: tests/kernel/test_bounds.py, tests/store/test_store_lone_surrogate.py (not_unicode)

Bounds that live elsewhere for now (their modules are governed by other work):
``custody/auditlog.py`` (MAX_TARGETS, MAX_TARGET_CHARS, MAX_PAGE),
``custody/watchpolicy.py`` (MAX_WATCH_RULES), ``watch/events.py`` (MAX_REQUIRED_DIRS),
``signing/keyring.py`` (MAX_KEYRING_BYTES), ``scroll.py`` (MAX_SLICE).
docs/governance.md has the table of all of them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from forest_files.kernel.errors import ForestError

# --- short texts -----------------------------------------------------------------------
# One bound for every short text an act carries (paths, selectors, signatures, times,
# names), so anything the store or a command accepts is something the ledger can carry.
MAX_TEXT_CHARS = 4096
MAX_PATH_CHARS = MAX_TEXT_CHARS  # Linux PATH_MAX; a repository path always fits an act
MAX_SELECTOR_CHARS = MAX_TEXT_CHARS  # a selector as typed: path plus section
MAX_SIGNATURE_CHARS = MAX_TEXT_CHARS  # a claimed name ("Ada <ada@x>"), --as
MAX_WORDS_CHARS = MAX_TEXT_CHARS  # adopting words: a sentence that signs, not a body
MAX_ID_CHARS = 128  # caller-chosen identifiers (the project id): TrueHeart's bound
MAX_PROJECT_ID_CHARS = MAX_ID_CHARS
MAX_SCOPE_CHARS = 256  # an act's scope as the ledger reads it (ledger/acts.py MAX_SCOPE)
MAX_STORE_SCOPE_CHARS = MAX_ID_CHARS  # ForestStore(path, scope=…) (store/lookup.py)
MAX_CONTENT_ID_CHARS = 64  # a content id, or a prefix of one: 64 hex digits at most
MAX_ENTRY_ID = 2**63 - 1  # SQLite's INTEGER: a larger int cannot even be looked up
MAX_LINE_PREFIX = 200  # a ``line:`` exclusion's literal prefix (it must name a line)
MAX_INDEX = 1_000_000  # a selector's ``[n]``: more duplicate headings than any file has

# --- metadata (TrueHeart's bounds, kept unchanged) -------------------------------------
MAX_META_DEPTH = 64  # nested containers, the top-level object counting as level 1
MAX_META_INT_BITS = 4096  # so a stored integer stays cheap to print and to parse
MAX_META_BYTES = 16384  # canonical JSON (sorted, compact, UTF-8) of one entry's meta

# --- lists -------------------------------------------------------------------------------
MAX_EXCLUDES = 64  # exclusions of one binding
MAX_HEADS = 64  # contested heads one resolve names
MAX_ACT_ORIGINS = MAX_HEADS + 1  # an entry in an act: every head plus the pick
MAX_ORIGINS = 1024  # origin edges of one library write (a pair's wild cites are separate)
MAX_TOMBSTONE_LINES = 8192  # fingerprints one erase act carries
# An act's deps: its chain's producers and the latest status change of each head (at
# most 2 * MAX_HEADS + 2) and the erase acts no other erase act names (each erase
# names the ones before it: docs/ledger-format.md); generous, so only thousands of
# erasures on branches that never saw each other come near it.
MAX_ACT_DEPS = 16384

# --- bodies and files --------------------------------------------------------------------
DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024  # [policy] max_body_bytes when forest.toml is silent
MAX_BODY_BYTES_LIMIT = 1024 * 1024 * 1024  # the most [policy] max_body_bytes may say
MAX_STORE_BODY_BYTES = MAX_BODY_BYTES_LIMIT  # a library write (ForestStore.max_body_bytes)
MAX_EXCERPT_LEN = 4096  # a recall preview; read() gives a full body
MAX_CONFIG_BYTES = 1024 * 1024  # forest.toml
MAX_REQUIRE_RULES = 256  # [require] lines
MAX_REQUIRE_GLOB_CHARS = 512
MAX_REQUIRE_EXCEPT = 64
MAX_WHEN_KEYS = 16
MAX_WHEN_VALUES = 16
MAX_WHEN_CHARS = 256

# --- the MCP door ------------------------------------------------------------------------
MAX_PROPOSED_CHARS = 1_000_000  # an agent's proposed section; max_body_bytes also applies
# The most one character can take inside a JSON string: beyond the BMP, a client that
# escapes everything sends a surrogate pair, "\ud83d\ude00" (12 bytes; 6 for any other
# \uXXXX, the 6-per-UTF-8-byte worst case of a body).
MAX_JSON_CHAR_BYTES = 12
MCP_ENVELOPE_BYTES = 64 * 1024  # keys, method, id, _meta and spaces around the arguments
# One line of ``forest mcp``'s stdin: the largest message a tool accepts is a ``propose``
# call, a text of MAX_PROPOSED_CHARS and selector, signature and reason of
# MAX_TEXT_CHARS each, every character escaped at its most. No [policy] max_body_bytes
# (up to MAX_BODY_BYTES_LIMIT) widens it: the character bound caps a proposed text first.
MAX_MCP_LINE_BYTES = (
    MAX_JSON_CHAR_BYTES * (MAX_PROPOSED_CHARS + 3 * MAX_TEXT_CHARS) + MCP_ENVELOPE_BYTES
)

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_CONTROL_NOT_LINES = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")  # tab, LF, CR allowed


class BoundsRefused(ForestError):
    """An input is outside a bound of bounds.py; ``field`` and ``rule`` say which."""

    def __init__(self, field: str, rule: str) -> None:
        self.field, self.rule = field, rule
        super().__init__(f"{field}: {rule}")


def check_text(
    field: str, value: object, max_chars: int, *, blank: bool = False, lines: bool = False
) -> str:
    """``value`` if it is a string of at most ``max_chars`` characters, not blank
    (unless ``blank``), UTF-8 encodable, with no control character (``lines``: tab and
    line breaks allowed). Surrounding whitespace is the caller's to strip or keep."""
    if not isinstance(value, str):
        raise BoundsRefused(field, f"must be a string, not {type(value).__name__}")
    if not blank and not value.strip():
        raise BoundsRefused(field, "must not be blank; give visible text")
    if len(value) > max_chars:
        raise BoundsRefused(
            field, f"is {len(value)} characters, over the bound of {max_chars}; shorten it"
        )
    if (_CONTROL_NOT_LINES if lines else _CONTROL).search(value.strip()):
        what = "a NUL or control character" if lines else "a NUL, line break or control character"
        raise BoundsRefused(field, f"holds {what}; remove it")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise not_unicode(field, exc.start) from None
    return value


# --- Unicode text ------------------------------------------------------------------------
# A lone surrogate (a byte that was not UTF-8, decoded with surrogateescape, or half of a
# UTF-16 pair such as "\ud800") is a str Python holds but UTF-8 cannot encode: the
# ledger, the content ids and the index all need UTF-8, so it is refused at the door.
UNICODE_FIX = "give it as UTF-8 text (a non-UTF-8 byte or half a surrogate pair cannot be recorded)"


def not_unicode(field: str, index: int, fix: str = UNICODE_FIX) -> BoundsRefused:
    """The one refusal of a string that is not valid Unicode text."""
    return BoundsRefused(
        field, f"is not valid Unicode text (unpaired surrogate at index {index}); {fix}"
    )


def unicode_fault(value: object, field: str) -> tuple[str, int] | None:
    """Where the first string in ``value`` (a string, or mappings and lists of them,
    keys included) that UTF-8 cannot encode lies: (``field`` with the keys and list
    indexes that reach it, the index of the surrogate); None when every one encodes."""
    todo: list[tuple[object, str]] = [(value, field)]
    while todo:
        item, where = todo.pop()
        if isinstance(item, str):
            if not item.isascii():
                try:
                    item.encode("utf-8")
                except UnicodeEncodeError as exc:
                    return where, exc.start
        elif isinstance(item, Mapping):
            for key, sub in reversed(list(item.items())):
                todo.append((sub, f"{where}.{key}" if isinstance(key, str) else where))
                todo.append((key, f"{where} (a key)"))
        elif isinstance(item, (list, tuple)):
            todo.extend((sub, f"{where}[{i}]") for i, sub in reversed(list(enumerate(item))))
    return None


def check_unicode(field: str, value: object, fix: str = UNICODE_FIX) -> None:
    """Refused (``not_unicode``) when a string in ``value`` is not valid Unicode text."""
    fault = unicode_fault(value, field)
    if fault is not None:
        raise not_unicode(*fault, fix)


def check_entry_id(field: str, value: object) -> object:
    """An int id SQLite can hold (non-ints pass: the caller refuses them its own way)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_ENTRY_ID:
        raise BoundsRefused(field, f"is beyond the largest entry id ({MAX_ENTRY_ID})")
    return value


def check_list(field: str, items: Sequence[Any], max_len: int) -> Sequence[Any]:
    """``items`` if it holds at most ``max_len`` items."""
    if len(items) > max_len:
        raise BoundsRefused(
            field, f"holds {len(items)} items, over the bound of {max_len}; split the work"
        )
    return items


def check_body(field: str, value: str, max_bytes: int) -> str:
    """``value`` if its UTF-8 encoding is at most ``max_bytes`` bytes."""
    if len(value) * 4 > max_bytes:  # only a body that might be over pays for encoding
        size = len(value.encode("utf-8", "surrogatepass"))
        if size > max_bytes:
            raise BoundsRefused(
                field, f"is {size} bytes, over the bound of {max_bytes} bytes; store less text"
            )
    return value


_META_RULE = (
    f"must be a JSON object of JSON values (str, int of at most {MAX_META_INT_BITS} bits, "
    f"finite float, bool, null, list, object) nested at most {MAX_META_DEPTH} deep"
)


def check_meta(value: object, field: str = "meta") -> Mapping[str, Any]:
    """``value`` if it is bounded JSON metadata (see the module header)."""
    if not isinstance(value, Mapping):
        raise BoundsRefused(field, "must be a JSON object (a mapping with string keys)")
    if not value:
        return value
    try:
        # The usual meta (a file's path and selector): one flat object of strings.
        flat = type(value) is dict and all(
            type(k) is str and type(v) is str for k, v in value.items()
        )
        if not flat:
            _check_values(value, field)
        size = _canonical_size(value)
    except BoundsRefused:
        raise
    except UnicodeEncodeError as exc:  # a ValueError: named as what it is
        fault = unicode_fault(value, field)
        raise not_unicode(*(fault or (field, exc.start))) from None
    except (RecursionError, OverflowError, ValueError, TypeError):
        raise BoundsRefused(field, _META_RULE) from None
    if size > MAX_META_BYTES:
        raise BoundsRefused(
            field,
            f"is {size} bytes as canonical JSON, over the bound of {MAX_META_BYTES}; "
            "keep bodies out of metadata",
        )
    return value


def _check_values(value: Mapping[str, Any], field: str) -> None:
    """Walk without recursion, so no depth makes Python's stack the limit."""
    todo: list[tuple[object, int]] = [(value, 1)]
    while todo:
        item, depth = todo.pop()
        kind = type(item)
        if kind is str or kind is bool or item is None:  # the common leaves, no ABC check
            continue
        if isinstance(item, (Mapping, list)):
            if depth > MAX_META_DEPTH:
                raise BoundsRefused(field, f"nests deeper than {MAX_META_DEPTH} levels; flatten it")
            if isinstance(item, Mapping):
                if not all(isinstance(k, str) for k in item):
                    raise BoundsRefused(field, "has a key that is not a string; use JSON")
                todo.extend((v, depth + 1) for v in item.values())
            else:
                todo.extend((v, depth + 1) for v in item)
        elif isinstance(item, int) and not isinstance(item, bool):
            if item.bit_length() > MAX_META_INT_BITS:
                raise BoundsRefused(
                    field, f"holds an integer of more than {MAX_META_INT_BITS} bits"
                )
        elif isinstance(item, float):
            if not math.isfinite(item):
                raise BoundsRefused(field, "holds NaN or an infinite number; JSON has neither")
        elif not (isinstance(item, (str, bool)) or item is None):
            raise BoundsRefused(field, f"holds a {type(item).__name__}; {_META_RULE}")


def _canonical_size(value: Mapping[str, Any]) -> int:
    """UTF-8 bytes of the canonical JSON of ``value`` (an ASCII flat object of strings
    is measured without encoding it: each character costs at most 6 escaped)."""
    if all(isinstance(v, str) and v.isascii() and k.isascii() for k, v in value.items()):
        bound = 2 + sum(6 * (len(k) + len(v)) + 6 for k, v in value.items())
        if bound <= MAX_META_BYTES:
            return bound
    import json

    text = json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )
    return len(text.encode("utf-8"))
