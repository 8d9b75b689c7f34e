"""Typed acts of ledger format 2: every kind parses exactly, fails closed, keeps bounds."""

from __future__ import annotations

import copy
import json
from typing import Any, get_args

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from forest_files.kernel.errors import ForestError
from forest_files.ledger import acts, kinds
from forest_files.ledger.acts import Act, LedgerError, build_act, decode_line, encode_act, make_act
from tests.helpers.acts import (
    PAYLOAD_TYPES,
    SCOPE,
    act_object,
    entry_record,
    hexid,
    raw_line,
    sample_act,
    sample_payload,
)

KINDS = sorted(kinds.KINDS)
# The kinds whose payload holds entry records, and under which keys.
RECORD_KEYS = {
    "write": ("entry",),
    "adopt": ("entry", "record"),
    "supersede": ("entry", "record"),
    "resolve": ("entry", "record"),
    "seal": ("record",),
    "unseal": ("record",),
}
# Fields whose value may be of two JSON types (text or null, an object or null).
TWO_TYPES = {
    ("entry", "source"): {"None", "str"},
    ("record", "source"): {"None", "str"},
    ("binding",): {"None", "dict"},
}
FORBIDDEN_PATHS = [
    ".git/config",
    ".git",
    ".forest/ledger/segments/x.jsonl",
    ".forest",
    "forest.toml",
]
BAD_PATHS = ["/etc/passwd", "../up.md", "a/../b.md", "a//b.md", "./a.md", "a\\b.md", "a\x00b"]


def _decode(obj: dict[str, Any]) -> Act:
    return decode_line(raw_line(obj), segment="s", lineno=1)


def _refused(obj: dict[str, Any], code: str | None = None) -> LedgerError:
    with pytest.raises(LedgerError) as info:
        _decode(obj)
    if code is not None:
        assert info.value.code == code, info.value
    return info.value


def _obj(kind: str, **overrides: Any) -> dict[str, Any]:
    return act_object(sample_act(kind, **overrides))


def _nested(kind: str) -> list[str]:
    """Keys of ``kind`` holding an object of fields: entry records and bindings."""
    return [*RECORD_KEYS.get(kind, ()), *(["binding"] if kind == "adopt" else [])]


# --- (g) one vocabulary ----------------------------------------------------------


def test_kinds_codec_and_types_same_list_accepted() -> None:
    assert acts.KINDS is kinds.KINDS  # one list: the codec reads the typed kinds'
    assert set(PAYLOAD_TYPES) == set(kinds.KINDS)
    assert {"root", "bind"}.isdisjoint(kinds.KINDS)


def test_kinds_every_list_of_kinds_agrees_detected() -> None:
    """The kinds are the payload classes of ``kinds.Payload``, each naming its own; the
    lists that must name every kind (the audit log's ceremonies) or only kinds (the
    replay's index-safe kinds) agree with it."""
    from forest_files.custody.auditsql import CEREMONIES
    from forest_files.custody.replay import _INDEX_SAFE

    classes = get_args(kinds.Payload)
    assert len(classes) == len(kinds.KINDS) == len({c.KIND for c in classes})
    assert all(kinds.PAYLOAD_TYPES[c.KIND] is c for c in classes)
    assert set(CEREMONIES) == kinds.KINDS
    assert _INDEX_SAFE <= kinds.KINDS


@pytest.mark.parametrize("kind", ["seal", "unseal"])
def test_kinds_seal_and_unseal_one_shape_two_types_accepted(kind: str) -> None:
    act = _decode(_obj(kind))
    assert type(act.payload) is kinds.PAYLOAD_TYPES[kind] and kind == act.payload.KIND
    assert isinstance(act.payload, kinds.SealAct)  # one applier judges both directions
    assert act.payload.sealing is (kind == "seal")
    assert build_act(act.payload, act.deps, scope=act.scope).id == act.id


# --- (a) round trips -------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_kind_valid_act_round_trip_accepted(kind: str) -> None:
    act = sample_act(kind)
    line = encode_act(act).encode()
    back = decode_line(line, segment="s", lineno=1)
    assert back == act
    assert back.kind == kind
    assert isinstance(back.payload, PAYLOAD_TYPES[kind])
    assert back.payload == act.payload
    assert kind == back.payload.KIND
    assert encode_act(back).encode() == line
    assert build_act(back.payload, back.deps, scope=back.scope) == act
    assert set(back.fields) == PAYLOAD_TYPES[kind].KEYS


