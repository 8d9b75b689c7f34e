"""The working tree as a content source: regular files read without following links.

Stores: file hashes in the stat cache (statcache.py, under the git directory),
with ``use_stat_cache``; nothing else.
Refuses: to read a symlink, directory, FIFO or device (``special`` names it),
or a file whose directory resolves outside the repository.
Returns: bytes of a repository-relative regular file (None when it is not one);
``special``; ``variant`` of a missing path; the paths it holds (for the ``moved``
search); trusted file hashes and stat keys.
Test: tests/check/test_check.py, tests/custody/test_statcache.py,
      tests/custody/test_special_paths.py
"""

from __future__ import annotations

import os
import stat as stat_mod
from dataclasses import dataclass, field
from pathlib import Path

from forest_files.custody.content_read import NOFOLLOW, READ_NOFOLLOW, dir_inside, path_variant
from forest_files.custody.special import lstat_kind
from forest_files.custody.statcache import StatCache


@dataclass
class WorktreeSource:
    """The working tree; with ``use_stat_cache`` a check learns file hashes from
    ``.git/forest`` (statcache.py) instead of reading unchanged files."""

    root: Path
    name: str = "working tree"
    use_stat_cache: bool = True
    _stats: StatCache | None = None
    _read_stat: dict[str, os.stat_result] = field(default_factory=dict)
    _dirs_inside: dict[str, bool] = field(default_factory=dict)
    _prefetched: dict[str, str] = field(default_factory=dict)
    _listings: dict[str, list[str]] = field(default_factory=dict)  # variant: dir -> names

    def _cache(self) -> StatCache:
        if self._stats is None:
            self._stats = StatCache(self.root)
        return self._stats

    def read(self, path: str) -> bytes | None:
        if self.use_stat_cache:
            self._cache().stamp()  # the racy-clean stamp precedes the stat and the read
        got = self._open(path)
        if got is None:
            return None
        st, data = got
        if self.use_stat_cache:
            self._read_stat[path] = st
        return data

    def _open(self, path: str) -> tuple[os.stat_result, bytes] | None:
        """(lstat, bytes) of a file inside the tree; None when absent or outside.

        A regular file is opened without following a final symlink and stat'ed
        through its descriptor: one path lookup, and the stat is of the bytes read.
        Anything else (a symlink, a missing path) takes ``_open_slow``.
        """
        full = os.path.join(self.root, path)
        if not NOFOLLOW:
            return self._open_slow(path, full)
        try:
            fd = os.open(full, READ_NOFOLLOW)
        except OSError:
            return self._open_slow(path, full)
        try:
            st = os.fstat(fd)
            if not stat_mod.S_ISREG(st.st_mode) or not self._dir_inside(path.rpartition("/")[0]):
                return None
            data = os.read(fd, st.st_size + 1)
            if len(data) != st.st_size:  # changed since the stat, or a short read
                parts = [data]
                while chunk := os.read(fd, 1 << 20):
                    parts.append(chunk)
                data = b"".join(parts)
            return st, data
        except OSError:
            return None
        finally:
            os.close(fd)

    def _open_slow(self, path: str, full: str) -> tuple[os.stat_result, bytes] | None:
        """``_open`` by ``lstat`` first (no O_NOFOLLOW, or the open failed): only a
        regular file is read; a symlink is never followed (``special`` names it)."""
        try:
            st = os.lstat(full)
        except OSError:
            return None
        if not stat_mod.S_ISREG(st.st_mode) or not self._dir_inside(path.rpartition("/")[0]):
            return None
        try:
            with open(full, "rb") as fh:
                return st, fh.read()
        except OSError:
            return None

    def special(self, path: str) -> str | None:
        try:
            st = os.lstat(os.path.join(self.root, path))
        except OSError:
            return None
        return lstat_kind(st.st_mode)

    def variant(self, path: str) -> str | None:
        """For a missing ``path``: how a name in its directory differs from it only
        in Unicode normalisation or letter case (``path_variant``); None if none."""
        parent, _, _ = path.rpartition("/")
        names = self._listings.get(parent)
        if names is None:  # each directory listed once per run
            try:
                names = os.listdir(os.path.join(self.root, parent) if parent else self.root)
            except OSError:
                names = []
            self._listings[parent] = names
        return path_variant(path, (f"{parent}/{n}" if parent else n for n in names))

    def prefetch_hashes(self, paths: list[str]) -> None:
        """Learn the file hash of every path the stat cache cannot answer yet, in one
        tight loop (no per-binding work in between), so the checks that follow find
        them without a second ``lstat``. (Threads were measured slower on 2 cores.)"""
        if not self.use_stat_cache:
            return
        from forest_files.text.normalise import normalised_hash

        cache = self._cache()
        stamp = cache.stamp()  # before any of these stats and reads
        record = cache.record
        prefetched = self._prefetched
        for path in dict.fromkeys(paths):
            known = self.known_hash(path)
            if known is not None:
                prefetched[path] = known  # stat checked just now: no second lstat
                continue
            got = self._open(path)
            if got is None:
                continue
            st, data = got
            file_hash = normalised_hash(data)
            record(path, st, file_hash, stamp)
            if file_hash is not None and st.st_mtime_ns < stamp:
                prefetched[path] = file_hash  # trusted: no second lstat

    def _dir_inside(self, parent: str) -> bool:
        return dir_inside(self.root, parent, self._dirs_inside)

    def known_hash(self, path: str) -> str | None:
        """The normalised file hash of ``path`` when its stat is cached and trusted."""
        if not self.use_stat_cache:
            return None
        if path in self._prefetched:  # read and hashed by this run's prefetch
            return self._prefetched[path]
        known = self._cache().hash_of(path)
        return known if known is not None and self._dir_inside(path.rpartition("/")[0]) else None

    def remember(self, path: str, file_hash: str | None) -> None:
        """Record ``file_hash`` for the bytes ``read(path)`` last returned."""
        st = self._read_stat.pop(path, None)
        if st is not None:
            cache = self._cache()
            cache.record(path, st, file_hash, cache.stamp())

    def trusted_keys(self, paths: set[str]) -> dict[str, tuple[int, int, int, int]] | None:
        """Trusted stat keys of every path in ``paths`` (None if one has none)."""
        if not self.use_stat_cache:
            return None
        cache = self._cache()
        out = {}
        for path in paths:
            key = cache.trusted_key(path)
            if key is None:
                return None
            out[path] = key
        return out

    def save_cache(self) -> None:
        if self._stats is not None:
            self._stats.save()

    def paths(self) -> list[str]:
        """Tracked and untracked (not ignored) files: a plain ``mv`` is still found."""
        from forest_files import gitio  # git only for the moved-file search
        from forest_files.gitio import split_z

        proc = gitio.run_git(
            self.root, ["ls-files", "-z", "--cached", "--others", "--exclude-standard"]
        )
        return sorted(set(split_z(proc.stdout)))
