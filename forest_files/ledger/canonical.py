"""The canonical line of an act by the json module, and its id member cut out.

The compiled codec (``kernel.hashing.canonical_object``) vouches for most lines;
every line it does not vouch for is judged here, by the json module that defines
the form, with the refusals the codec has always given, in their order.

Stores: nothing.
Refuses: (through the caller's ``fail``) a line that is not UTF-8, not JSON
(NaN and Infinity included), not an object, or not byte-for-byte canonical (an
escaped lone surrogate named as not valid Unicode text, by its top-level field).
Returns: the decoded text and object of a line; a canonical line without its
top-level ``"id"`` member (``without_id``).
Test: tests/ledger/test_ledger_compiled_codec.py, tests/ledger/test_ledger_codec.py
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from forest_files.kernel.bounds import unicode_fault
from forest_files.kernel.errors import ForestError
from forest_files.kernel.hashing import reference_json
from forest_files.ledger.fault import LedgerError, is_hex64

Fail = Callable[..., LedgerError]


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed")


# One decoder for every line: ``json.loads`` with a keyword builds a new one per call.
_DECODER = json.JSONDecoder(parse_constant=_reject_constant)


def reference_object(line: bytes, fail: Fail) -> tuple[str, dict[str, Any]]:
    """The line's text and object by the json module: not UTF-8, not JSON, not an
    object are refused, in that order."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise fail(f"not UTF-8 (byte {exc.start})") from None
    try:
        obj = _DECODER.decode(text)
    except (ValueError, RecursionError):
        raise fail("not a JSON value") from None
    if not isinstance(obj, dict):
        raise fail("not a JSON object")
    return text, obj


def reference_canonical(text: str, obj: dict[str, Any], fail: Fail) -> None:
    """Refuses ``text`` unless it is the json module's canonical encoding of ``obj``."""
    try:
        # Compared as text: the line decoded as UTF-8, so equal text is equal bytes (a
        # lone surrogate the encoding could hold is in no decoded line).
        canonical = reference_json(obj)
    except ForestError:
        canonical = ""
    if canonical != text:
        top = next((k for k, v in obj.items() if unicode_fault([k, v], "") is not None), None)
        if top is not None:  # an escaped lone surrogate: named (the field, never the text)
            raise fail(
                f"not canonical JSON: its {top!a} field holds an escaped lone surrogate "
                "(\\ud800-\\udfff alone), which is not valid Unicode text (hand-edited? "
                "restore the segment from git)",
                "noncanonical",
            )
        raise fail(
            "not canonical JSON (hand-edited? re-encoding changes the bytes)", "noncanonical"
        )


def without_id_text(text: str, claimed: str) -> str | None:
    """``without_id`` of text that may hold a lone surrogate (kept, for the encoding
    of the id's text to refuse it as it always has)."""
    cut = without_id(text.encode("utf-8", "surrogatepass"), claimed)
    return None if cut is None else cut.decode("utf-8", "surrogatepass")


def without_id(line: bytes, claimed: str) -> bytes | None:
    """The canonical ``line`` of an act minus its top-level ``"id"`` member, cut out
    instead of encoded again; None when the id is not 64 hex digits or its member
    occurs more than once (the caller then re-encodes)."""
    if not is_hex64(claimed):
        return None
    member = b'"id":"' + claimed.encode("ascii") + b'"'
    at = line.find(member)
    if at < 0 or line.find(member, at + 1) >= 0:
        return None
    end = at + len(member)
    if line[at - 1 : at] == b",":
        return line[: at - 1] + line[end:]
    if line[end : end + 1] == b",":
        return line[:at] + line[end + 1 :]
    return line[:at] + line[end:]
