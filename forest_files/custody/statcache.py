"""Local caches that spare a check from re-reading and re-parsing unchanged files.

Stores (``.git/forest/``, git-ignored, never committed): ``stat-<python tag>.bin`` —
repository path -> (size, mtime_ns, ino, ctime_ns, normalised file hash, recorded_ns);
``parse-<python tag>.bin`` — (file hash, selector, exclusions) -> (section hash, start
line, end line). Both are ``marshal`` records (a tenth of JSON's cost at 10,000
files), written whole to a temporary file and renamed into place (cachefile.py).
Refuses: nothing. A missing, unreadable, corrupt or foreign-version cache file
is treated as empty and rebuilt by the next save.
Returns: the normalised file hash of a path whose stat still matches, or None
(unknown: read the file); the cached section of a known content, or None.
Test: tests/custody/test_statcache.py

Racy-clean rule (git's): a stat entry is trusted only when all four stat
fields match AND the file's mtime is strictly earlier than ``recorded_ns``, a
filesystem timestamp taken (by touching a stamp file in the cache directory)
BEFORE the file was stat'ed and read. A later write lands in a tick at or after
that stamp, so it changes the mtime; a write in the same tick as the recorded
mtime could keep every stat field, and such an entry is never trusted — the
file is re-hashed until its mtime falls behind a stamp. Only regular files
(``lstat``) are cached, so a symlink is always read through its resolution.
"""

from __future__ import annotations

import os
import stat as stat_mod
import sys
from collections.abc import Iterable
from pathlib import Path

from forest_files.custody.cachefile import StatKey, load, save, stat_key
from forest_files.kernel import cache
from forest_files.kernel.paths import CACHE_DIR
from forest_files.kernel.state import ensure_dir, worktree_dir

STAT_NAME = f"stat-{sys.implementation.cache_tag}.bin"
PARSE_NAME = f"parse-{sys.implementation.cache_tag}.bin"
BLOBS_NAME = f"blobs-{sys.implementation.cache_tag}.bin"
_STAMP = ".stamp"

Located = tuple[str, int, int]


