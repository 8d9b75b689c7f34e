"""Scroll: the append-only JSONL session file that pair entries point back into.

Stores: one JSON line per head, ``{"v": 1, "ts": ..., "hash": ..., "n": ...,
"payload": ...}`` (Forest 0.4's layout), written under an exclusive ``flock``
and fsynced before ``append`` returns, so concurrent processes get true offsets.
Refuses (``ScrollError``): empty or non-UTF-8 heads; slices out of range, over
``MAX_SLICE``, over the complete scroll, or cutting a UTF-8 character;
``dump_all``; ``tail(max_bytes <= 0)``; ``record_at`` offsets that are not a
record start or records over ``MAX_SLICE``; a second head in one reservation;
re-taking the lock from the thread that holds it.
Returns: byte offsets of records, bounded text, records as dicts, and
``verify_pointer`` as a bool. ``reserve()`` lets a caller pair one record with
a database write and truncates the record away if the write fails.
Test: tests/face/test_scroll.py
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import threading
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NoReturn

from forest_files.kernel.cache import fsync_dir
from forest_files.kernel.errors import ScrollError

__all__ = ["MAX_SLICE", "Reservation", "Scroll", "ScrollError"]

MAX_SLICE = 8192
"""Largest span, in bytes, that ``read_slice`` and ``record_at`` hand back."""

_ALIGN_HINT = "use tail() for recent context or read from an offset returned by append()"


class _HeldLocks(threading.local):
    """(st_dev, st_ino) of scroll files whose lock this thread holds.

    flock locks belong to an open file description, so a second open() of the
    same file in the same thread would wait on itself forever; we refuse instead.
    """

    def __init__(self) -> None:
        self.keys: set[tuple[int, int]] = set()


_HELD = _HeldLocks()


def _encode_record(head: str) -> bytes:
    if not head:
        raise ScrollError("empty head refused")
    try:
        data = head.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ScrollError(
            f"head refused: unpaired surrogate at index {exc.start} cannot be written as "
            "UTF-8; pass valid Unicode text"
        ) from None
    record = {
        "v": 1,
        "ts": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
        "hash": hashlib.sha256(data).hexdigest(),
        "n": len(data),
        "payload": head,
    }
    return (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8")


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _payload_ok(record: dict[str, Any]) -> bool:
    try:
        data = str(record["payload"]).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return bool(record["n"] == len(data) and record["hash"] == hashlib.sha256(data).hexdigest())


def _parse_record(line: bytes, offset: int) -> dict[str, Any]:
    try:
        record = json.loads(line)
    except ValueError:  # also UnicodeDecodeError
        raise ScrollError(f"no scroll record at offset {offset}: the line is not JSON") from None
    shape = {"v": int, "ts": str, "hash": str, "n": int, "payload": str}
    if not isinstance(record, dict) or record.get("v") != 1:
        raise ScrollError(f"no scroll record at offset {offset}: not a v1 record")
    if any(not isinstance(record.get(key), kind) for key, kind in shape.items()):
        raise ScrollError(f"no scroll record at offset {offset}: fields v/ts/hash/n/payload")
    if not _payload_ok(record):
        raise ScrollError(f"record at offset {offset} is damaged: hash or n disagrees with payload")
    return record


class Reservation:
    """The scroll's exclusive lock, held for at most one record (see ``Scroll.reserve``)."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._start = os.fstat(fd).st_size
        # A torn last line (a crash mid-write by an older writer) gets a newline
        # first, so our record still starts a line of its own.
        torn = self._start > 0 and os.pread(fd, 1, self._start - 1) != b"\n"
        self._prefix = b"\n" if torn else b""
        self.offset = self._start + len(self._prefix)
        self.appended = False
        self.closed = False

    def append(self, head: str) -> int:
        """Write ``head`` as one record at ``self.offset``, fsync, return the offset."""
        if self.closed:
            raise ScrollError("reservation is closed; its lock was released with the with-block")
        if self.appended:
            raise ScrollError("a reservation holds one record; open another reserve() for more")
        line = _encode_record(head)
        try:
            _write_all(self._fd, self._prefix + line)
            os.fsync(self._fd)
        except BaseException:  # a partial write never outlives the failure, caught or not
            self._truncate()
            raise
        self.appended = True
        return self.offset

    def _truncate(self) -> None:
        os.ftruncate(self._fd, self._start)
        os.fsync(self._fd)


