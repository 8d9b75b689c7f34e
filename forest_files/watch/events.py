"""The event callback: turn a watchdog event into a path noted in the collector.

Stores: nothing; it never reads a file and never judges.
Refuses: (ignores) events under ``.git/`` and ``.forest/`` — but one in the
ledger's segments directory flags ``custody`` (the bindings may have changed)
— and every path that is not bound, editor artefacts included; a move or
create that ends on a bound path always counts, whatever the source name.
A directory event (moved, deleted, created) notes every bound path under it
and flags ``dirs`` (watches must follow).
Returns: nothing.
Test: tests/test_watch.py
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from watchdog.events import FileSystemEvent, FileSystemEventHandler

from forest_files.paths import FOREST_DIR, LEDGER_DIR, SEGMENTS
from forest_files.watch.collector import Collector


@dataclass(frozen=True)
class BoundSet:
    paths: frozenset[str] = frozenset()
    dirs: frozenset[str] = frozenset()  # every directory above a bound path ("" excluded)

    @classmethod
    def of(cls, paths: Iterable[str]) -> BoundSet:
        chosen = frozenset(paths)
        dirs: set[str] = set()
        for path in chosen:
            parts = path.split("/")[:-1]
            dirs.update("/".join(parts[: i + 1]) for i in range(len(parts)))
        return cls(chosen, frozenset(dirs))


_IGNORED_TYPES = ("opened", "closed_no_write")
_SEGMENTS = f"{LEDGER_DIR}/{SEGMENTS}"


def _text(path: bytes | str) -> str:
    return os.fsdecode(path)


class Handler(FileSystemEventHandler):
    """``bound`` returns the current bound paths (replaced whole, never mutated)."""

    def __init__(self, root: str, collector: Collector, bound: Callable[[], BoundSet]):
        self.prefix = root.rstrip(os.sep) + os.sep
        self.collector = collector
        self.bound = bound

    def _rel(self, full: str) -> str | None:
        if not full.startswith(self.prefix):
            return None
        rel = full[len(self.prefix) :]
        return rel.replace(os.sep, "/") if os.sep != "/" else rel

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.event_type in _IGNORED_TYPES:
            return
        src = self._rel(_text(event.src_path))
        dest = self._rel(_text(event.dest_path)) if event.dest_path else None
        moved = event.event_type == "moved"
        gone = event.event_type == "deleted" or moved
        if src is not None:
            self._one(src, removed=gone)
        if dest is not None:
            self._one(dest, removed=False)

    def _one(self, rel: str, *, removed: bool) -> None:
        if rel == _SEGMENTS or rel.startswith(_SEGMENTS + "/"):
            self.collector.flag("custody")
            return
        top = rel.split("/", 1)[0]
        if top in (".git", FOREST_DIR):
            return
        bound = self.bound()
        if rel in bound.paths:
            self.collector.note(rel, removed=removed)
            return
        if rel in bound.dirs:  # a directory holding bound files moved, went or came
            below = [p for p in bound.paths if p.startswith(rel + "/")]
            for path in below:
                self.collector.note(path, removed=removed)
            if below:
                self.collector.flag("dirs")
