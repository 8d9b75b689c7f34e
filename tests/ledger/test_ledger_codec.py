"""Ledger format 2: act codec, segment files, bodies, dependency order, verify."""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import random
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forest_files.kernel.errors import ForestError, StoreCorruption
from forest_files.kernel.hashing import canonical_json, hash_body, sha256_text
from forest_files.ledger import (
    KINDS,
    Act,
    LedgerError,
    decode_line,
    encode_act,
    make_act,
    read_body,
    read_ledger,
    read_segment,
    read_segment_bytes,
    topo_order,
    verify_ledger,
    write_segment,
)
from forest_files.ledger.placing import temp_dir
from tests.helpers.acts import (
    SAMPLE_BODIES,
    SCOPE,
    act_object,
    body_act,
    entry_record,
    envelope,
    raw_line,
    sample_act,
    sample_payload,
)
from tests.helpers.ledger import delete_body

SECRET = "SENTINEL-secret-body-never-echo"


def _act(n: int, deps: tuple[str, ...] = (), kind: str = "write") -> Act:
    return sample_act(kind, deps, n=n)


def _put_segment(ledger: Path, data: bytes) -> Path:
    """Place raw bytes as a segment under their true name, as a forger would."""
    directory = ledger / "segments"
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{hashlib.sha256(data).hexdigest()}.jsonl"
    path.write_bytes(data)
    return path


def _body_file(ledger: Path, h: str) -> Path:
    return ledger / "bodies" / h[:2] / f"{h}.txt"


# --- codec -----------------------------------------------------------------


def test_act_round_trip_accepted(tmp_path: Path) -> None:
    meta = {"tags": ["a", "b"], "note": "é ☃"}
    first = sample_act("write", entry=entry_record(meta=meta, signature="Zoë ☃ <z@example.org>"))
    second = _act(2, (first.id,), kind="adopt")
    ref = write_segment(tmp_path, [first, second], {})
    back = read_segment(ref.path)
    assert back == [first, second]
    assert [encode_act(a) for a in back] == [encode_act(first), encode_act(second)]
    assert back[0].payload == first.payload
    assert back[0].payload.entry.meta == meta
    assert back[0].fields["entry"]["signature"] == "Zoë ☃ <z@example.org>"
    assert (back[0].scope, back[0].version) == (SCOPE, 2)
    assert ref.name == hashlib.sha256(ref.path.read_bytes()).hexdigest()
    assert read_segment_bytes(ref.path.read_bytes(), ref.name) == back


def test_act_id_key_order_stable_accepted() -> None:
    fields = sample_payload("rebind").to_fields()
    a = make_act("rebind", (), fields, scope=SCOPE)
    b = make_act("rebind", (), dict(reversed(list(fields.items()))), scope=SCOPE)
    assert a.id == b.id
    assert encode_act(a) == encode_act(b)
    assert a.id == sha256_text(
        canonical_json({k: v for k, v in a.to_object().items() if k != "id"})
    )


def test_act_build_and_make_same_act_accepted() -> None:
    payload = sample_payload("adopt")
    built = sample_act("adopt")
    assert make_act("adopt", (), payload.to_fields(), scope=SCOPE) == built
    assert built.payload == payload


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_act_built_line_is_its_canonical_encoding_accepted(kind: str) -> None:
    """A built act carries the line of its one encoding: byte for byte the canonical
    encoding of its decoded object, which a reader accepts as the same act."""
    act = sample_act(kind, ("a" * 64,), n=3)
    assert act.line is not None
    assert act.line == canonical_json(act.to_object())
    back = decode_line(act.line.encode(), segment="s", lineno=1)
    assert back == act and back.payload == act.payload and back.line == act.line


def test_act_placeholder_in_fields_encoded_twice_accepted() -> None:
    """Fields holding the placeholder id's member text fall back to two encodings."""
    entry = entry_record(meta={"id": "0" * 64})
    act = sample_act("write", entry=entry)
    assert act.line is None
    assert decode_line(encode_act(act).encode(), segment="s", lineno=1) == act


