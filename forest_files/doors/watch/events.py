"""The event callback: turn a watchdog event into a path noted in the collector.

Stores: nothing; it never reads a file and never judges.
Refuses: (ignores) events under ``.git/`` and ``.forest/`` — but one in the
ledger's segments directory flags ``custody`` (the bindings may have changed),
and ``forest.toml`` flags ``config`` (bindings, policies and ``[require]`` are
read again) — and every path that is neither bound nor named by a ``[require]`` glob,
editor artefacts included; a move or create that ends on a bound (or
required) path always counts, whatever the source name. Every file's event is
told to the collector (``elsewhere``): a moved, missing or unresolved verdict
reads every file, so the place its section moved to may change or go, and its
text may come back under another name.
A directory event (moved, deleted, created) notes every bound path under it
and flags ``dirs`` (watches must follow).
Returns: nothing.
Test: tests/doors/test_watch.py, tests/doors/test_watch_searched.py
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from watchdog.events import FileSystemEvent, FileSystemEventHandler

from forest_files.custody.config import CONFIG_NAME, RequireRule
from forest_files.doors.watch.collector import Collector
from forest_files.kernel.globs import literal_prefix
from forest_files.kernel.paths import FOREST_DIR, LEDGER_DIR, SEGMENTS


@dataclass(frozen=True)
class BoundSet:
    paths: frozenset[str] = frozenset()
    dirs: frozenset[str] = frozenset()  # every directory above a bound path ("" excluded)
    required: tuple[RequireRule, ...] = ()  # forest.toml's [require]: files that must be bound

    @classmethod
    def of(cls, paths: Iterable[str], required: tuple[RequireRule, ...] = ()) -> BoundSet:
        chosen = frozenset(paths)
        dirs: set[str] = set()
        for path in chosen:
            parts = path.split("/")[:-1]
            dirs.update("/".join(parts[: i + 1]) for i in range(len(parts)))
        return cls(chosen, frozenset(dirs), required)

    def wants(self, rel: str) -> bool:
        """A bound path, or one a ``[require]`` glob names (a new file must be bound)."""
        return rel in self.paths or any(rule.matches(rel) for rule in self.required)


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
        if rel == CONFIG_NAME:
            self.collector.flag("config")
            return
        top = rel.split("/", 1)[0]
        if top in (".git", FOREST_DIR):
            return
        self.collector.elsewhere(rel)
        bound = self.bound()
        if bound.wants(rel):
            self.collector.note(rel, removed=removed)
            return
        if rel in bound.dirs:  # a directory holding bound files moved, went or came
            below = [p for p in bound.paths if p.startswith(rel + "/")]
            for path in below:
                self.collector.note(path, removed=removed)
            if below:
                self.collector.flag("dirs")


MAX_REQUIRED_DIRS = 2000  # directories watched for [require] globs (a bound, not a scan)


def required_dirs(root: Path, globs: list[str]) -> set[str]:
    """The directories a ``[require]`` glob can name a file in: its literal prefix,
    and with a wildcard directory every directory below it (``.git``/``.forest``
    skipped, at most ``MAX_REQUIRED_DIRS``)."""
    base = os.fspath(root)
    out: set[str] = set()
    for glob in globs:
        parts = glob.split("/")[:-1]
        literal = literal_prefix(glob)  # the one glob syntax: kernel/globs.py
        top = os.path.join(base, *literal)
        if not os.path.isdir(top):
            continue
        out.add(top)
        if len(literal) < len(parts):  # a wildcard directory: watch what is below
            for here, names, _files in os.walk(top):
                names[:] = [n for n in names if n not in (".git", FOREST_DIR)]
                out.update(os.path.join(here, n) for n in names)
                if len(out) >= MAX_REQUIRED_DIRS:
                    return out
    return out