def test_kind_parsed_records_equal_and_frozen_accepted() -> None:
    """Records and bindings a parse makes without ``__init__`` are the same values
    (equal, same hash) and stay frozen."""
    import dataclasses

    payload = sample_payload("adopt")
    parsed = sample_act("adopt").payload
    assert parsed.entry == payload.entry and hash(parsed.binding) == hash(payload.binding)
    assert dataclasses.asdict(parsed.record) == dataclasses.asdict(payload.record)
    for value in (parsed.entry, parsed.record, parsed.binding):
        with pytest.raises(dataclasses.FrozenInstanceError):
            value.signature = "Mallory"  # type: ignore[misc,union-attr]


def test_adopt_without_binding_round_trip_accepted() -> None:
    act = sample_act("adopt", binding=None)
    back = decode_line(encode_act(act).encode(), segment="s", lineno=1)
    assert back.payload.binding is None
    assert back.fields["binding"] is None


def test_seal_fields_as_unseal_other_payload_accepted() -> None:
    """seal and unseal share fields; the kind alone says which way it goes."""
    obj = _obj("seal")
    obj["kind"] = "unseal"
    assert _decode(obj).payload.sealing is False


# --- (b) unknown top-level fields ------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("value", [None, 0, "x", [], {}])
def test_kind_unknown_field_refused(kind: str, value: Any) -> None:
    obj = _obj(kind)
    obj["later_field"] = value
    error = _refused(obj, "unknown-field")
    assert "'later_field'" in error.reason
    assert error.act_id == json.loads(raw_line(obj))["id"]


@pytest.mark.parametrize("kind", KINDS)
def test_kind_make_with_unknown_field_refused(kind: str) -> None:
    fields = {**sample_payload(kind).to_fields(), "later_field": 1}
    with pytest.raises(ForestError, match="later_field"):
        make_act(kind, (), fields, scope=SCOPE)


# --- (c) missing fields ------------------------------------------------------------


def _required(kind: str) -> list[tuple[str, ...]]:
    """Every field path of a valid act of ``kind``: top level and nested objects."""
    obj = _obj(kind)
    paths: list[tuple[str, ...]] = []
    for key in sorted(PAYLOAD_TYPES[kind].KEYS):
        paths.append((key,))
        if key in _nested(kind):
            paths += [(key, sub) for sub in sorted(obj[key])]
    return paths


@pytest.mark.parametrize(
    ("kind", "path"), [(kind, path) for kind in KINDS for path in _required(kind)]
)
def test_kind_missing_field_refused(kind: str, path: tuple[str, ...]) -> None:
    obj = _obj(kind)
    holder = obj
    for key in path[:-1]:
        holder = holder[key]
    del holder[path[-1]]
    error = _refused(obj, "malformed")
    assert f"lacks field {path[-1]!r}" in error.reason


def test_kind_required_fields_are_the_declared_keys_accepted() -> None:
    assert set(entry_record().to_fields()) == kinds.EntryRecord.KEYS
    assert set(sample_payload("adopt").binding.to_fields()) == kinds.BindSpec.KEYS
    for kind in KINDS:
        assert {p[0] for p in _required(kind)} == PAYLOAD_TYPES[kind].KEYS


# --- (d) unknown nested fields -------------------------------------------------------


@pytest.mark.parametrize(("kind", "key"), [(kind, key) for kind in KINDS for key in _nested(kind)])
def test_kind_unknown_nested_field_refused(kind: str, key: str) -> None:
    obj = _obj(kind)
    obj[key]["later_field"] = "x"
    error = _refused(obj, "unknown-field")
    assert key in error.reason and "'later_field'" in error.reason


def test_kind_nested_not_an_object_refused() -> None:
    for kind in KINDS:
        for key in _nested(kind):
            obj = _obj(kind)
            obj[key] = [obj[key]]
            assert "is not an object" in _refused(obj, "malformed").reason


# --- (e) bounds ------------------------------------------------------------------------

N = kinds.MAX_TEXT


def _with_selector(kind: str, selector: str) -> dict[str, Any]:
    obj = _obj(kind)
    (obj["binding"] if kind == "adopt" else obj)["selector"] = selector
    return obj


@pytest.mark.parametrize("kind", ["adopt", "rebind"])
def test_selector_at_max_text_accepted_one_more_refused(kind: str) -> None:
    _decode(_with_selector(kind, "x" * N))
    assert "longer than" in _refused(_with_selector(kind, "x" * (N + 1)), "malformed").reason