def test_act_replaced_never_keeps_old_line_detected() -> None:
    """An act changed with dataclasses.replace is encoded afresh, never as the line
    of the act it came from."""
    import dataclasses

    act = sample_act("retire")
    changed = dataclasses.replace(act, scope="another-project")
    assert changed.line is None
    assert encode_act(changed) != encode_act(act)
    assert json.loads(encode_act(changed))["scope"] == "another-project"


def test_act_lone_surrogate_escape_refused() -> None:
    """A line whose JSON escape decodes to a lone surrogate has no canonical encoding."""
    obj = act_object(sample_act("retire"))
    line = raw_line(obj).replace(b'"words":"', b'"words":"\\ud800', 1)
    with pytest.raises(LedgerError) as caught:
        decode_line(line, segment="s", lineno=1)
    assert caught.value.code == "noncanonical"


def test_act_deps_given_unsorted_sorted_accepted() -> None:
    x, y = _act(1), _act(2)
    act = sample_act("retire", (y.id, x.id, y.id))
    assert act.deps == tuple(sorted({x.id, y.id}))


def test_act_hand_edited_field_detected(tmp_path: Path) -> None:
    act = sample_act("retire", words="original")
    obj = json.loads(encode_act(act))
    obj["words"] = "forged"  # the id is kept: a hand edit in a pull request
    line = canonical_json(obj).encode()
    with pytest.raises(LedgerError, match="does not match its content") as info:
        decode_line(line, segment="s", lineno=3)
    assert (info.value.segment, info.value.line, info.value.code) == ("s", 3, "id-mismatch")
    _put_segment(tmp_path, line + b"\n")
    assert verify_ledger(tmp_path).codes() == {"id-mismatch"}


def test_act_scope_edited_detected() -> None:
    obj = json.loads(encode_act(_act(1)))
    obj["scope"] = "another-project"
    with pytest.raises(LedgerError, match="does not match its content") as info:
        decode_line(canonical_json(obj).encode(), segment="s", lineno=1)
    assert info.value.code == "id-mismatch"


def test_act_whitespace_changed_detected(tmp_path: Path) -> None:
    line = json.dumps(json.loads(encode_act(_act(1))), sort_keys=True).encode()  # ", " and ": "
    with pytest.raises(LedgerError, match="not canonical") as info:
        decode_line(line, segment="s", lineno=1)
    assert info.value.code == "noncanonical"
    _put_segment(tmp_path, line + b"\n")
    assert verify_ledger(tmp_path).codes() == {"noncanonical"}


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (b"\xff\xfe", "not UTF-8"),
        (b"{not json", "not a JSON value"),
        (b"[1,2]", "not a JSON object"),
        (b'{"v":NaN}', "not a JSON value"),
        (canonical_json(envelope()).encode(), '"id" missing'),
    ],
)
def test_act_malformed_line_refused(line: bytes, reason: str) -> None:
    with pytest.raises(LedgerError, match=reason) as info:
        decode_line(line, segment="seg", lineno=7)
    assert isinstance(info.value, StoreCorruption)
    assert "segment seg line 7" in str(info.value)


def test_act_newer_version_refused() -> None:
    line = raw_line(envelope("teleport", v=4))
    with pytest.raises(LedgerError) as info:
        decode_line(line, segment="s", lineno=1)
    assert "written by a newer forest-files: needs ledger format 4; upgrade forest-files" in str(
        info.value
    )
    assert info.value.code == "bad-version"


def test_act_format_1_refused() -> None:
    """A format-1 line (no scope, a kind format 2 dropped) is refused in one line."""
    line = raw_line({"v": 1, "kind": "root", "deps": [], "entry": {"body_hash": "0" * 64}})
    with pytest.raises(LedgerError, match="ledger format 1") as info:
        decode_line(line, segment="s", lineno=4)
    assert info.value.code == "bad-version"
    assert "\n" not in str(info.value)
    assert "segment s line 4" in str(info.value)


