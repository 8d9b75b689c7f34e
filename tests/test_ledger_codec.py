"""Ledger format 1: act codec, segment files, bodies, dependency order, verify."""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import random
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest
from helpers.ledger import delete_body
from hypothesis import given, settings
from hypothesis import strategies as st

from forest_files.errors import ForestError, StoreCorruption
from forest_files.hashing import canonical_json, hash_body, sha256_text
from forest_files.ledger import (
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

SECRET = "SENTINEL-secret-body-never-echo"


def _act(n: int, deps: tuple[str, ...] = (), kind: str = "write", **extra: Any) -> Act:
    return make_act(kind, deps, {"n": n, **extra})


def _raw_line(obj: dict[str, Any]) -> bytes:
    """A canonical line for ``obj`` with a correct id (for hand-built acts)."""
    body = {k: v for k, v in obj.items() if k != "id"}
    return canonical_json({**body, "id": sha256_text(canonical_json(body))}).encode()


def _put_segment(ledger: Path, data: bytes) -> Path:
    """Place raw bytes as a segment under their true name, as a forger would."""
    directory = ledger / "segments"
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{hashlib.sha256(data).hexdigest()}.jsonl"
    path.write_bytes(data)
    return path


def _body_act(body: str, kind: str = "write") -> tuple[Act, dict[str, str]]:
    h = hash_body(body)
    return make_act(kind, (), {"entry": {"body_hash": h}}), {h: body}


# --- codec -----------------------------------------------------------------


def test_act_round_trip_accepted(tmp_path: Path) -> None:
    first = _act(1, meta={"tags": ["a", "b"]}, note="é ☃")
    second = _act(2, (first.id,), kind="root")
    ref = write_segment(tmp_path, [first, second], {})
    back = read_segment(ref.path)
    assert back == [first, second]
    assert [encode_act(a) for a in back] == [encode_act(first), encode_act(second)]
    assert back[0].fields == {"n": 1, "meta": {"tags": ["a", "b"]}, "note": "é ☃"}
    assert ref.name == hashlib.sha256(ref.path.read_bytes()).hexdigest()
    assert read_segment_bytes(ref.path.read_bytes(), ref.name) == back


def test_act_id_key_order_stable_accepted() -> None:
    a = make_act("bind", (), {"path": "x.md", "sel": {"from": 1, "to": 2}, "z": 0})
    b = make_act("bind", (), {"z": 0, "sel": {"to": 2, "from": 1}, "path": "x.md"})
    assert a.id == b.id
    assert encode_act(a) == encode_act(b)
    assert a.id == sha256_text(
        canonical_json({k: v for k, v in a.to_object().items() if k != "id"})
    )


def test_act_deps_given_unsorted_sorted_accepted() -> None:
    x, y = _act(1), _act(2)
    assert make_act("root", (y.id, x.id, y.id), {}).deps == tuple(sorted({x.id, y.id}))


def test_act_hand_edited_field_detected(tmp_path: Path) -> None:
    act = _act(1, note="original")
    obj = json.loads(encode_act(act))
    obj["note"] = "forged"  # the id is kept: a hand edit in a pull request
    line = canonical_json(obj).encode()
    with pytest.raises(LedgerError, match="does not match its content") as info:
        decode_line(line, segment="s", lineno=3)
    assert (info.value.segment, info.value.line, info.value.code) == ("s", 3, "id-mismatch")
    _put_segment(tmp_path, line + b"\n")
    assert verify_ledger(tmp_path).codes() == {"id-mismatch"}


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
        (b'{"deps":[],"kind":"write","v":1}', '"id" missing'),
    ],
)
def test_act_malformed_line_refused(line: bytes, reason: str) -> None:
    with pytest.raises(LedgerError, match=reason) as info:
        decode_line(line, segment="seg", lineno=7)
    assert isinstance(info.value, StoreCorruption)
    assert "segment seg line 7" in str(info.value)


def test_act_newer_version_refused() -> None:
    line = _raw_line({"v": 2, "kind": "teleport", "deps": []})
    with pytest.raises(LedgerError) as info:
        decode_line(line, segment="s", lineno=1)
    assert "written by a newer forest-files: needs ledger format 2; upgrade forest-files" in str(
        info.value
    )
    assert info.value.code == "bad-version"


def test_act_missing_version_refused() -> None:
    with pytest.raises(LedgerError, match='"v"') as info:
        decode_line(_raw_line({"kind": "write", "deps": []}), segment="s", lineno=1)
    assert info.value.code == "bad-version"


def test_act_unknown_kind_refused() -> None:
    with pytest.raises(LedgerError, match="unknown act kind"):
        decode_line(_raw_line({"v": 1, "kind": "teleport", "deps": []}), segment="s", lineno=1)