@pytest.mark.parametrize("kind", ["adopt", "rebind"])
def test_path_at_max_text_accepted_one_more_refused(kind: str) -> None:
    def with_path(path: str) -> dict[str, Any]:
        obj = _obj(kind)
        (obj["binding"] if kind == "adopt" else obj)["path"] = path
        return obj

    _decode(with_path("d/" + "x" * (N - 2)))
    assert "longer than" in _refused(with_path("d/" + "x" * (N - 1)), "malformed").reason


@pytest.mark.parametrize(
    ("kind", "key"), [(k, key) for k in KINDS for key in RECORD_KEYS.get(k, ())]
)
def test_signature_at_max_text_accepted_one_more_refused(kind: str, key: str) -> None:
    obj = _obj(kind)
    obj[key]["signature"] = "s" * N
    _decode(obj)
    obj[key]["signature"] = "s" * (N + 1)
    assert "longer than" in _refused(obj, "malformed").reason


@pytest.mark.parametrize(
    ("kind", "key"),
    [("rebind", "by"), ("retire", "by"), ("erase", "by"), ("retire", "words"), ("erase", "reason")],
)
def test_signer_text_at_max_text_accepted_one_more_refused(kind: str, key: str) -> None:
    obj = _obj(kind)
    obj[key] = "s" * N
    _decode(obj)
    obj[key] = "s" * (N + 1)
    assert "longer than" in _refused(obj, "malformed").reason


def test_excludes_at_max_accepted_one_more_refused() -> None:
    obj = _obj("adopt")
    obj["binding"]["excludes"] = [f"Part {i}" for i in range(kinds.MAX_EXCLUDES)]
    assert len(_decode(obj).payload.binding.excludes) == kinds.MAX_EXCLUDES
    obj["binding"]["excludes"].append("One more")
    assert "more than" in _refused(obj, "malformed").reason


def test_exclude_longer_than_max_text_refused() -> None:
    obj = _obj("adopt")
    obj["binding"]["excludes"] = ["e" * N]
    _decode(obj)
    obj["binding"]["excludes"] = ["e" * (N + 1)]
    _refused(obj, "malformed")


def test_heads_at_max_accepted_one_more_refused() -> None:
    heads = sorted(hexid(f"head {i}") for i in range(kinds.MAX_HEADS + 1))
    obj = _obj("resolve")
    obj["heads"], obj["pick"] = heads[: kinds.MAX_HEADS], heads[0]
    assert len(_decode(obj).payload.heads) == kinds.MAX_HEADS
    obj["heads"] = heads
    assert "more than" in _refused(obj, "malformed").reason


@pytest.mark.parametrize(
    "heads",
    [
        [hexid(1)],
        sorted([hexid(1), hexid(2)], reverse=True),
        [hexid(1), hexid(1)],
        [hexid(1), "X" * 64],
    ],
)
def test_heads_not_two_sorted_distinct_ids_refused(heads: list[str]) -> None:
    obj = _obj("resolve")
    obj["heads"] = heads
    _refused(obj, "malformed")


def test_origins_at_max_accepted_one_more_refused() -> None:
    obj = _obj("write")
    obj["entry"]["origins"] = sorted([hexid(i), "supersedes"] for i in range(kinds.MAX_HEADS + 1))
    _decode(obj)
    obj["entry"]["origins"].append([hexid("more"), "derived_from"])
    assert "more than" in _refused(obj, "malformed").reason


def test_meta_at_max_chars_accepted_one_more_refused() -> None:
    obj = _obj("write")
    # Measured as canonical JSON (sorted, compact, UTF-8 bytes): bounds.check_meta.
    pad = kinds.MAX_META_CHARS - len(json.dumps({"k": ""}, separators=(",", ":")))
    obj["entry"]["meta"] = {"k": "m" * pad}
    _decode(obj)
    obj["entry"]["meta"] = {"k": "m" * (pad + 1)}
    assert "meta" in _refused(obj, "malformed").reason


@pytest.mark.parametrize(
    ("kind", "key"),
    [
        ("supersede", "old"),
        ("resolve", "pick"),
        ("seal", "target"),
        ("rebind", "binding"),
        ("rebind", "section_hash"),
        ("retire", "binding"),
        ("erase", "body_hash"),
    ],
)
@pytest.mark.parametrize("bad", ["A" * 64, "a" * 63, "a" * 65, "g" * 64, "../../etc/passwd"])
def test_kind_id_not_hex64_refused(kind: str, key: str, bad: str) -> None:
    obj = _obj(kind)
    obj[key] = bad
    assert "64 lowercase hex" in _refused(obj, "malformed").reason


@pytest.mark.parametrize("key", ["content_id", "body_hash"])
def test_entry_hash_not_hex64_refused(key: str) -> None:
    obj = _obj("write")
    obj["entry"][key] = obj["entry"][key].upper()
    _refused(obj, "malformed")