@pytest.mark.parametrize("v", [0, -1, "2", 2.0, True, None])
def test_act_bad_version_value_refused(v: Any) -> None:
    with pytest.raises(LedgerError) as info:
        decode_line(raw_line(envelope(v=v)), segment="s", lineno=1)
    assert info.value.code == "bad-version"


def test_act_missing_version_refused() -> None:
    obj = act_object(_act(1))
    del obj["v"]
    with pytest.raises(LedgerError, match='"v"') as info:
        decode_line(raw_line(obj), segment="s", lineno=1)
    assert info.value.code == "bad-version"


@pytest.mark.parametrize("kind", ["teleport", "root", "bind", 7])
def test_act_unknown_kind_refused(kind: Any) -> None:
    """ "root" and "bind" were format-1 kinds; format 2 knows neither."""
    with pytest.raises(LedgerError, match="unknown act kind"):
        decode_line(raw_line(envelope(kind)), segment="s", lineno=1)


@pytest.mark.parametrize(
    "deps",
    [["b" * 64, "a" * 64], ["a" * 64, "a" * 64], ["A" * 64], ["a" * 63], "a" * 64],
)
def test_act_bad_deps_refused(deps: Any) -> None:
    obj = act_object(_act(1))
    obj["deps"] = deps
    with pytest.raises(LedgerError, match='"deps"'):
        decode_line(raw_line(obj), segment="s", lineno=1)


@pytest.mark.parametrize("scope", [None, "", "   ", 7, ["p"], "p" * 257])
def test_act_bad_scope_refused(scope: Any) -> None:
    obj = act_object(_act(1))
    if scope is None:
        del obj["scope"]
    else:
        obj["scope"] = scope
    with pytest.raises(LedgerError, match='"scope"'):
        decode_line(raw_line(obj), segment="s", lineno=1)


def test_act_unknown_extra_field_refused(tmp_path: Path) -> None:
    """Fail closed: a field this reader does not know is refused, never skipped."""
    obj = act_object(sample_act("seal"))
    obj["future_hint"] = {"x": [1, 2]}
    line = raw_line(obj)
    with pytest.raises(LedgerError, match="'future_hint'") as info:
        decode_line(line, segment="s", lineno=1)
    assert info.value.code == "unknown-field"
    assert info.value.act_id == json.loads(line)["id"]
    fields = {**sample_payload("seal").to_fields(), "future_hint": {"x": [1, 2]}}
    with pytest.raises(ForestError, match="future_hint"):
        make_act("seal", (), fields, scope=SCOPE)
    _put_segment(tmp_path, line + b"\n")
    assert not verify_ledger(tmp_path).ok


def test_act_error_never_echoes_body_accepted() -> None:
    act = sample_act("retire", words=SECRET)
    obj = json.loads(encode_act(act))
    obj["words"] = SECRET + "!"
    unknown = act_object(act)
    unknown[SECRET[:8]] = SECRET
    long_words = act_object(act)
    long_words["words"] = SECRET * 1000
    bad_lines = [
        canonical_json(obj).encode(),
        json.dumps(obj).encode(),
        b'{"x":"' + SECRET.encode(),
        raw_line({**unknown}),
        raw_line(long_words),
        raw_line({**act_object(act), "by": [SECRET]}),
    ]
    for line in bad_lines:
        with pytest.raises(LedgerError) as info:
            decode_line(line, segment="s", lineno=1)
        assert SECRET not in str(info.value)


def test_act_fields_not_of_the_kind_refused() -> None:
    """A write's fields under an erase's kind parse as neither."""
    obj = act_object(_act(1))
    obj["kind"] = "erase"
    with pytest.raises(LedgerError) as info:
        decode_line(raw_line(obj), segment="s", lineno=1)
    assert info.value.code == "unknown-field"


# --- segments ----------------------------------------------------------------


def test_segment_truncated_detected(tmp_path: Path) -> None:
    ref = write_segment(tmp_path, [_act(1), _act(2)], SAMPLE_BODIES)
    data = ref.path.read_bytes()[:-5]
    ref.path.unlink()
    path = _put_segment(tmp_path, data)
    with pytest.raises(LedgerError, match=r"truncated segment \(crash mid-write\?\)") as info:
        read_segment(path)
    assert info.value.line == 2
    assert verify_ledger(tmp_path).codes() == {"truncated"}