@pytest.mark.parametrize(
    "deps",
    [["b" * 64, "a" * 64], ["a" * 64, "a" * 64], ["A" * 64], ["a" * 63], "a" * 64],
)
def test_act_bad_deps_refused(deps: Any) -> None:
    with pytest.raises(LedgerError, match='"deps"'):
        decode_line(_raw_line({"v": 1, "kind": "write", "deps": deps}), segment="s", lineno=1)


def test_act_unknown_extra_field_kept_accepted() -> None:
    line = _raw_line({"v": 1, "kind": "seal", "deps": [], "future_hint": {"x": [1, 2]}})
    act = decode_line(line, segment="s", lineno=1)
    assert act.fields["future_hint"] == {"x": [1, 2]}
    assert encode_act(act).encode() == line
    assert make_act("seal", (), {"future_hint": {"x": [1, 2]}}).id == act.id


def test_act_error_never_echoes_body_accepted() -> None:
    obj = json.loads(encode_act(_act(1, text=SECRET)))
    obj["text"] = SECRET + "!"
    bad_lines = [
        canonical_json(obj).encode(),
        json.dumps(obj).encode(),
        b'{"x":"' + SECRET.encode(),
    ]
    for line in bad_lines:
        with pytest.raises(LedgerError) as info:
            decode_line(line, segment="s", lineno=1)
        assert SECRET not in str(info.value)


# --- segments ----------------------------------------------------------------


def test_segment_truncated_detected(tmp_path: Path) -> None:
    ref = write_segment(tmp_path, [_act(1), _act(2)], {})
    data = ref.path.read_bytes()[:-5]
    ref.path.unlink()
    path = _put_segment(tmp_path, data)
    with pytest.raises(LedgerError, match=r"truncated segment \(crash mid-write\?\)") as info:
        read_segment(path)
    assert info.value.line == 2
    assert verify_ledger(tmp_path).codes() == {"truncated"}


def test_segment_renamed_detected(tmp_path: Path) -> None:
    ref = write_segment(tmp_path, [_act(1)], {})
    moved = ref.path.with_name("0" * 64 + ".jsonl")
    ref.path.rename(moved)
    with pytest.raises(LedgerError, match="not the SHA-256 of its bytes"):
        read_segment(moved)
    with pytest.raises(LedgerError):
        read_ledger(tmp_path)
    assert verify_ledger(tmp_path).codes() == {"segment-name"}


def test_segment_same_acts_rewritten_idempotent_accepted(tmp_path: Path) -> None:
    acts = [_act(1), _act(2)]
    assert write_segment(tmp_path, acts, {}) == write_segment(tmp_path, acts, {})
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


def test_ledger_bulk_write_10000_acts_fast(tmp_path: Path) -> None:
    acts = [_act(i, body_hash=hash_body(f"body {i}")) for i in range(10_000)]
    bodies = {hash_body(f"body {i}"): f"body {i}" for i in range(10_000)}
    started = time.perf_counter()
    ref = write_segment(tmp_path, acts, bodies)
    elapsed = time.perf_counter() - started
    assert len(read_segment(ref.path)) == 10_000
    assert verify_ledger(tmp_path).ok
    assert elapsed < 30, elapsed


# --- order -------------------------------------------------------------------


def _random_dag(rng: random.Random, size: int) -> list[Act]:
    acts: list[Act] = []
    for i in range(size):
        deps = rng.sample([a.id for a in acts], k=min(len(acts), rng.randint(0, 3)))
        acts.append(make_act(rng.choice(["write", "root", "bind"]), deps, {"i": i}))
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
    acts = [_act(i) for i in range(10)]
    assert [a.id for a in topo_order(reversed(acts))] == sorted(a.id for a in acts)


def test_topo_order_cycle_refused() -> None:
    a = Act(kind="write", deps=("b" * 64,), fields={}, id="a" * 64)
    b = Act(kind="write", deps=("a" * 64,), fields={}, id="b" * 64)
    with pytest.raises(LedgerError, match=f"act {'a' * 64} is part of a dependency cycle"):
        topo_order([a, b])


def test_ledger_dangling_dep_detected(tmp_path: Path) -> None:
    missing = _act(1)
    orphan = _act(2, (missing.id,))
    write_segment(tmp_path, [orphan], {})
    with pytest.raises(LedgerError, match=f"act {orphan.id} depends on {missing.id}"):
        topo_order(read_ledger(tmp_path).acts.values())
    report = verify_ledger(tmp_path)
    assert [(f.code, f.act_id, f.line) for f in report.faults] == [("dangling-dep", orphan.id, 1)]


# --- bodies ------------------------------------------------------------------


def test_body_round_trip_exact_text_accepted(tmp_path: Path) -> None:
    text = "line one\r\nline two\nno trailing newline ☃"
    act, bodies = _body_act(text)
    write_segment(tmp_path, [act], bodies)
    h = hash_body(text)
    assert (tmp_path / "bodies" / h[:2] / f"{h}.txt").read_bytes() == text.encode()
    assert read_body(tmp_path, h) == text
    assert verify_ledger(tmp_path).ok