# --- (f) scope -----------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("scope", [None, "", "   ", 1, "p" * (acts.MAX_SCOPE + 1)])
def test_kind_missing_or_blank_scope_refused(kind: str, scope: Any) -> None:
    obj = _obj(kind)
    if scope is None:
        del obj["scope"]
    else:
        obj["scope"] = scope
    assert '"scope"' in _refused(obj, "malformed").reason


def test_scope_at_max_accepted() -> None:
    act = sample_act("erase", scope="p" * acts.MAX_SCOPE)
    assert decode_line(encode_act(act).encode(), segment="s", lineno=1).scope == act.scope


@pytest.mark.parametrize("scope", ["", "  ", None, 7])
def test_kind_build_without_scope_refused(scope: Any) -> None:
    with pytest.raises(ForestError, match="scope"):
        build_act(sample_payload("write"), (), scope=scope)


# --- (h) forest's and git's own files are never bound ---------------------------------


@pytest.mark.parametrize("kind", ["adopt", "rebind"])
@pytest.mark.parametrize("path", FORBIDDEN_PATHS)
def test_binding_own_file_path_refused(kind: str, path: str) -> None:
    obj = _obj(kind)
    target = obj["binding"] if kind == "adopt" else obj
    target["path"], target["selector"] = path, f"{path}#Keep"
    error = _refused(obj, "malformed")
    assert "never bound" in error.reason


@pytest.mark.parametrize("kind", ["adopt", "rebind"])
@pytest.mark.parametrize("path", BAD_PATHS)
def test_binding_unclean_path_refused(kind: str, path: str) -> None:
    obj = _obj(kind)
    (obj["binding"] if kind == "adopt" else obj)["path"] = path
    _refused(obj, "malformed")


@pytest.mark.parametrize(
    "path", [".github/workflows/ci.yml", "docs/.git-notes.md", "x/forest.toml"]
)
def test_binding_path_like_own_files_accepted(path: str) -> None:
    obj = _obj("rebind")
    obj["path"] = path
    assert _decode(obj).payload.path == path


# --- hostile values: only ever a LedgerError --------------------------------------------

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(st.characters(codec="utf-8"), max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)


def _type_of(value: Any) -> str:
    if value is None:
        return "None"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int | float):
        return "number"
    return type(value).__name__


def _leaf_paths(obj: dict[str, Any]) -> list[tuple[str, ...]]:
    paths = [(k,) for k in sorted(obj)]
    for key in sorted(obj):
        if isinstance(obj[key], dict):
            paths += [(key, sub) for sub in sorted(obj[key])]
    return paths


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), kind=st.sampled_from(KINDS))
def test_kind_field_of_another_type_refused(data: st.DataObject, kind: str) -> None:
    obj = _obj(kind)
    path = data.draw(st.sampled_from(_leaf_paths(obj)))
    holder = obj
    for key in path[:-1]:
        holder = holder[key]
    old = holder[path[-1]]
    accepted = TWO_TYPES.get(path, {_type_of(old)})
    holder[path[-1]] = data.draw(JSON.filter(lambda v: _type_of(v) not in accepted))
    with pytest.raises(LedgerError):
        _decode(obj)


@settings(max_examples=300, deadline=None)
@given(data=st.data(), kind=st.sampled_from(KINDS))
def test_kind_random_edit_only_ledger_error(data: st.DataObject, kind: str) -> None:
    """Any JSON value anywhere (same type or not, a valid id or not): decode either
    accepts an act that encodes back to the same line, or raises LedgerError."""
    obj = _obj(kind)
    path = data.draw(st.sampled_from(_leaf_paths(obj)))
    holder = obj
    for key in path[:-1]:
        holder = holder[key]
    holder[path[-1]] = data.draw(JSON)
    line = raw_line(obj)
    try:
        act = decode_line(line, segment="s", lineno=1)
    except LedgerError:
        return
    assert encode_act(act).encode() == line


@settings(max_examples=300, deadline=None)
@given(line=st.binary(max_size=200))
def test_decode_random_bytes_only_ledger_error(line: bytes) -> None:
    with pytest.raises(LedgerError):
        decode_line(line, segment="s", lineno=1)


def test_kind_fields_deep_copy_unchanged_by_decode_accepted() -> None:
    """Decoding never mutates: the object a forger built is byte-for-byte the line."""
    obj = _obj("adopt")
    before = copy.deepcopy(obj)
    _decode(obj)
    assert obj == before
