"""Scroll: Forest 0.4's record format and refusals, plus locked appends, reservations, pointers.

The ``scroll`` fixture (a fresh file in tmp_path) comes from conftest.py.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import re
from pathlib import Path
from typing import Any

import pytest

from forest_files import scroll as scroll_module
from forest_files.kernel.errors import ForestError
from forest_files.scroll import MAX_SLICE, Scroll, ScrollError

TS = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$")


def _line_len(head: str) -> int:
    """Bytes of the record line ``append(head)`` writes (the stamp is fixed width)."""
    data = head.encode()
    record = {"v": 1, "ts": "2000-01-01T00:00:00.000000Z", "hash": "0" * 64, "n": len(data)}
    return len((json.dumps({**record, "payload": head}, ensure_ascii=False) + "\n").encode())


def _head_for_line(size: int) -> str:
    """An ASCII head whose record line is exactly ``size`` bytes."""
    return next("a" * k for k in range(size) if _line_len("a" * k) == size)


def _ptr(scroll: Scroll, offset: int, head: str) -> dict[str, Any]:
    return {
        "path": str(scroll.path),
        "offset": offset,
        "hash": hashlib.sha256(head.encode()).hexdigest(),
    }


def _append_many(path: str, tag: str, count: int, barrier: Any, out: Any) -> None:
    scroll = Scroll(path)
    barrier.wait(timeout=30)
    out.put([(scroll.append(f"{tag}-{i} é"), f"{tag}-{i} é") for i in range(count)])


def _append_one(path: str, started: Any, out: Any) -> None:
    started.set()
    out.put(Scroll(path).append("child"))


# -- construction and append -------------------------------------------------


def test_scroll_missing_parents_accepted(tmp_path: Path) -> None:
    scroll = Scroll(str(tmp_path / "a" / "b" / "x.jsonl"))
    assert isinstance(scroll.path, Path)
    assert scroll.path.is_file()
    assert scroll.size() == 0


def test_scroll_directory_path_refused(tmp_path: Path) -> None:
    with pytest.raises(ScrollError, match="is a directory"):
        Scroll(tmp_path)


def test_scrollerror_is_forest_error_accepted() -> None:
    assert issubclass(ScrollError, ForestError)
    assert scroll_module.ScrollError is ScrollError
    assert MAX_SLICE == 8192


def test_append_empty_head_refused(scroll: Scroll) -> None:
    with pytest.raises(ScrollError, match="empty"):
        scroll.append("")
    assert scroll.size() == 0


def test_append_lone_surrogate_refused(scroll: Scroll) -> None:
    with pytest.raises(ScrollError, match="surrogate"):
        scroll.append("bad \ud800")
    assert scroll.size() == 0


def test_append_whitespace_head_accepted(scroll: Scroll) -> None:
    assert scroll.append("  ") == 0
    assert scroll.record_at(0)["payload"] == "  "


def test_append_record_format_accepted(scroll: Scroll) -> None:
    head = "USER: héllo\nASSISTANT: ✓"
    assert scroll.append(head) == 0
    raw = scroll.path.read_bytes()
    assert raw.endswith(b"\n") and raw.count(b"\n") == 1
    assert "héllo".encode() in raw  # ensure_ascii=False
    record = json.loads(raw)
    assert list(record) == ["v", "ts", "hash", "n", "payload"]
    assert record["v"] == 1 and TS.match(record["ts"])
    assert record["hash"] == hashlib.sha256(head.encode()).hexdigest()
    assert record["n"] == len(head.encode()) and record["payload"] == head
    assert raw == (json.dumps(record, ensure_ascii=False) + "\n").encode()


def test_append_offsets_are_byte_offsets_accepted(scroll: Scroll) -> None:
    first = scroll.append("ünïcode")
    second = scroll.append("next")
    assert first == 0
    assert second == len(scroll.path.read_bytes().split(b"\n")[0]) + 1
    assert scroll.record_count() == 2


def test_append_fsyncs_before_return_accepted(
    scroll: Scroll, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced: list[int] = []
    real_fsync = os.fsync

    def spy(fd: int) -> None:
        synced.append(os.fstat(fd).st_size)
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", spy)
    scroll.append("durable")
    assert synced == [scroll.size()]


def test_append_after_torn_tail_recovers(scroll: Scroll) -> None:
    scroll.append("whole")
    with scroll.path.open("ab") as fh:
        fh.write(b'{"v": 1, "ts": "cut')
    torn_size = scroll.size()
    offset = scroll.append("after")
    assert offset == torn_size + 1
    assert scroll.record_at(offset)["payload"] == "after"
    assert scroll.record_count() == 3


def test_append_layout_matches_published_forest_accepted(tmp_path: Path) -> None:
    forest_scroll = pytest.importorskip("forest_memory.scroll")
    ours, theirs = Scroll(tmp_path / "a.jsonl"), forest_scroll.Scroll(tmp_path / "b.jsonl")
    for head in ["USER: a\nASSISTANT: b", "  ", 'ünï ✓ \u2028 "q"']:
        assert ours.append(head) == theirs.append(head)
    blank_ts = re.compile(rb'"ts": "[^"]*"')
    a, b = (p.read_bytes() for p in (ours.path, theirs.path))
    assert blank_ts.sub(b"", a) == blank_ts.sub(b"", b)


# -- concurrency and reservations --------------------------------------------


@pytest.mark.slow
@pytest.mark.serial  # times processes, signals or lock waits: one at a time
def test_append_two_processes_offsets_accepted(tmp_path: Path) -> None:
    path = str(tmp_path / "shared.jsonl")
    Scroll(path)
    ctx = multiprocessing.get_context("spawn")
    barrier, out = ctx.Barrier(2), ctx.Queue()
    procs = [ctx.Process(target=_append_many, args=(path, t, 200, barrier, out)) for t in "ab"]
    for proc in procs:
        proc.start()
    results = [out.get(timeout=120) for _ in procs]
    for proc in procs:
        proc.join(timeout=60)
        assert proc.exitcode == 0
    scroll = Scroll(path)
    pairs = [pair for result in results for pair in result]
    assert len({offset for offset, _ in pairs}) == 400
    for offset, head in pairs:
        assert scroll.record_at(offset)["payload"] == head
        assert scroll.verify_pointer(_ptr(scroll, offset, head))
    assert scroll.record_count() == 400


def test_reserve_exception_after_append_truncates_recovers(scroll: Scroll) -> None:
    scroll.append("kept")
    before = scroll.path.read_bytes()
    with pytest.raises(RuntimeError, match="db write failed"), scroll.reserve() as reservation:
        assert reservation.append("orphan") == reservation.offset == len(before)
        assert scroll.path.read_bytes() != before
        raise RuntimeError("db write failed")
    assert scroll.path.read_bytes() == before
    assert scroll.append("next") == len(before)


def test_reserve_failed_write_caught_truncates_recovers(
    scroll: Scroll, monkeypatch: pytest.MonkeyPatch
) -> None:
    scroll.append("kept")
    before = scroll.path.read_bytes()

    def failing_fsync(fd: int) -> None:
        raise OSError(5, "injected I/O error")

    with scroll.reserve() as reservation:
        monkeypatch.setattr(os, "fsync", failing_fsync)
        with pytest.raises(OSError, match="injected"):
            reservation.append("half written")
        monkeypatch.undo()
        assert not reservation.appended
    assert scroll.path.read_bytes() == before


def test_reserve_exception_before_append_unchanged_recovers(scroll: Scroll) -> None:
    scroll.append("kept")
    before = scroll.path.read_bytes()
    with pytest.raises(KeyError), scroll.reserve():
        raise KeyError("nothing appended")
    assert scroll.path.read_bytes() == before


def test_reserve_rollback_after_torn_tail_recovers(scroll: Scroll) -> None:
    scroll.path.write_bytes(b"fragment")
    with pytest.raises(RuntimeError), scroll.reserve() as reservation:
        assert reservation.append("x") == len(b"fragment") + 1
        raise RuntimeError
    assert scroll.path.read_bytes() == b"fragment"


def test_reserve_success_keeps_record_accepted(scroll: Scroll) -> None:
    with scroll.reserve() as reservation:
        offset = reservation.append("kept")
    assert reservation.closed
    assert scroll.record_at(offset)["payload"] == "kept"


def test_reserve_second_append_refused(scroll: Scroll) -> None:
    with scroll.reserve() as reservation:
        reservation.append("one")
        with pytest.raises(ScrollError, match="one record"):
            reservation.append("two")
    assert scroll.record_count() == 1


def test_reserve_append_after_exit_refused(scroll: Scroll) -> None:
    with scroll.reserve() as reservation:
        pass
    with pytest.raises(ScrollError, match="closed"):
        reservation.append("late")
    assert scroll.size() == 0


def test_reserve_nested_append_same_thread_refused(scroll: Scroll) -> None:
    with scroll.reserve() as reservation:
        with pytest.raises(ScrollError, match="already holds"):
            Scroll(scroll.path).append("would deadlock")
        reservation.append("through the reservation")
    assert scroll.record_count() == 1


@pytest.mark.slow
@pytest.mark.serial  # times processes, signals or lock waits: one at a time
def test_reserve_rollback_while_other_process_waits_recovers(scroll: Scroll) -> None:
    ctx = multiprocessing.get_context("spawn")
    started, out = ctx.Event(), ctx.Queue()
    child = ctx.Process(target=_append_one, args=(str(scroll.path), started, out))
    with pytest.raises(RuntimeError), scroll.reserve() as reservation:
        reserved = reservation.append("orphan")
        child.start()
        assert started.wait(timeout=60)
        child.join(timeout=0.5)
        assert child.is_alive()  # blocked on the lock
        raise RuntimeError("db write failed")
    assert out.get(timeout=60) == reserved == 0
    child.join(timeout=60)
    assert scroll.record_at(0)["payload"] == "child"
    assert scroll.record_count() == 1


# -- bounded reads -------------------------------------------------------------


@pytest.mark.parametrize(
    ("start", "end", "fragment"),
    [
        (-1, 0, "slice start out of range"),
        ("size+1", "size+1", "slice start out of range"),
        (5, 4, "slice end out of range"),
        (0, "size+1", "slice end out of range"),
        (0, "size", "complete scroll"),
    ],
)
def test_read_slice_bad_range_refused(
    scroll: Scroll, start: int | str, end: int | str, fragment: str
) -> None:
    scroll.append("hello")
    size = scroll.size()
    bound = {"size": size, "size+1": size + 1}
    with pytest.raises(ScrollError, match=fragment):
        scroll.read_slice(bound.get(str(start), start), bound.get(str(end), end))  # type: ignore[arg-type]


def test_read_slice_empty_ranges_accepted(scroll: Scroll) -> None:
    assert scroll.read_slice(0, 0) == ""
    scroll.append("hello")
    assert scroll.read_slice(3, 3) == ""


def test_read_slice_max_slice_accepted(scroll: Scroll) -> None:
    scroll.append("a" * (MAX_SLICE + 100))
    assert len(scroll.read_slice(1, 1 + MAX_SLICE)) == MAX_SLICE


def test_read_slice_max_slice_plus_one_refused(scroll: Scroll) -> None:
    scroll.append("a" * (MAX_SLICE + 100))
    with pytest.raises(ScrollError, match=r"too large \(8193 bytes > MAX_SLICE=8192\)"):
        scroll.read_slice(1, 2 + MAX_SLICE)


def test_read_slice_record_boundaries_accepted(scroll: Scroll) -> None:
    scroll.append("é" * 10)
    second = scroll.append("ü✓")
    text = scroll.read_slice(second, scroll.size())
    assert json.loads(text)["payload"] == "ü✓"


@pytest.mark.parametrize("side", ["start", "end"])
def test_read_slice_multibyte_cut_refused(scroll: Scroll, side: str) -> None:
    scroll.append("pad")
    scroll.append("✓✓✓")
    raw = scroll.path.read_bytes()
    check = raw.index("✓".encode())
    start, end = (check + 1, check + 6) if side == "start" else (check, check + 4)
    with pytest.raises(ScrollError, match="record boundary"):
        scroll.read_slice(start, end)


def test_tail_non_positive_refused(scroll: Scroll) -> None:
    for bad in (0, -1):
        with pytest.raises(ScrollError, match="positive"):
            scroll.tail(bad)


def test_tail_empty_file_accepted(scroll: Scroll) -> None:
    assert scroll.tail() == ""


def test_tail_whole_file_at_limit_accepted(scroll: Scroll) -> None:
    scroll.append("x")
    size = scroll.size()
    assert scroll.tail(size) == scroll.path.read_text(encoding="utf-8")
    assert scroll.tail(size - 1) == scroll.path.read_text(encoding="utf-8")[1:]


def test_tail_multibyte_boundaries_accepted(scroll: Scroll) -> None:
    scroll.append("é✓😀" * 5)
    text = scroll.path.read_text(encoding="utf-8")
    for max_bytes in range(1, scroll.size() + 2):
        tail = scroll.tail(max_bytes)
        assert text.endswith(tail)
        assert "\ufffd" not in tail


def test_dump_all_refused(scroll: Scroll) -> None:
    scroll.append("x")
    with pytest.raises(ScrollError, match="dumping the whole scroll"):
        scroll.dump_all()


def test_record_count_blank_and_undecodable_lines_accepted(scroll: Scroll) -> None:
    scroll.append("one")
    with scroll.path.open("ab") as fh:
        fh.write(b"\n   \n\xff\xfe\n")
    assert scroll.record_count() == 2


def test_refusal_messages_match_published_forest_accepted(tmp_path: Path) -> None:
    forest_scroll = pytest.importorskip("forest_memory.scroll")
    ours, theirs = Scroll(tmp_path / "a.jsonl"), forest_scroll.Scroll(tmp_path / "b.jsonl")
    for s in (ours, theirs):
        s.append("hello")
    size = ours.size()
    calls = [("append", ("",)), ("tail", (0,)), ("dump_all", ()), ("read_slice", (-1, 0))]
    calls += [("read_slice", (0, size + 1)), ("read_slice", (0, size))]
    for name, args in calls:
        messages = []
        for s in (ours, theirs):
            with pytest.raises(Exception) as caught:
                getattr(s, name)(*args)
            messages.append(str(caught.value))
        head = re.split(r"[;(]", messages[1])[0].strip()
        assert messages[0].startswith(head), (name, messages)


# -- pointers ------------------------------------------------------------------


def test_record_at_append_offsets_accepted(scroll: Scroll) -> None:
    heads = ["first", "sëcond\nline", "third ✓"]
    offsets = [scroll.append(h) for h in heads]
    assert [scroll.record_at(o)["payload"] for o in offsets] == heads


def test_record_at_mid_record_offset_refused(scroll: Scroll) -> None:
    scroll.append("first")
    with pytest.raises(ScrollError, match="not the start of a record"):
        scroll.record_at(3)


@pytest.mark.parametrize("offset", [-1, "size"])
def test_record_at_out_of_range_refused(scroll: Scroll, offset: int | str) -> None:
    scroll.append("first")
    bad = scroll.size() if offset == "size" else offset
    with pytest.raises(ScrollError, match="out of range"):
        scroll.record_at(bad)  # type: ignore[arg-type]


def test_record_at_record_of_max_slice_accepted(scroll: Scroll) -> None:
    head = _head_for_line(MAX_SLICE)
    offset = scroll.append(head)
    assert scroll.size() == MAX_SLICE
    assert scroll.record_at(offset)["payload"] == head


def test_record_at_record_over_max_slice_refused(scroll: Scroll) -> None:
    head = _head_for_line(MAX_SLICE + 1)
    offset = scroll.append(head)
    assert scroll.size() == MAX_SLICE + 1
    with pytest.raises(ScrollError, match="too large"):
        scroll.record_at(offset)
    assert scroll.verify_pointer(_ptr(scroll, offset, head))


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        (b"not json\n", "not JSON"),
        (b'{"v": 2}\n', "v1 record"),
        (b'{"v": 1, "ts": "t", "hash": "h", "n": 1}\n', "fields"),
        (b'{"v": 1, "ts": "t", "hash": "h", "n": 1, "payload": "x"}\n', "damaged"),
        (b'{"v": 1, "ts": "t", "hash": "h"', "torn"),
    ],
)
def test_record_at_non_record_line_refused(scroll: Scroll, line: bytes, fragment: str) -> None:
    scroll.append("first")
    offset = scroll.size()
    with scroll.path.open("ab") as fh:
        fh.write(line)
    with pytest.raises(ScrollError, match=fragment):
        scroll.record_at(offset)


def test_verify_pointer_valid_accepted(scroll: Scroll) -> None:
    scroll.append("before")
    offset = scroll.append("USER: q\nASSISTANT: a")
    assert scroll.verify_pointer(_ptr(scroll, offset, "USER: q\nASSISTANT: a"))


@pytest.mark.parametrize(
    "change",
    [
        {"hash": "0" * 64},
        {"offset": 1},
        {"offset": 10_000},
        {"offset": True},
        {"offset": False},
        {"offset": "0"},
        {"hash": None},
    ],
)
def test_verify_pointer_wrong_pointer_detected(scroll: Scroll, change: dict[str, Any]) -> None:
    offset = scroll.append("head")
    assert not scroll.verify_pointer({**_ptr(scroll, offset, "head"), **change})


def test_verify_pointer_missing_keys_detected(scroll: Scroll) -> None:
    scroll.append("head")
    assert not scroll.verify_pointer({"path": str(scroll.path)})


def test_verify_pointer_tampered_payload_detected(scroll: Scroll) -> None:
    offset = scroll.append("the treaty was signed in 1842")
    scroll.path.write_bytes(scroll.path.read_bytes().replace(b"1842", b"1843"))
    assert not scroll.verify_pointer(_ptr(scroll, offset, "the treaty was signed in 1842"))
    assert not scroll.verify_pointer(_ptr(scroll, offset, "the treaty was signed in 1843"))