def test_body_deleted_detected(tmp_path: Path) -> None:
    act, bodies = _body_act(SECRET)
    write_segment(tmp_path, [act], bodies)
    h = next(iter(bodies))
    delete_body(tmp_path, h)
    report = verify_ledger(tmp_path)
    assert [(f.code, f.act_id) for f in report.faults] == [("body-missing", act.id)]
    assert read_body(tmp_path, h) is None


def test_body_lying_detected(tmp_path: Path) -> None:
    act, bodies = _body_act("the adopted text")
    write_segment(tmp_path, [act], bodies)
    h = next(iter(bodies))
    (tmp_path / "bodies" / h[:2] / f"{h}.txt").write_text(SECRET, encoding="utf-8")
    report = verify_ledger(tmp_path)
    assert report.codes() == {"body-hash"}
    assert all(SECRET not in f.detail for f in report.faults)
    with pytest.raises(LedgerError, match="does not hash to its name"):
        read_body(tmp_path, h)


def test_body_lying_rewritten_by_next_write_recovers(tmp_path: Path) -> None:
    act, bodies = _body_act("text")
    write_segment(tmp_path, [act], bodies)
    h = next(iter(bodies))
    (tmp_path / "bodies" / h[:2] / f"{h}.txt").write_text("tampered", encoding="utf-8")
    write_segment(tmp_path, [_act(9, body_hash=h)], bodies)
    assert verify_ledger(tmp_path).ok


def test_body_erased_accepted(tmp_path: Path) -> None:
    act, bodies = _body_act(SECRET)
    write_segment(tmp_path, [act], bodies)
    h = next(iter(bodies))
    write_segment(tmp_path, [make_act("erase", (act.id,), {"body_hash": h})], {})
    delete_body(tmp_path, h)
    assert verify_ledger(tmp_path).ok


def test_body_hash_path_traversal_detected(tmp_path: Path) -> None:
    write_segment(tmp_path, [_act(1, body_hash="../../etc/passwd")], {})
    assert verify_ledger(tmp_path).codes() == {"malformed"}


def test_verify_many_faults_all_reported_detected(tmp_path: Path) -> None:
    act, bodies = _body_act("gone")
    write_segment(tmp_path, [act, _act(2, ("f" * 64,))], bodies)
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
        act = make_act("write", (), {"tag": tag, "i": i, "body_hash": hash_body(shared_body)})
        write_segment(Path(ledger), [act], {hash_body(shared_body): shared_body})


@pytest.mark.slow
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
    assert {a.fields["tag"] for a in snap.acts.values()} == {"a", "b"}
    assert verify_ledger(tmp_path).ok
    writers = {f".{p.pid}." for p in procs}
    tmp = temp_dir(tmp_path)  # beside the ledger, as .forest/cache/tmp is
    leftovers = [p for p in tmp.glob("*") if any(w in p.name for w in writers)]
    assert leftovers == [] and list(tmp_path.rglob(".tmp-*")) == []


def test_body_erase_with_non_string_hash_detected(tmp_path: Path) -> None:
    write_segment(tmp_path, [make_act("erase", (), {"body_hash": ["x"]})], {})
    assert verify_ledger(tmp_path).codes() == {"malformed"}


def test_body_stray_file_detected(tmp_path: Path) -> None:
    act, bodies = _body_act("text")
    write_segment(tmp_path, [act], bodies)
    (tmp_path / "bodies" / "notes.txt").write_text("hi", encoding="utf-8")
    [fault] = verify_ledger(tmp_path).faults
    assert (fault.code, fault.path) == ("stray", ".forest/ledger/bodies/notes.txt")


def test_ledger_snapshot_ordered_accepted(tmp_path: Path) -> None:
    first = _act(1)
    second = _act(2, (first.id,))
    write_segment(tmp_path, [second], {})
    write_segment(tmp_path, [first], {})
    assert read_ledger(tmp_path).ordered() == [first, second]


def test_ledger_missing_directory_empty_accepted(tmp_path: Path) -> None:
    snap = read_ledger(tmp_path / "nowhere")
    assert (len(snap.acts), snap.segments) == (0, ())
    assert verify_ledger(tmp_path / "nowhere").ok


@pytest.mark.parametrize(
    "fields", [{"x": {1, 2}}, {"x": "\ud800"}, {"id": "a"}, {"x": float("nan")}]
)
def test_act_make_bad_fields_refused(fields: dict[str, Any]) -> None:
    with pytest.raises(ForestError):
        make_act("write", (), fields)


def test_write_bodies_reports_only_files_it_created_accepted(tmp_path: Path) -> None:
    """A damaged body file is rewritten but not reported as created, so a caller
    taking back a failed adoption's files (EarlyBodies.discard) never removes it."""
    from forest_files.hashing import hash_body
    from forest_files.ledger.segments import body_path, write_bodies

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
