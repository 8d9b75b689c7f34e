"""Keeping the index in step with a ledger directory: incrementally, or not at all.

Stores: the names of the segments whose acts the index holds
(``ledger_segments``, a local index table beside ``ledger_applied``).
Refuses: whatever reading a new segment or replaying its acts refuses
(``LedgerError``), naming segment, line or act; a symlink among the segments, at the
ledger's root, in ``bodies`` or under a folder the ledger has no use for
(``LinkedEntry``), so every door and sync hook refuses it alike.
Returns: the number of acts applied, or None when only a rebuild can bring
the index in step (a segment it applied is gone from disk — branch switch,
reset, rebase — or its tables come from an older forest-files).
Test: tests/ledger/test_ledger_perf.py, tests/custody/test_repository.py,
tests/doors/test_hook_ledger_link_on_base.py

Cost: three directory listings (names only: ``segments``, the ledger's root and
``bodies``, never its 256 prefix folders; a stray folder walked whole) plus the new
segments; old segments are never re-read, so a sync costs what the new acts cost. Acts of new
segments may depend on old acts: replay judges them from the deps the index
recorded when it applied those (``ledger_applied.deps``). A segment edited in
place under its old name is not re-read here; ``forest verify`` and a rebuild
refuse it.
"""

from __future__ import annotations

import os
import time
from collections.abc import Container, Iterable
from pathlib import Path

from forest_files.custody.replay import BodyReader, is_applied, replay, tables_current
from forest_files.ledger.act_order import topo_order
from forest_files.ledger.acts import Act
from forest_files.ledger.segment_files import SEGMENT_SUFFIX, LinkedEntry, linked_segment
from forest_files.ledger.segments import BODIES_DIR, SEGMENTS_DIR, read_segment
from forest_files.store.forest import ForestStore

# A segment whose mtime is this close to (or after) the moment its stat was recorded
# is re-read next time: an edit in the same timestamp tick would keep its stat.
_RACY_NS = 100_000_000
_PREFIX = frozenset(f"{i:02x}" for i in range(256))  # bodies/<h[:2]>


def _scan(ledger_dir: Path) -> dict[str, os.DirEntry[str]]:
    """Segment files by name; a symlink among them, or anywhere else the ledger is
    listed (``_refuse_links``), is refused, never read through."""
    found: dict[str, os.DirEntry[str]] = {}
    try:
        with os.scandir(Path(ledger_dir) / SEGMENTS_DIR) as entries:
            for e in entries:
                if not e.name.endswith(SEGMENT_SUFFIX):
                    continue
                if e.is_symlink():
                    raise linked_segment(e.name, e.path)
                if e.is_file(follow_symlinks=False):
                    found[e.name.removesuffix(SEGMENT_SUFFIX)] = e
    except FileNotFoundError:
        pass
    _refuse_links(os.fspath(ledger_dir), "", keep=(SEGMENTS_DIR, BODIES_DIR))
    _refuse_links(os.path.join(ledger_dir, BODIES_DIR), f"{BODIES_DIR}/", keep=_PREFIX)
    return found


def _refuse_links(directory: str, rel: str, keep: Container[str] = ()) -> None:
    """Refuse a symlink in ``directory`` (at ``rel`` under the ledger) or anywhere
    under a folder of it not named in ``keep`` (the ledger's own folders: listed by
    the caller, or, a prefix folder of ``bodies``, not at all: 256 listings a sync
    does not pay; a link in place of one is refused before, by ledger_dirs.py). A
    stray folder is walked whole with a list of folders still to list, not by
    recursion: a tree nested deeper than Python's recursion limit is walked too."""
    todo = [(directory, rel, keep)]
    while todo:
        folder, at, skip = todo.pop()
        try:
            entries = list(os.scandir(folder))
        except (FileNotFoundError, NotADirectoryError):
            continue
        for e in entries:
            if e.name in skip:
                continue
            if e.is_symlink():
                raise LinkedEntry(at + e.name, e.path)
            if e.is_dir(follow_symlinks=False):  # a stray folder: walked whole
                todo.append((e.path, f"{at}{e.name}/", ()))


def segment_names(ledger_dir: Path) -> list[str]:
    """Names (hashes) of the segment files on disk, sorted; temp files are skipped."""
    return sorted(_scan(ledger_dir))


def mark_segments(store: ForestStore, ledger_dir: Path, names: Iterable[str]) -> None:
    """Record that the index holds every act of these segments, with their stat."""
    directory = Path(ledger_dir) / SEGMENTS_DIR
    now = time.time_ns()
    rows = []
    for name in names:
        st = (directory / f"{name}{SEGMENT_SUFFIX}").stat()
        rows.append((name, st.st_size, st.st_mtime_ns, now))
    store.conn.executemany(
        "INSERT OR REPLACE INTO ledger_segments (name, size, mtime_ns, checked_ns) "
        "VALUES (?, ?, ?, ?)",
        rows,
    )


def sync_index(store: ForestStore, ledger_dir: Path, read: BodyReader) -> int | None:
    """Replay the acts of segments the index has not seen; None: rebuild instead.

    A known segment whose size or mtime changed (or that was recorded in the
    same tick it was written) is read again, so an edit in place is refused
    (``LedgerError``) instead of trusted.
    """
    with store.atomic():
        on_disk = _scan(ledger_dir)  # a link refused even where a rebuild follows
        if not tables_current(store):
            return None
        seen = {
            str(r[0]): (int(r[1]), int(r[2]), int(r[3]))
            for r in store.conn.execute(
                "SELECT name, size, mtime_ns, checked_ns FROM ledger_segments"
            )
        }
        if not seen.keys() <= on_disk.keys():
            return None
        todo: list[str] = []
        for name in sorted(on_disk):
            known = seen.get(name)
            if known is not None:
                st = on_disk[name].stat()
                size, mtime, checked = known
                if (st.st_size, st.st_mtime_ns) == (size, mtime) and mtime < checked - _RACY_NS:
                    continue
            todo.append(name)
        if not todo:
            return 0
        acts: dict[str, Act] = {}
        for name in todo:
            for act in read_segment(Path(on_disk[name].path)):
                acts.setdefault(act.id, act)
        fresh = {i: a for i, a in acts.items() if not is_applied(store, i)}
        outside = {d for a in fresh.values() for d in a.deps if d not in fresh}
        applied = {d for d in outside if is_applied(store, d)}
        count = replay(store, topo_order(fresh.values(), satisfied=applied), read)
        mark_segments(store, ledger_dir, todo)
        return count
