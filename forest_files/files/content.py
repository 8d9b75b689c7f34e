"""Content sources: the bytes a check judges — working tree, the git index, a commit.

Stores: nothing.
Refuses: a working-tree path whose symlink leads outside the repository
(read as absent, and named by ``escapes``).
Returns: raw bytes of a repository-relative path (None when absent), and the
list of paths a source holds (for the ``moved`` search).
Test: tests/test_check.py
"""

from __future__ import annotations

import os
import stat as stat_mod
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from forest_files.files.statcache import StatCache

if TYPE_CHECKING:
    from forest_files import gitio

# Open for reading without following a final symlink (refused with ELOOP, then
# handled by ``_open_slow``). Without O_NOFOLLOW (Windows) every path takes the
# lstat-first ``_open_slow``. O_NONBLOCK: a FIFO put where a bound file was must
# not block the open (its fstat then says it is not a regular file); it changes
# nothing for a regular file.
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_READ_NOFOLLOW = os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)


class ContentSource(Protocol):
    name: str

    def read(self, path: str) -> bytes | None: ...

    def paths(self) -> list[str]: ...


def escapes(root: Path, path: str) -> bool:
    """True when ``root/path`` resolves (through symlinks) outside ``root``."""
    target = (root / path).resolve()
    return not target.is_relative_to(root.resolve())


def dir_inside(root: Path, parent: str, memo: dict[str, bool]) -> bool:
    """``parent`` (repository-relative) resolves inside ``root``; memoised in ``memo``
    so a regular file in it costs one ``lstat``, not a walk of every component."""
    inside = memo.get(parent)
    if inside is None:
        inside = memo[parent] = not escapes(root, parent or ".")
    return inside


@dataclass
class WorktreeSource:
    """The working tree; with ``use_stat_cache`` a check learns file hashes from
    ``.forest/cache`` (statcache.py) instead of reading unchanged files."""

    root: Path
    name: str = "working tree"
    use_stat_cache: bool = True
    _stats: StatCache | None = None
    _read_stat: dict[str, os.stat_result] = field(default_factory=dict)
    _dirs_inside: dict[str, bool] = field(default_factory=dict)
    _prefetched: dict[str, str] = field(default_factory=dict)

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
        if not _NOFOLLOW:
            return self._open_slow(path, full)
        try:
            fd = os.open(full, _READ_NOFOLLOW)
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
        """``_open`` by ``lstat`` first: a symlink is followed only to a file inside
        the tree (and never stat-cached)."""
        try:
            st = os.lstat(full)
        except OSError:
            return None
        if stat_mod.S_ISLNK(st.st_mode):
            if escapes(self.root, path) or not os.path.isfile(full):
                return None
        elif not stat_mod.S_ISREG(st.st_mode) or not self._dir_inside(path.rpartition("/")[0]):
            return None
        try:
            with open(full, "rb") as fh:
                return st, fh.read()
        except OSError:
            return None

    def prefetch_hashes(self, paths: list[str]) -> None:
        """Learn the file hash of every path the stat cache cannot answer yet, in one
        tight loop (no per-binding work in between), so the checks that follow find
        them without a second ``lstat``. (Threads were measured slower on 2 cores.)"""
        if not self.use_stat_cache:
            return
        from forest_files.files.normalise import normalised_hash

        cache = self._cache()
        stamp = cache.stamp()  # before any of these stats and reads
        record = cache.record
        prefetched = self._prefetched
        for path in dict.fromkeys(paths):
            if self.known_hash(path) is not None:
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
        from forest_files.gitio._run import split_z

        proc = gitio.run_git(
            self.root, ["ls-files", "-z", "--cached", "--others", "--exclude-standard"]
        )
        return sorted(set(split_z(proc.stdout)))


@dataclass
class GitTreeSource:
    """The git index (``rev=None``) or a commit's tree: blobs read in one batch."""

    root: Path
    rev: str | None = None
    keep_index_file: bool = False
    name: str = "git index"
    # A few paths a hook judges: list just those; the whole tree only if asked (moved).
    only: tuple[str, ...] = ()
    _blobs: dict[str, str] = field(default_factory=dict)
    _cache: dict[str, bytes] = field(default_factory=dict)
    _complete: bool = False

    def __post_init__(self) -> None:
        if self.rev is not None:
            self.name = f"commit {self.rev}"
        if self.only and len(self.only) <= 20:
            for path in self.only:
                self._take(self._list(path))
        else:
            self._take(self._list(""))
            self._complete = True

    def _list(self, prefix: str) -> list[gitio.TreeEntry]:
        from forest_files import gitio  # imported by use: a working-tree check needs no git

        if self.rev is None:
            return gitio.ls_files_stage(self.root, prefix, keep_index_file=self.keep_index_file)
        return gitio.ls_tree(self.root, self.rev, prefix)

    def _take(self, entries: list[gitio.TreeEntry]) -> None:
        from forest_files.gitio import SUBMODULE_MODE

        self._blobs.update(
            (e.path, e.blob) for e in entries if e.mode != SUBMODULE_MODE and e.stage == 0
        )

    def read(self, path: str) -> bytes | None:
        blob = self._blobs.get(path)
        if blob is None:
            return None
        if blob not in self._cache:
            from forest_files.gitio import cat_blobs

            self._cache.update(cat_blobs(self.root, [blob]))
        return self._cache[blob]

    def prefetch(self, paths: list[str]) -> None:
        """Read these paths' blobs in one ``git cat-file --batch``; blobs read by an
        earlier prefetch are let go (a check holds one batch at a time)."""
        wanted = [self._blobs[p] for p in paths if p in self._blobs]
        keep = {b: self._cache[b] for b in wanted if b in self._cache}
        missing = [b for b in wanted if b not in keep]
        self._cache = keep
        if missing:
            from forest_files.gitio import cat_blobs

            self._cache.update(cat_blobs(self.root, missing))

    def paths(self) -> list[str]:
        if not self._complete:
            self._take(self._list(""))
            self._complete = True
        return sorted(self._blobs)