def test_segment_renamed_detected(tmp_path: Path) -> None:
    ref = write_segment(tmp_path, [_act(1)], SAMPLE_BODIES)
    moved = ref.path.with_name("0" * 64 + ".jsonl")
    ref.path.rename(moved)
    with pytest.raises(LedgerError, match="not the SHA-256 of its bytes"):
        read_segment(moved)
    with pytest.raises(LedgerError):
        read_ledger(tmp_path)
    assert verify_ledger(tmp_path).codes() == {"segment-name"}


def test_segment_same_acts_rewritten_idempotent_accepted(tmp_path: Path) -> None:
    acts = [_act(1), _act(2)]
    first, again = write_segment(tmp_path, acts, {}), write_segment(tmp_path, acts, {})
    assert (first.name, first.path, first.acts) == (again.name, again.path, again.acts)
    # the second found it there: a recorder whose act then fails never removes it
    assert first.placed and not again.placed
    assert len(list((tmp_path / "segments").iterdir())) == 1


def test_segment_empty_refused(tmp_path: Path) -> None:
    with pytest.raises(ForestError, match="at least one act"):
        write_segment(tmp_path, [], {})


def test_segment_body_under_wrong_hash_refused(tmp_path: Path) -> None:
    with pytest.raises(ForestError, match="does not hash to it"):
        write_segment(tmp_path, [_act(1)], {"a" * 64: "text"})
    assert not (tmp_path / "segments").exists()


def test_ledger_duplicate_act_across_segments_counted_once(tmp_path: Path) -> None:
    shared = _act(1)
    s1 = write_segment(tmp_path, [shared, _act(2)], {})
    s2 = write_segment(tmp_path, [_act(3), shared], {})  # e.g. after a cherry-pick
    snap = read_ledger(tmp_path)
    assert len(snap.acts) == 3
    assert snap.found_in[shared.id] == tuple(sorted([s1.name, s2.name]))
    assert snap.origin(shared.id) == min(s1.name, s2.name)
    assert verify_ledger(tmp_path).acts == 3


@pytest.mark.slow  # scale: 10 000 acts in one segment
def test_ledger_bulk_write_10000_acts_accepted(tmp_path: Path) -> None:
    pairs = [body_act(f"body {i}", n=i) for i in range(10_000)]
    acts = [act for act, _ in pairs]
    bodies = {h: text for _, b in pairs for h, text in b.items()}
    ref = write_segment(tmp_path, acts, bodies)
    assert len(read_segment(ref.path)) == 10_000
    assert verify_ledger(tmp_path).ok


# --- order -------------------------------------------------------------------


