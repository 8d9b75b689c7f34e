"""The working tree as a content source: regular files read without following links.

Stores: file hashes in the stat cache (statcache.py, under the git directory),
with ``use_stat_cache``; nothing else.
Refuses: to read a symlink, directory, FIFO or device (``special`` names it),
or a file whose directory resolves outside the repository. A path this user may
not read (EACCES, EPERM: a mode 000 file, another user's 0600 one, a folder it may
not enter) is not gone: ``read`` answers None, so a moved-file search passes it
by, and ``special``, which a check asks before it calls a file missing, raises
the PermissionError (its full path) for the door's boundary to name with its
``chmod``; a ``git checkout`` route would overwrite the unread edit.
Returns: bytes of a repository-relative regular file (None when it is not one);
``special``; ``variant`` of a missing path; the paths it holds (for the ``moved``
search); trusted file hashes and stat keys.
Test: tests/check/test_check.py, tests/custody/test_statcache.py,
      tests/custody/test_special_paths.py, tests/custody/test_unreadable_bound_file.py
"""

from __future__ import annotations

import errno
import os
import stat as stat_mod
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from forest_files.custody.cachefile import StatKey
from forest_files.custody.content_read import (
    NOFOLLOW,
    READ_NOFOLLOW,
    dir_inside,
    open_dir,
    path_variant,
)
from forest_files.custody.special import lstat_kind
from forest_files.custody.statcache import StatCache

_DENIED = (errno.EACCES, errno.EPERM)


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
    _resolved_root: Path | None = None
    _prefetched: dict[str, str] = field(default_factory=dict)
    _read_keys: dict[str, StatKey] = field(default_factory=dict)  # trusted, of prefetch's reads
    _listings: dict[str, list[str]] = field(default_factory=dict)  # variant: dir -> names
    _denied: dict[str, OSError] = field(default_factory=dict)  # path -> why it was not read

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

    def _open(self, path: str, dir_fd: int | None = None) -> tuple[os.stat_result, bytes] | None:
        """(lstat, bytes) of a file inside the tree; None when absent or outside.

        A regular file is opened without following a final symlink and stat'ed
        through its descriptor: one path lookup, and the stat is of the bytes read
        (open, fstat, one read, close). ``dir_fd``: the root's descriptor, so the
        lookup starts there (``prefetch_hashes``). Anything else (a symlink, a
        missing path) takes ``_open_slow``.
        """
        if not NOFOLLOW:
            return self._open_slow(path, os.path.join(self.root, path))
        try:
            if dir_fd is None:
                fd = os.open(os.path.join(self.root, path), READ_NOFOLLOW)
            else:
                fd = os.open(path, READ_NOFOLLOW, dir_fd=dir_fd)
        except OSError:
            return self._open_slow(path, os.path.join(self.root, path))
        try:
            st = os.fstat(fd)
            if not stat_mod.S_ISREG(st.st_mode):
                return None
            parent = path.rpartition("/")[0]
            inside = self._dirs_inside.get(parent)
            if inside is None:
                inside = self._dir_inside(parent)
            if not inside:
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
        regular file is read; a symlink is never followed (``special`` names it). A
        path this user may not read is remembered for ``special``."""
        try:
            st = os.lstat(full)
        except OSError as exc:
            self._deny(path, exc)  # a folder on the way this user may not enter
            return None
        if not stat_mod.S_ISREG(st.st_mode) or not self._dir_inside(path.rpartition("/")[0]):
            return None
        try:
            with open(full, "rb") as fh:
                return st, fh.read()
        except OSError as exc:
            self._deny(path, exc)
            return None

    def _deny(self, path: str, exc: OSError) -> None:
        if exc.errno in _DENIED:
            self._denied[path] = exc

    def special(self, path: str) -> str | None:
        """The kind of non-regular file at ``path`` (``lstat_kind``), None for none.
        Raises PermissionError for a path ``read`` was denied: it exists, or may, and
        must not be judged missing (its route, ``git checkout``, would destroy it)."""
        denied = self._denied.get(path)
        if denied is not None:
            raise PermissionError(denied.errno, denied.strerror, denied.filename)
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
        them without a second ``lstat``. Paths are opened relative to one descriptor
        of the root (no join, a shorter lookup) where the system allows it. (Threads
        were measured slower on 2 cores.)"""
        if not self.use_stat_cache:
            return
        from forest_files.text.normalise import normalised_hash

        cache = self._cache()
        stamp = cache.stamp()  # before any of these stats and reads
        record = cache.record
        prefetched, keys = self._prefetched, self._read_keys
        root_fd = open_dir(self.root)
        try:
            for path in dict.fromkeys(paths):
                if path in prefetched:
                    continue
                if path in cache:  # an entry: its stat may still match
                    known = self.known_hash(path)
                    if known is not None:
                        prefetched[path] = known  # stat checked just now: no second lstat
                        continue
                got = self._open(path, root_fd)
                if got is None:
                    continue
                st, data = got
                file_hash = normalised_hash(data)
                key = record(path, st, file_hash, stamp)
                if key is not None and file_hash is not None:  # trusted: no second lstat
                    prefetched[path] = file_hash
                    keys[path] = key  # what the stat cache now trusts
        finally:
            if root_fd is not None:
                os.close(root_fd)

    def hashes_read(self) -> Mapping[str, str]:
        """path -> normalised file hash of the files ``prefetch_hashes`` read and hashed
        this run or found trusted in the stat cache (what ``known_hash`` answers
        first), for the caller's loop to look up without a call per path."""
        return self._prefetched

    def _dir_inside(self, parent: str) -> bool:
        if parent not in self._dirs_inside and self._resolved_root is None:
            self._resolved_root = self.root.resolve()  # once per source, not per directory
        return dir_inside(self.root, parent, self._dirs_inside, self._resolved_root)

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
        self._read_keys.pop(path, None)  # its entry changes: ask the stat cache
        st = self._read_stat.pop(path, None)
        if st is not None:
            cache = self._cache()
            cache.record(path, st, file_hash, cache.stamp())

    def trusted_keys(self, paths: set[str]) -> dict[str, StatKey] | None:
        """Trusted stat keys of every path in ``paths`` (None if one has none): those
        this run's prefetch read and recorded as it recorded them, the others as
        the stat cache holds them."""
        if not self.use_stat_cache:
            return None
        known = self._read_keys
        rest = paths - known.keys()
        out = self._cache().trusted_keys(rest) if rest else {}
        if out is None:
            return None
        out.update((p, known[p]) for p in paths & known.keys())
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
