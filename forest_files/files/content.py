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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from forest_files import gitio
from forest_files.files.statcache import StatCache


class ContentSource(Protocol):
    name: str

    def read(self, path: str) -> bytes | None: ...

    def paths(self) -> list[str]: ...


def escapes(root: Path, path: str) -> bool:
    """True when ``root/path`` resolves (through symlinks) outside ``root``."""
    target = (root / path).resolve()
    return not target.is_relative_to(root.resolve())


@dataclass
class WorktreeSource:
    """The working tree; with ``use_stat_cache`` a check learns file hashes from
    ``.forest/cache/stat.json`` (statcache.py) instead of reading unchanged files."""

    root: Path
    name: str = "working tree"
    use_stat_cache: bool = True
    _stats: StatCache | None = None
    _read_stat: dict[str, os.stat_result] = field(default_factory=dict)
    _dirs_inside: dict[str, bool] = field(default_factory=dict)

    def _cache(self) -> StatCache:
        if self._stats is None:
            self._stats = StatCache(self.root)
        return self._stats

    def read(self, path: str) -> bytes | None:
        full = self.root / path
        if escapes(self.root, path) or not full.is_file():
            return None
        if not self.use_stat_cache:
            return full.read_bytes()
        self._cache().stamp()  # the racy-clean stamp precedes the stat and the read
        st = os.lstat(full)
        data = full.read_bytes()
        self._read_stat[path] = st
        return data

    def known_hash(self, path: str) -> str | None:
        """The normalised file hash of ``path`` when its stat is cached and trusted."""
        if not self.use_stat_cache:
            return None
        parent = os.path.dirname(path)
        inside = self._dirs_inside.get(parent)
        if inside is None:  # a regular file inside a directory inside root: no escape
            inside = self._dirs_inside[parent] = not escapes(self.root, parent or ".")
        return self._cache().hash_of(path) if inside else None

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
        if self.rev is None:
            return gitio.ls_files_stage(self.root, prefix, keep_index_file=self.keep_index_file)
        return gitio.ls_tree(self.root, self.rev, prefix)

    def _take(self, entries: list[gitio.TreeEntry]) -> None:
        self._blobs.update(
            (e.path, e.blob) for e in entries if e.mode != gitio.SUBMODULE_MODE and e.stage == 0
        )

    def read(self, path: str) -> bytes | None:
        blob = self._blobs.get(path)
        if blob is None:
            return None
        if blob not in self._cache:
            self._cache.update(gitio.cat_blobs(self.root, [blob]))
        return self._cache[blob]

    def prefetch(self, paths: list[str]) -> None:
        wanted = [self._blobs[p] for p in paths if p in self._blobs]
        missing = [b for b in wanted if b not in self._cache]
        if missing:
            self._cache.update(gitio.cat_blobs(self.root, missing))

    def paths(self) -> list[str]:
        if not self._complete:
            self._take(self._list(""))
            self._complete = True
        return sorted(self._blobs)
