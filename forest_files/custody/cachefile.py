"""One local cache file: a ``marshal`` record read once per version, written whole.

The stat, parse and blob hash caches (statcache.py) each keep their entries in one
file under ``.git/forest/cache/``: ``(VERSION, entries)``, written to a temporary file
and renamed into place (kernel/cache.py). A long-lived process (the watcher) may hold
writes back (``defer_writes``) and write them at its stop (``flush_writes``).

Stores: the entries a cache saves, in the file it names.
Refuses: nothing. A missing, unreadable, corrupt or foreign-version file is read as
empty (the next save rebuilds it); a file that cannot be written is left alone.
Returns: a file's entries (a copy), a file's stat key.
Test: tests/custody/test_statcache.py
"""

from __future__ import annotations

import os
from pathlib import Path

from forest_files.kernel import cache

VERSION = 8  # 3: outlines from pulldown-cmark; 4: issue 11 selector rules (overloads,
# comments); 5: a Python definition bound again later in its block is never matched;
# 6: a file whose coding declaration Python reads otherwise than UTF-8 is refused;
# 7: a definition in a branch is replaced by a later statement after the branch;
# 8: a file holding a lone CR is refused (text/normalise.py)

StatKey = tuple[int, int, int, int]


def stat_key(st: os.stat_result) -> StatKey:
    return (st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns)


# A long-lived process (the watcher) checks one file at a time: each cache file is
# decoded once per version of it on disk (its stat), and handed out as a copy.
_DECODED: dict[str, tuple[tuple[int, int, int, int], dict[str, list[object]]]] = {}
# ... and need not rewrite 10,000 entries to record the one file that changed: with
# ``defer_writes(s)`` a cache file is written at most once every ``s`` seconds; the
# entries not written yet are what this process loads, and ``flush_writes`` writes
# them (the watcher's stop). Another process meanwhile reads the older file, which
# costs it a re-read of the files changed since, never a wrong answer (a stat that
# no longer matches is never trusted).
_DEFER = 0.0
_WRITTEN: dict[str, float] = {}  # path -> when this process last wrote it (monotonic)
_PENDING: dict[str, dict[str, list[object]]] = {}


def defer_writes(seconds: float) -> None:
    """Write each cache file at most once every ``seconds`` (0: at every save)."""
    global _DEFER
    _DEFER = max(0.0, float(seconds))


def flush_writes() -> None:
    """Write every cache file whose latest entries were held back."""
    for name, entries in list(_PENDING.items()):
        _write(Path(name), entries)


def load(path: Path) -> dict[str, list[object]]:
    held = _PENDING.get(str(path))
    if held is not None:
        return dict(held)
    try:
        with cache.open_record(path) as fh:
            key = stat_key(os.fstat(fh.fileno()))
            known = _DECODED.get(str(path))
            if known is not None and known[0] == key:
                return dict(known[1])  # entries are replaced, never changed in place
            doc = cache.decode(str(path), path.name, fh.read())
    except OSError:
        return {}
    if not isinstance(doc, tuple) or len(doc) != 2 or doc[0] != VERSION:
        return {}
    entries = doc[1]
    if not isinstance(entries, dict):
        return {}
    _DECODED[str(path)] = (key, entries)
    return dict(entries)


def save(path: Path, entries: dict[str, list[object]]) -> None:
    if _DEFER > 0:
        import time

        now = time.monotonic()
        last = _WRITTEN.get(str(path))
        if last is not None and now - last < _DEFER:
            _PENDING[str(path)] = dict(entries)
            return
        _WRITTEN[str(path)] = now
    _write(path, entries)


def _write(path: Path, entries: dict[str, list[object]]) -> None:
    _PENDING.pop(str(path), None)
    try:
        if not cache.write(path, path.name, (VERSION, entries)):
            return
        _DECODED[str(path)] = (stat_key(os.stat(path)), dict(entries))  # no decode next time
    except (OSError, ValueError):
        pass  # a cache that cannot be written is only a slower next check