class Scroll:
    """An append-only JSONL file of conversation heads, read only in bounded pieces."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        if self.path.is_dir():
            raise ScrollError(f"scroll path {self.path} is a directory; give a file path")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if not self.path.exists():
            self.path.touch()
            fsync_dir(self.path.parent)

    def append(self, head: str) -> int:
        """Append ``head`` as one record and return the byte offset where it starts."""
        with self.reserve() as reservation:
            return reservation.append(head)

    @contextlib.contextmanager
    def reserve(self) -> Iterator[Reservation]:
        """Hold the scroll's lock for one record and undo it if the block raises.

        ``commit_turn`` appends through the reservation, then writes the pair.
        If anything raises after the append, the file is truncated back to its
        size before the append and fsynced before the lock is released, so no
        orphan record survives. Keep the DB commit the last act in the block:
        an error raised after it would truncate a record the DB points at.
        """
        with self._exclusive() as fd:
            reservation = Reservation(fd)
            try:
                yield reservation
            except BaseException:
                if reservation.appended:
                    reservation._truncate()
                raise
            finally:
                reservation.closed = True

    @contextlib.contextmanager
    def _exclusive(self) -> Iterator[int]:
        fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o666)
        try:
            stat = os.fstat(fd)
            key = (stat.st_dev, stat.st_ino)
            if key in _HELD.keys:
                raise ScrollError(
                    "this thread already holds the scroll lock inside reserve(); "
                    "append through the reservation instead"
                )
            fcntl.flock(fd, fcntl.LOCK_EX)
            _HELD.keys.add(key)
            try:
                yield fd
            finally:
                _HELD.keys.discard(key)
        finally:
            os.close(fd)  # closing the descriptor releases the flock

    def size(self) -> int:
        return self.path.stat().st_size

    def record_count(self) -> int:
        """Number of non-blank lines, streamed; undecodable bytes are replaced."""
        with self.path.open(encoding="utf-8", errors="replace") as fh:
            return sum(1 for line in fh if line.strip())

    def read_slice(self, start: int, end: int) -> str:
        """Bytes ``[start, end)`` decoded as UTF-8, at most ``MAX_SLICE`` of them."""
        size = self.size()
        if start < 0 or start > size:
            raise ScrollError(f"slice start out of range (start={start}, size={size})")
        if end < start or end > size:
            raise ScrollError(f"slice end out of range (start={start}, end={end}, size={size})")
        if size and start == 0 and end == size:
            raise ScrollError(f"reading the complete scroll is refused; {_ALIGN_HINT}")
        if end - start > MAX_SLICE:
            raise ScrollError(
                f"slice too large ({end - start} bytes > MAX_SLICE={MAX_SLICE}); {_ALIGN_HINT}"
            )
        with self.path.open("rb") as fh:
            fh.seek(start)
            data = fh.read(end - start)
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            raise ScrollError(
                f"slice [{start}, {end}) cuts a UTF-8 character; align start and end to a "
                "record boundary (an offset returned by append())"
            ) from None

    def tail(self, max_bytes: int = 4096) -> str:
        """The last ``max_bytes`` bytes (the whole file if smaller); the first line may be cut."""
        if max_bytes <= 0:
            raise ScrollError(f"max_bytes must be positive (got {max_bytes})")
        with self.path.open("rb") as fh:
            size = os.fstat(fh.fileno()).st_size
            fh.seek(max(0, size - max_bytes))
            data = fh.read(max_bytes)
        skip = 0
        while skip < len(data) and 0x80 <= data[skip] <= 0xBF:  # continuation bytes
            skip += 1
        return data[skip:].decode("utf-8", errors="replace")

    def dump_all(self) -> NoReturn:
        raise ScrollError(
            "dumping the whole scroll into context is refused; use tail() or a bounded read_slice()"
        )

    def record_at(self, offset: int) -> dict[str, Any]:
        """The record starting at ``offset`` (an offset ``append`` returned)."""
        return _parse_record(self._line_at(offset, MAX_SLICE), offset)

    def verify_pointer(self, ptr: Mapping[str, Any]) -> bool:
        """True when the record at ``ptr["offset"]`` is intact and has ``ptr["hash"]``.

        ``ptr["path"]`` is not compared: the caller chose this scroll. Records
        over ``MAX_SLICE`` are verified too, since only a bool comes back.
        """
        offset, expected = ptr.get("offset"), ptr.get("hash")
        if not isinstance(expected, str) or type(offset) is not int:
            return False
        try:
            record = _parse_record(self._line_at(offset, None), offset)
        except ScrollError:
            return False
        return bool(record["hash"] == expected)

    def _line_at(self, offset: int, limit: int | None) -> bytes:
        if isinstance(offset, bool) or not isinstance(offset, int):
            raise ScrollError(f"record offset must be an int, got {type(offset).__name__}")
        with self.path.open("rb") as fh:
            size = os.fstat(fh.fileno()).st_size
            if offset < 0 or offset >= size:
                raise ScrollError(f"record offset out of range (offset={offset}, size={size})")
            if offset and os.pread(fh.fileno(), 1, offset - 1) != b"\n":
                raise ScrollError(
                    f"offset {offset} is not the start of a record; "
                    "use an offset returned by append()"
                )
            fh.seek(offset)
            line = fh.readline(-1 if limit is None else limit)
        if not line.endswith(b"\n"):
            if offset + len(line) == size:
                raise ScrollError(f"record at offset {offset} is torn (no final newline)")
            raise ScrollError(
                f"record at offset {offset} is too large to read back (over "
                f"MAX_SLICE={MAX_SLICE} bytes); check it with verify_pointer()"
            )
        return line