def _random_dag(rng: random.Random, size: int) -> list[Act]:
    acts: list[Act] = []
    kinds = sorted(KINDS)
    for i in range(size):
        deps = rng.sample([a.id for a in acts], k=min(len(acts), rng.randint(0, 3)))
        acts.append(sample_act(rng.choice(kinds), deps, n=i))
    return acts


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(1, 25), parts=st.integers(1, 6))
def test_topo_order_any_segment_split_same_order_accepted(seed: int, size: int, parts: int) -> None:
    rng = random.Random(seed)
    acts = _random_dag(rng, size)
    expected = [a.id for a in topo_order(acts)]
    shuffled = acts[:]
    rng.shuffle(shuffled)
    cuts = sorted(rng.sample(range(1, size), k=min(parts - 1, size - 1))) if size > 1 else []
    with tempfile.TemporaryDirectory() as tmp:
        for lo, hi in zip([0, *cuts], [*cuts, size], strict=True):
            write_segment(Path(tmp), shuffled[lo:hi], {})
        # a cherry-picked copy of some acts in one more segment changes nothing
        write_segment(Path(tmp), rng.sample(acts, k=max(1, size // 3)), {})
        got = [a.id for a in topo_order(read_ledger(Path(tmp)).acts.values())]
    assert got == expected
    position = {a: i for i, a in enumerate(got)}
    assert all(position[d] < position[a.id] for a in acts for d in a.deps)


def test_topo_order_ties_broken_by_id_accepted() -> None:
    acts = [_act(i, kind=sorted(KINDS)[i % len(KINDS)]) for i in range(10)]
    assert [a.id for a in topo_order(reversed(acts))] == sorted(a.id for a in acts)


def test_topo_order_cycle_refused() -> None:
    payload = sample_payload("write")
    a = Act(kind="write", deps=("b" * 64,), fields={}, id="a" * 64, payload=payload, scope=SCOPE)
    b = Act(kind="write", deps=("a" * 64,), fields={}, id="b" * 64, payload=payload, scope=SCOPE)
    with pytest.raises(LedgerError, match=f"act {'a' * 64} is part of a dependency cycle"):
        topo_order([a, b])


def test_ledger_dangling_dep_detected(tmp_path: Path) -> None:
    missing = _act(1)
    orphan = _act(2, (missing.id,), kind="supersede")
    write_segment(tmp_path, [orphan], SAMPLE_BODIES)
    with pytest.raises(LedgerError, match=f"act {orphan.id} depends on {missing.id}"):
        topo_order(read_ledger(tmp_path).acts.values())
    report = verify_ledger(tmp_path)
    assert [(f.code, f.act_id, f.line) for f in report.faults] == [("dangling-dep", orphan.id, 1)]


# --- bodies ------------------------------------------------------------------


def test_body_round_trip_exact_text_accepted(tmp_path: Path) -> None:
    text = "line one\r\nline two\nno trailing newline ☃"
    act, bodies = body_act(text)
    write_segment(tmp_path, [act], bodies)
    h = hash_body(text)
    assert _body_file(tmp_path, h).read_bytes() == text.encode()
    assert read_body(tmp_path, h) == text
    assert verify_ledger(tmp_path).ok


def test_body_deleted_detected(tmp_path: Path) -> None:
    act, bodies = body_act(SECRET)
    write_segment(tmp_path, [act], bodies)
    h = next(iter(bodies))
    delete_body(tmp_path, h)
    report = verify_ledger(tmp_path)
    assert [(f.code, f.act_id) for f in report.faults] == [("body-missing", act.id)]
    assert read_body(tmp_path, h) is None


def test_body_of_adopt_record_deleted_detected(tmp_path: Path) -> None:
    """Nested records count: an adopt names its entry's body and its words' body."""
    act = sample_act("adopt")
    entry_hash, record_hash = act.payload.entry.body_hash, act.payload.record.body_hash
    bodies = {entry_hash: "a body", record_hash: "I adopt this text"}
    write_segment(tmp_path, [act], bodies)
    assert verify_ledger(tmp_path).ok
    _body_file(tmp_path, record_hash).unlink()
    report = verify_ledger(tmp_path)
    assert [(f.code, f.act_id) for f in report.faults] == [("body-missing", act.id)]
    assert record_hash in report.faults[0].detail


def test_body_lying_detected(tmp_path: Path) -> None:
    act, bodies = body_act("the adopted text")
    write_segment(tmp_path, [act], bodies)
    h = next(iter(bodies))
    _body_file(tmp_path, h).write_text(SECRET, encoding="utf-8")
    report = verify_ledger(tmp_path)
    assert report.codes() == {"body-hash"}
    assert all(SECRET not in f.detail for f in report.faults)
    with pytest.raises(LedgerError, match="does not hash to its name"):
        read_body(tmp_path, h)


def test_body_lying_rewritten_by_next_write_recovers(tmp_path: Path) -> None:
    act, bodies = body_act("text")
    write_segment(tmp_path, [act], bodies)
    h = next(iter(bodies))
    _body_file(tmp_path, h).write_text("tampered", encoding="utf-8")
    again, _ = body_act("text", n=9)
    write_segment(tmp_path, [again], bodies)
    assert verify_ledger(tmp_path).ok


def test_body_erased_accepted(tmp_path: Path) -> None:
    act, bodies = body_act(SECRET)
    write_segment(tmp_path, [act], bodies)
    h = next(iter(bodies))
    write_segment(tmp_path, [sample_act("erase", (act.id,), body_hash=h)], {})
    delete_body(tmp_path, h)
    assert verify_ledger(tmp_path).ok


def test_body_erased_other_hash_missing_detected(tmp_path: Path) -> None:
    """An erase excuses the body it names and no other."""
    act, bodies = body_act(SECRET)
    write_segment(tmp_path, [act, sample_act("erase", (act.id,), body_hash="e" * 64)], bodies)
    _body_file(tmp_path, next(iter(bodies))).unlink()
    assert verify_ledger(tmp_path).codes() == {"body-missing"}


def test_body_hash_path_traversal_detected(tmp_path: Path) -> None:
    obj = act_object(_act(1))
    obj["entry"]["body_hash"] = "../../etc/passwd"
    with pytest.raises(ForestError):
        make_act("write", (), {"entry": obj["entry"]}, scope=SCOPE)
    _put_segment(tmp_path, raw_line(obj) + b"\n")
    assert verify_ledger(tmp_path).codes() == {"malformed"}


def test_verify_many_faults_all_reported_detected(tmp_path: Path) -> None:
    act, bodies = body_act("gone")
    write_segment(tmp_path, [act, _act(2, ("f" * 64,))], {**bodies, **SAMPLE_BODIES})
    h = next(iter(bodies))
    delete_body(tmp_path, h)
    good = encode_act(_act(3)).encode()
    _put_segment(tmp_path, b"garbage\n" + good.replace(b":", b": ", 1) + b"\n" + good)
    codes = sorted(f.code for f in verify_ledger(tmp_path).faults)
    assert codes == ["body-missing", "dangling-dep", "malformed", "noncanonical", "truncated"]


# --- concurrency -------------------------------------------------------------


def _writer(ledger: str, tag: str, barrier: Any, count: int) -> None:
    barrier.wait(timeout=30)
    shared_body = "a body both writers carry"
    for i in range(count):
        entry = entry_record(body=shared_body, signature=tag, nonce=str(i))
        act = sample_act("write", entry=entry)
        write_segment(Path(ledger), [act], {hash_body(shared_body): shared_body})


@pytest.mark.slow
@pytest.mark.serial  # times processes, signals or lock waits: one at a time
def test_segment_two_processes_writing_at_once_both_land_accepted(tmp_path: Path) -> None:
    ctx = multiprocessing.get_context()
    barrier = ctx.Barrier(2)
    procs = [ctx.Process(target=_writer, args=(str(tmp_path), tag, barrier, 40)) for tag in "ab"]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=60)
        assert p.exitcode == 0
    snap = read_ledger(tmp_path)
    assert len(snap.acts) == 80
    assert {a.payload.entry.signature for a in snap.acts.values()} == {"a", "b"}
    assert verify_ledger(tmp_path).ok
    writers = {f".{p.pid}." for p in procs}
    tmp = temp_dir(tmp_path)  # beside the ledger, as .forest/cache/tmp is
    leftovers = [p for p in tmp.glob("*") if any(w in p.name for w in writers)]
    assert leftovers == [] and list(tmp_path.rglob(".tmp-*")) == []


def test_body_erase_with_non_string_hash_detected(tmp_path: Path) -> None:
    obj = act_object(sample_act("erase"))
    obj["body_hash"] = ["x"]
    with pytest.raises(ForestError):
        make_act("erase", (), {k: obj[k] for k in ("body_hash", "by", "reason", "at")}, scope=SCOPE)
    _put_segment(tmp_path, raw_line(obj) + b"\n")
    assert verify_ledger(tmp_path).codes() == {"malformed"}


def test_body_stray_file_detected(tmp_path: Path) -> None:
    act, bodies = body_act("text")
    write_segment(tmp_path, [act], bodies)
    (tmp_path / "bodies" / "notes.txt").write_text("hi", encoding="utf-8")
    [fault] = verify_ledger(tmp_path).faults
    assert (fault.code, fault.path) == ("stray", ".forest/ledger/bodies/notes.txt")


def test_ledger_snapshot_ordered_accepted(tmp_path: Path) -> None:
    first = _act(1)
    second = _act(2, (first.id,), kind="seal")
    write_segment(tmp_path, [second], {})
    write_segment(tmp_path, [first], {})
    assert read_ledger(tmp_path).ordered() == [first, second]


def test_ledger_missing_directory_empty_accepted(tmp_path: Path) -> None:
    snap = read_ledger(tmp_path / "nowhere")
    assert (len(snap.acts), snap.segments) == (0, ())
    assert verify_ledger(tmp_path / "nowhere").ok


def _write_fields(**meta: Any) -> dict[str, Any]:
    entry = sample_payload("write").to_fields()["entry"]
    return {"entry": {**entry, "meta": meta}}


@pytest.mark.parametrize(
    "fields",
    [
        _write_fields(x={1, 2}),
        _write_fields(x="\ud800"),
        _write_fields(x=float("nan")),
        {**_write_fields(), "id": "a"},
        {**_write_fields(), "scope": SCOPE},
        {},
        {"entry": {}},
        {**_write_fields(), "extra": 1},
    ],
)
def test_act_make_bad_fields_refused(fields: dict[str, Any]) -> None:
    with pytest.raises(ForestError):
        make_act("write", (), fields, scope=SCOPE)


@pytest.mark.parametrize("scope", ["", "  ", None, "p" * 257])
def test_act_make_without_scope_refused(scope: Any) -> None:
    with pytest.raises(ForestError, match="scope"):
        make_act("write", (), _write_fields(), scope=scope)


def test_act_make_unknown_kind_refused() -> None:
    with pytest.raises(ForestError, match="unknown act kind"):
        make_act("root", (), {}, scope=SCOPE)


def test_write_bodies_reports_only_files_it_created_accepted(tmp_path: Path) -> None:
    """A damaged body file is rewritten but not reported as created, so a caller
    taking back a failed adoption's files (EarlyBodies.discard) never removes it."""
    from forest_files.ledger.segment_write import write_bodies
    from forest_files.ledger.segments import body_path

    fresh, damaged, intact = "a fresh body", "a damaged body", "an intact body"
    write_bodies(tmp_path, {hash_body(intact): intact, hash_body(damaged): damaged})
    body_path(tmp_path, hash_body(damaged)).write_bytes(b"truncat")
    created: list[Path] = []
    write_bodies(
        tmp_path,
        {hash_body(t): t for t in (fresh, damaged, intact)},
        created,
    )
    assert created == [body_path(tmp_path, hash_body(fresh))]
    assert body_path(tmp_path, hash_body(damaged)).read_text(encoding="utf-8") == damaged


# The codec's own modules and what they may import: the kernel and the ledger package.
_CODEC_ROOMS = ("forest_files.kernel", "forest_files.ledger")


def test_ledger_codec_loads_no_index_module_accepted() -> None:
    """Decoding and building acts of every kind (a binding's path rule included) loads
    nothing of the index's rooms (custody, store, check, ...): no import cycle back up."""
    import subprocess
    import sys

    lines = [encode_act(sample_act(kind, n=i)) for i, kind in enumerate(sorted(KINDS))]
    script = (
        "import sys\n"
        "from forest_files.ledger.acts import build_act, decode_line\n"
        "for n, line in enumerate(sys.stdin.read().splitlines(), 1):\n"
        "    act = decode_line(line.encode(), segment='s', lineno=n)\n"
        "    assert build_act(act.payload, act.deps, scope=act.scope).id == act.id\n"
        "print('\\n'.join(m for m in sys.modules if m.startswith('forest_files.')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        input="\n".join(lines),
        capture_output=True,
        text=True,
        check=True,
    )
    loaded = done.stdout.split()
    assert "forest_files.ledger.kinds" in loaded
    assert [m for m in loaded if not m.startswith(_CODEC_ROOMS)] == []
