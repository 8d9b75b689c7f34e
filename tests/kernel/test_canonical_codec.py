"""The compiled codec (msgspec) against the canonical form, the json module's
``JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False,
allow_nan=False)``: byte-identical where it vouches, silent where it cannot.

Every character is escaped alike by both (all 1,114,112 code points, surrogates
aside, which no UTF-8 line holds); generated values with every escape class,
big integers, floats and nesting encode alike; and ``canonical_object`` never
vouches for a line the json module calls noncanonical.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forest_files.kernel.hashing import (
    canonical_bytes,
    canonical_json,
    canonical_object,
)

VECTORS = Path(__file__).resolve().parents[1] / "data"
REFERENCE = json.JSONEncoder(
    sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
)
# Every escape class: controls, quote, backslash, slash, DEL, U+2028/2029, the last
# BMP characters, a private-use one, non-BMP (sorts below U+E000 in UTF-16 only).
SPECIAL = [chr(c) for c in range(0x20)] + list('"\\/\x7f\u2028\u2029\ufeff\uffff\ue000é')
SPECIAL += ["\U0001f600", "\U0010ffff", "\u00a0", "a"]
TEXT = st.text(st.one_of(st.sampled_from(SPECIAL), st.characters(codec="utf-8")), max_size=12)
LEAF = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(2**300), max_value=2**300),
    st.floats(allow_nan=False, allow_infinity=False),
    TEXT,
)
VALUE = st.recursive(
    LEAF,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=8,
)
OBJECT = st.dictionaries(TEXT, VALUE, max_size=6)


def _has_float(value: Any) -> bool:
    if isinstance(value, float):
        return True
    if isinstance(value, dict):
        return any(_has_float(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_float(v) for v in value)
    return False


def _vouches_only_for_canonical(line: bytes) -> None:
    """The property: where the compiled codec vouches, the json module agrees."""
    obj = canonical_object(line)
    if obj is None:
        return
    assert REFERENCE.encode(json.loads(line.decode("utf-8"))).encode("utf-8") == line
    assert obj == json.loads(line)


def test_codec_every_character_escaped_alike_accepted() -> None:
    encode = msgspec.json.Encoder(order="sorted").encode
    for start in range(0, 0x110000, 0x1000):
        chars = "".join(chr(c) for c in range(start, start + 0x1000) if not 0xD800 <= c < 0xE000)
        assert encode(chars) == REFERENCE.encode(chars).encode("utf-8"), hex(start)
        assert encode({chars: 1}) == REFERENCE.encode({chars: 1}).encode("utf-8"), hex(start)


@settings(max_examples=60, deadline=None)
@given(OBJECT)
def test_codec_generated_objects_byte_identical_accepted(obj: dict[str, Any]) -> None:
    text = REFERENCE.encode(obj)
    assert canonical_json(obj) == text
    line = text.encode("utf-8")
    decoded = canonical_object(line)
    if _has_float(obj):
        assert decoded is None  # floats: the json module decides
    else:
        assert decoded == obj


@settings(max_examples=60, deadline=None)
@given(OBJECT)
def test_codec_other_encodings_never_vouched_for_refused(obj: dict[str, Any]) -> None:
    """Lines a forger could write for the same value: ASCII escapes, spaces, msgspec's
    own floats, key order as given, a duplicated key, a trailing space."""
    variants = [
        json.dumps(obj, sort_keys=True, separators=(",", ":")).encode(),
        json.dumps(obj, sort_keys=True, ensure_ascii=False).encode(),
        json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode(),
        msgspec.json.encode(obj),
        msgspec.json.Encoder(order="sorted").encode(obj),
        REFERENCE.encode(obj).encode() + b" ",
    ]
    if obj:
        key = json.dumps(sorted(obj)[0], ensure_ascii=False).encode()
        variants.append(b"{" + key + b":0," + REFERENCE.encode(obj).encode()[1:])
    for line in variants:
        _vouches_only_for_canonical(line)


@pytest.mark.parametrize(
    "line",
    [
        b'{"a":1e16}',  # msgspec's float; the json module writes 1e+16
        b'{"a":1e+16}',
        b'{"a":2.5e-7}',
        b'{"a":1.0}',
        b'{"a":-0.0}',
        b'{"a":-0}',
        b'{"a":01}',
        b'{"a":NaN}',
        b'{"a":Infinity}',
        b'{"a":1,"a":1}',
        b'{"a":"\\ud800"}',
        b'{"a":"\\ud83d\\ude00"}',
        b'{"a":"\\u00e9"}',
        b'{"a":"\\/"}',
        b'{"a":"\x7f"}',
        b'{"a":"\xed\xa0\x80"}',  # a surrogate in UTF-8 form: not UTF-8
        b'{"a":"\xff"}',
        b'\xef\xbb\xbf{"a":1}',
        b'{"a":' + b"[" * 600 + b"]" * 600 + b"}",
        b'{"a":' + str(2**4096).encode() + b"}",
        b"[1]",
        b'"a"',
    ],
)
def test_codec_hostile_lines_only_canonical_vouched_refused(line: bytes) -> None:
    _vouches_only_for_canonical(line)
    if b"." in line or b"e" in line.replace(b'"', b""):
        assert line == b'{"a":"\\u00e9"}' or canonical_object(line) is None


def test_codec_floats_left_to_the_json_module_accepted() -> None:
    for value in (1e16, 1e-05, 2.5e-07, -0.0, 1.5, 5e-324, 1.7976931348623157e308):
        assert canonical_object(REFERENCE.encode({"a": value}).encode()) is None
        assert canonical_json({"a": value}) == REFERENCE.encode({"a": value})


def test_codec_lone_surrogate_left_to_the_json_module_accepted() -> None:
    """No UTF-8 line holds one; ``canonical_json`` keeps the json module's text, whose
    encoding refuses it where an id is hashed (as before)."""
    assert canonical_bytes({"a": "x\ud800"}) is None
    assert canonical_json({"a": "x\ud800"}) == '{"a":"x\ud800"}'


def test_codec_values_json_refuses_still_refused() -> None:
    """What the compiled codec would print but the json module refuses (a set, bytes,
    NaN, a mapping proxy, non-string keys) is refused as before."""
    with pytest.raises(TypeError):
        canonical_json({"a": {1, 2}})
    with pytest.raises(TypeError):
        canonical_json({"a": b"x"})
    with pytest.raises(Exception, match="canonical"):
        canonical_json({"a": math.nan})
    assert canonical_json({"b": 1, "a": (1, 2)}) == '{"a":[1,2],"b":1}'
    assert canonical_json({2: "x", 1: "y"}) == REFERENCE.encode({2: "x", 1: "y"})


def test_codec_published_vectors_vouched_accepted() -> None:
    lines = [
        line
        for path in sorted(VECTORS.glob("ledger-vectors*/segments/*.jsonl"))
        for line in path.read_bytes().split(b"\n")[:-1]
    ]
    assert len(lines) >= 5
    for line in lines:
        assert canonical_object(line) == json.loads(line)
        assert canonical_json(json.loads(line)).encode() == line