class StatCache:
    """Working-tree stat cache of one repository (``root``)."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self._root = str(root)
        self.dir = worktree_dir(self.root) / CACHE_DIR
        self.path = self.dir / STAT_NAME
        self._entries = load(self.path)
        self._stamp: int | None = None
        self._dirty = False

    def stamp(self) -> int:
        """A filesystem timestamp taken now (once per run): the stamp file's mtime; 0 where
        the cache folder may not be written (no stat cache saved there, so none taken)."""
        if self._stamp is None:
            self._stamp, probe = 0, self.dir / _STAMP
            try:
                ensure_dir(self.dir)
                if os.access(self.dir, os.W_OK):
                    pid = str(os.getpid()).encode("ascii")
                    cache.replace_atomically(str(probe), pid, mode=0o644)
                    self._stamp = os.stat(probe).st_mtime_ns
            except OSError:
                pass  # no stamp (0): nothing recorded now can be trusted
        return self._stamp

    def lookup(self, path: str, st: os.stat_result) -> str | None:
        """The recorded file hash if ``st`` matches and the entry is not racily clean."""
        got = self._entries.get(path)
        if not isinstance(got, list) or len(got) != 6:
            return None
        size, mtime, ino, ctime, file_hash, recorded = got
        if (size, mtime, ino, ctime) != stat_key(st) or not isinstance(recorded, int):
            return None
        if not isinstance(mtime, int) or mtime >= recorded:
            return None
        return file_hash if isinstance(file_hash, str) else None

    def trusted_keys(self, paths: Iterable[str]) -> dict[str, StatKey] | None:
        """The stat key of each path's entry when ``lookup`` would trust a file with
        it (well-formed, and its mtime before the stamp it was recorded under); None
        when one path has no such entry."""
        entries = self._entries
        out: dict[str, StatKey] = {}
        for path in paths:
            got = entries.get(path)
            if type(got) is not list or len(got) != 6:
                return None
            size, mtime, ino, ctime, file_hash, recorded = got
            if type(size) is not int or type(mtime) is not int or type(ino) is not int:
                return None
            if type(ctime) is not int or type(recorded) is not int or type(file_hash) is not str:
                return None
            if mtime >= recorded:
                return None
            out[path] = (size, mtime, ino, ctime)
        return out

    def __contains__(self, path: str) -> bool:
        """An entry for ``path`` exists (trusted or not: ``hash_of`` says)."""
        return path in self._entries

    def hash_of(self, path: str) -> str | None:
        """``lookup`` with a fresh ``lstat`` of ``path`` (None for non-regular files)."""
        if path not in self._entries:
            return None
        try:
            st = os.lstat(os.path.join(self._root, path))
        except OSError:
            return None
        if not stat_mod.S_ISREG(st.st_mode):
            return None
        return self.lookup(path, st)

    def record(
        self, path: str, st: os.stat_result, file_hash: str | None, stamp: int
    ) -> StatKey | None:
        """Remember ``file_hash`` for the content read after ``st`` (``stamp`` taken
        first); the entry's stat key when it is trusted at once (its mtime before
        ``stamp``: ``trusted_keys`` gives the same), else None."""
        if file_hash is None or not stat_mod.S_ISREG(st.st_mode):
            self.forget(path)
            return None
        key = (st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns)  # stat_key(st)
        entry: list[object] = [*key, file_hash, stamp]
        if self._entries.get(path) != entry:
            self._entries[path] = entry
            self._dirty = True
        return key if key[1] < stamp else None

    def forget(self, path: str) -> None:
        if self._entries.pop(path, None) is not None:
            self._dirty = True

    def save(self) -> None:
        if self._dirty:
            save(self.path, self._entries)
            self._dirty = False


class ParseCache:
    """(file hash, selector, exclusions) -> where the section is and what it hashes to."""

    def __init__(self, root: Path) -> None:
        self.path = worktree_dir(root) / CACHE_DIR / PARSE_NAME
        self._entries: dict[str, list[object]] | None = None
        self._dirty = False

    @staticmethod
    def key(file_hash: str, selector: str, excludes: tuple[str, ...]) -> str:
        return "\0".join((file_hash, selector, *excludes))  # a selector never holds NUL

    def _all(self) -> dict[str, list[object]]:
        if self._entries is None:
            self._entries = load(self.path)
        return self._entries

    def get(self, file_hash: str, selector: str, excludes: tuple[str, ...]) -> Located | None:
        got = self._all().get(self.key(file_hash, selector, excludes))
        if not isinstance(got, list) or len(got) != 3:
            return None
        section, start, end = got
        if isinstance(section, str) and isinstance(start, int) and isinstance(end, int):
            return section, start, end
        return None

    def put(self, file_hash: str, selector: str, excludes: tuple[str, ...], found: Located) -> None:
        self._all()[self.key(file_hash, selector, excludes)] = list(found)
        self._dirty = True

    def save(self) -> None:
        if self._dirty and self._entries is not None:
            save(self.path, self._entries)
            self._dirty = False


class BlobHashCache:
    """git blob id -> the normalised file hash this machine computed from its bytes.

    A blob id names its bytes (git's content address), so a hash computed once from
    a blob stays true for that id: a git source (the index, a commit) then answers
    a whole-file binding, or finds a section in the parse cache, without reading the
    blob again. Computed here from bytes read, never taken from the ledger.
    """

    def __init__(self, root: Path) -> None:
        self.path = worktree_dir(root) / CACHE_DIR / BLOBS_NAME
        self._entries: dict[str, list[object]] | None = None
        self._dirty = False

    def _all(self) -> dict[str, list[object]]:
        if self._entries is None:
            self._entries = load(self.path)
        return self._entries

    def get(self, blob: str) -> str | None:
        got = self._all().get(blob)
        if isinstance(got, list) and len(got) == 1 and isinstance(got[0], str):
            return got[0]
        return None

    def put(self, blob: str, file_hash: str | None) -> None:
        self.put_over(blob, file_hash, None if file_hash is None else self.get(blob))

    def put_over(self, blob: str, file_hash: str | None, held: str | None) -> None:
        """``put``, given ``held``: what ``get(blob)`` answered the caller, which asked
        this cache already (nothing put for ``blob`` since), so it is not asked again."""
        if file_hash is not None and held != file_hash:
            self._all()[blob] = [file_hash]
            self._dirty = True

    def save(self) -> None:
        if self._dirty and self._entries is not None:
            save(self.path, self._entries)
            self._dirty = False
