"""The ledger codec with its compiled fast path (``kernel.hashing.canonical_object``)
gives exactly the verdicts and bytes of the json module alone: the same act, line
and id for every line it accepts, the same refusal (code and reason) for every
line it refuses, and ``make_act`` builds the same line either way.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forest_files.kernel.hashing import reference_json
from forest_files.ledger import LedgerError, acts, decode_line, encode_act
from tests.helpers.acts import act_object, entry_record, raw_line, sample_act

VECTORS = Path(__file__).resolve().parents[1] / "data"
SPECIAL = [chr(c) for c in range(0x20)] + list('"\\/\x7f\u2028\u2029\ufeff\uffff\ue000é')
TEXT = st.text(st.one_of(st.sampled_from([*SPECIAL, "\U0001f600"]), st.characters(codec="utf-8")))
META_VALUE = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(2**400), max_value=2**400),
        st.floats(allow_nan=False, allow_infinity=False),
        TEXT,
    ),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=8,
)
META = st.dictionaries(TEXT, META_VALUE, max_size=4)


@contextmanager
def json_module_only() -> Iterator[None]:
    """The codec as it was: the compiled codec vouches for nothing."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(acts, "canonical_object", lambda line: None)
        patch.setattr(acts, "canonical_bytes", lambda obj: None)
        yield


def _verdict(line: bytes) -> tuple[Any, ...]:
    try:
        act = decode_line(line, segment="s", lineno=4)
    except LedgerError as exc:
        return ("refused", exc.code, exc.reason, exc.act_id, exc.line)
    return ("accepted", act.id, act.line, act.kind, dict(act.fields), act.payload)


def _same_verdict(line: bytes) -> tuple[Any, ...]:
    fast = _verdict(line)
    with json_module_only():
        assert _verdict(line) == fast
    return fast


def _meta_line(meta_text: str) -> bytes:
    """A write act whose entry's meta member is ``meta_text`` verbatim, with a correct
    id over the line as written (so only canonical form can refuse it)."""
    obj = act_object(sample_act("write", entry=entry_record(meta={"k": "PLACE"})))
    base = raw_line(obj).decode()
    body = base[: base.index(',"id":')] + base[base.index(',"kind":') :]
    body = body.replace('{"k":"PLACE"}', meta_text)
    line = body.replace(',"kind":', f',"id":"{acts.sha256_text(body)}","kind":', 1)
    return line.encode("utf-8")


@pytest.mark.parametrize(
    "meta",
    [
        '{"k":1e+16}',  # canonical (the json module's float)
        '{"k":1e16}',  # msgspec's float: noncanonical
        '{"k":2.5e-07}',
        '{"k":2.5e-7}',
        '{"k":1.0}',
        '{"k":-0}',
        '{"k":NaN}',
        '{"k":Infinity}',
        '{"k":1,"k":1}',  # a duplicate key
        '{"k":"\\u00e9"}',
        '{"k":"\\ud800"}',  # a lone surrogate
        '{"k":"\\ud83d\\ude00"}',
        '{"k":"\U0001f600\u2028\u2029\x7f"}',
        '{"k":"\\u001f\\"\\\\\\n"}',
        '{"k":"\\u001F"}',
        '{"k":"\\/"}',
        '{"k":' + str(2**4000) + "}",
        '{"k":' + "[" * 70 + "]" * 70 + "}",
        '{"k":' + "[" * 600 + "]" * 600 + "}",
        '{"k": 1}',
        '{"k":1} ',
    ],
)
def test_compiled_decode_hostile_meta_same_verdict_refused(meta: str) -> None:
    _same_verdict(_meta_line(meta))


def test_compiled_decode_escapes_and_floats_keep_their_codes_refused() -> None:
    codes = {m: _same_verdict(_meta_line(m))[:2] for m in ('{"k":1e16}', '{"k":1,"k":1}')}
    assert codes == dict.fromkeys(codes, ("refused", "noncanonical"))
    assert _same_verdict(_meta_line('{"k":1e+16}'))[0] == "accepted"
    assert _same_verdict(_meta_line('{"k":"\\ud800"}'))[:2] == ("refused", "noncanonical")


@pytest.mark.parametrize(
    "line",
    [
        b"\xff\xfe",
        b"{not json",
        b"[1,2]",
        b'{"v":NaN}',
        b'{"v":2}',
        b'{"v":9,"kind":"x"}',
        b'{"v":1}',
        b'{"v":2.0}',
        b'{"v":true}',
        b'{"id":"x","v":2}',
    ],
)
def test_compiled_decode_malformed_same_verdict_refused(line: bytes) -> None:
    assert _same_verdict(line)[0] == "refused"


def test_compiled_decode_published_vectors_same_acts_accepted() -> None:
    paths = sorted(VECTORS.glob("ledger-vectors*/segments/*.jsonl"))
    assert paths
    for path in paths:
        for line in path.read_bytes().split(b"\n")[:-1]:
            verdict = _same_verdict(line)
            assert verdict[0] == "accepted" and verdict[2] == line.decode()


@pytest.mark.parametrize("kind", sorted(acts.KINDS))
def test_compiled_make_act_every_kind_same_line_accepted(kind: str) -> None:
    fast = sample_act(kind)
    with json_module_only():
        slow = sample_act(kind)
    assert (fast.id, encode_act(fast)) == (slow.id, encode_act(slow))
    assert _same_verdict(encode_act(fast).encode())[0] == "accepted"


@settings(max_examples=60, deadline=None)
@given(META)
def test_compiled_make_act_generated_meta_same_line_accepted(meta: dict[str, Any]) -> None:
    entry = entry_record(meta=meta)
    fast = sample_act("write", entry=entry)
    with json_module_only():
        slow = sample_act("write", entry=entry)
    assert (fast.id, encode_act(fast), fast.payload) == (slow.id, encode_act(slow), slow.payload)
    assert encode_act(fast) == reference_json(json.loads(encode_act(fast)))
    assert _same_verdict(encode_act(fast).encode())[0] == "accepted"


def test_compiled_make_act_values_json_refuses_refused() -> None:
    """A set or bytes in the fields, which the compiled codec would print, is refused
    as the json module refuses it (never a line)."""
    refusals: list[str] = []
    for bad in ({1, 2}, b"x"):
        for run in (_make_with(bad), _make_with_json_only(bad)):
            with pytest.raises(Exception) as caught:
                run()
            refusals.append(f"{type(caught.value).__name__}: {caught.value}")
    assert refusals[0] == refusals[1] and refusals[2] == refusals[3]


def _make_with(bad: object) -> Callable[[], object]:
    fields = {"binding": "0" * 63 + "1", "words": bad, "by": "a", "at": "t"}
    return lambda: acts.make_act("retire", (), fields, scope="p")


def _make_with_json_only(bad: object) -> Callable[[], object]:
    def run() -> object:
        with json_module_only():
            return _make_with(bad)()

    return run
