"""Content sources: the bytes a check judges — working tree, the git index, a commit.

Stores: nothing.
Refuses: a working-tree path whose symlink leads outside the repository
(read as absent, and named by ``escapes``).
Returns: raw bytes of a repository-relative path (None when absent), and the
list of paths a source holds (for the ``moved`` search).
Test: tests/test_check.py
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from forest_files import gitio


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
    root: Path
    name: str = "working tree"

    def read(self, path: str) -> bytes | None:
        full = self.root / path
        if escapes(self.root, path) or not full.is_file():
            return None
        return full.read_bytes()

    def paths(self) -> list[str]:
        return [e.path for e in gitio.ls_files_stage(self.root) if e.stage == 0]


@dataclass
class GitTreeSource:
    """The git index (``rev=None``) or a commit's tree: blobs read in one batch."""

    root: Path
    rev: str | None = None
    keep_index_file: bool = False
    name: str = "git index"
    _blobs: dict[str, str] = field(default_factory=dict)
    _cache: dict[str, bytes] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.rev is None:
            entries = gitio.ls_files_stage(self.root, keep_index_file=self.keep_index_file)
        else:
            self.name = f"commit {self.rev}"
            entries = gitio.ls_tree(self.root, self.rev)
        self._blobs = {
            e.path: e.blob for e in entries if e.mode != gitio.SUBMODULE_MODE and e.stage == 0
        }

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
        return sorted(self._blobs)
