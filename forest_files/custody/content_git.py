"""The git index or a commit's tree as a content source: blobs read in one batch.

What stands at each path comes from git's listing, here; the blobs' bytes and file
hashes from content_blobs.py.

Stores: blob file hashes in the blob hash cache (content_blobs.py, statcache.py, under
the git directory); nothing else.
Refuses: to read a symlink (120000) or submodule (160000) entry, or a conflicted
path (read as absent); ``special`` names what stands there instead.
Returns: bytes of a path's blob (None when it is not a regular file); ``read_unedited``:
those of several, each from the working tree where its file is that blob (no git asked);
``special``; ``variant`` of a missing path; the paths the tree holds; of the git
index, ``entries_at``: the entries (every stage) its own listing found at given paths,
so a hook's later readers (converted.py, conflicts.py) list the index no more;
``lists``: whether ``read`` answers for a path as a listing of it alone would;
``flags_at``: which paths the index is told to take as unchanged, from the same listing.
Test: tests/check/test_check.py, tests/custody/test_special_paths.py,
      tests/text/test_selector_rules.py, tests/custody/test_content_git_only.py,
      tests/check/test_staged_listed_once.py, tests/check/test_explain_reads_listing.py,
      tests/gate/test_ci_repeats.py, tests/doors/test_fastcheck.py
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from forest_files.custody.content_blobs import BlobReads
from forest_files.custody.content_read import path_variant
from forest_files.custody.special import git_mode_kind

if TYPE_CHECKING:
    from forest_files import gitio


@dataclass
class GitTreeSource:
    """The git index (``rev=None``) or a commit's tree: blobs read in one batch."""

    root: Path
    rev: str | None = None
    keep_index_file: bool = False
    name: str = "git index"
    # A few paths a hook judges: list just those (the index's, a commit's, in one call);
    # the whole tree only if asked (moved).
    only: tuple[str, ...] = ()
    _blobs: dict[str, str] = field(default_factory=dict)
    _special: dict[str, str] = field(default_factory=dict)  # path -> kind (symlink, …)
    _complete: bool = False
    _blobs_read: BlobReads | None = None  # the listed blobs' bytes and hashes (made by use)
    _dirs: set[str] | None = None  # every directory the listed blobs lie in (built once)
    _by_dir: dict[str, list[str]] | None = None  # listed paths by directory (variant)
    _listed: set[str] = field(default_factory=set)  # directories listed for variant
    _variants: dict[str, str | None] = field(default_factory=dict)  # path -> variant
    _raw: list[gitio.TreeEntry] = field(default_factory=list)  # the index's, every stage
    _exact: frozenset[str] = frozenset()  # paths whose own entries the index listing holds
    _flags: dict[str, str] = field(default_factory=dict)  # path -> index flag (ls-files -v)

    def __post_init__(self) -> None:
        if self.rev is not None:
            self.name = f"commit {self.rev}"
        if self.only and len(self.only) <= 20:
            if self.rev is None and all(p and p[-1] != "/" for p in self.only):  # one listing
                self._take(self._list_only())
                self._exact = frozenset(self.only)
            elif self.rev is not None:  # a commit's tree: one ls-tree for them all
                from forest_files import gitio

                for entries in gitio.ls_tree_each(self.root, self.rev, self.only):
                    self._take(entries)
            else:
                for path in self.only:
                    self._take(self._list(path))
        else:
            self._take(self._list(""))
            self._complete = True

    def _list(self, prefix: str) -> list[gitio.TreeEntry]:
        from forest_files import gitio  # imported by use: a working-tree check needs no git

        if self.rev is None:
            return self._flagged(
                gitio.ls_files_flagged(self.root, prefix, keep_index_file=self.keep_index_file)
            )
        return gitio.ls_tree(self.root, self.rev, prefix)

    def _flagged(
        self, listed: tuple[list[gitio.TreeEntry], dict[str, str]]
    ) -> list[gitio.TreeEntry]:
        self._flags.update(listed[1])
        return listed[0]

    def _list_only(self) -> list[gitio.TreeEntry]:
        """The index's entries at or under each ``only`` path, from one ``git ls-files``,
        in the order one listing per path gives them (a variant is looked for in it)."""
        from forest_files import gitio

        asked = set(self.only)
        under: dict[str, list[gitio.TreeEntry]] = {path: [] for path in asked}
        listed = gitio.ls_files_flagged(
            self.root, keep_index_file=self.keep_index_file, paths=self.only
        )
        for e in self._flagged(listed):
            cut = len(e.path)
            while cut > 0:  # the entry's path, then each folder it lies in, that was asked
                if e.path[:cut] in asked:
                    under[e.path[:cut]].append(e)
                cut = e.path.rfind("/", 0, cut)
        return [e for path in self.only for e in under[path]]

    def _take(self, entries: list[gitio.TreeEntry]) -> None:
        self._dirs = None
        self._by_dir = None
        if self.rev is None:
            self._raw += entries  # kept for ``entries_at``: stages, gitlinks and all
        for e in entries:
            if e.stage != 0:
                continue  # a conflicted path holds no one content: read as absent
            kind = git_mode_kind(e.mode)
            if kind is None:
                self._blobs[e.path] = e.blob
            else:
                self._special[e.path] = kind

    def entries_at(self, paths: Iterable[str]) -> list[gitio.TreeEntry] | None:
        """The git index's entries at exactly ``paths`` (each stage of an unmerged one,
        symlinks and gitlinks too), as this source's listing found them; None for a
        commit's tree, or when some path was not listed (the asker lists it itself).
        The index is the one this source read (``keep_index_file``)."""
        wanted = set(paths)
        if self.rev is not None or not (self._complete or wanted <= self._exact):
            return None
        seen: set[tuple[str, int]] = set()  # a directory listed again (variant) repeats some
        out: list[gitio.TreeEntry] = []
        for e in self._raw:
            if e.path in wanted and (e.path, e.stage) not in seen:
                seen.add((e.path, e.stage))
                out.append(e)
        return out

    def flags_at(self, paths: Iterable[str]) -> dict[str, str] | None:
        """Which of ``paths`` the git index is told to take as unchanged, each with its
        flag, as gitio ``taken_as_unchanged`` says it, from this source's own listing;
        None for a commit's tree, or when some path was not listed (the asker asks git)."""
        wanted = set(paths)
        if self.rev is not None or not (self._complete or wanted <= self._exact):
            return None
        return {p: flag for p, flag in self._flags.items() if p in wanted}

    def lists(self, path: str) -> bool:
        """This source's listing says what stands at ``path`` (``read`` answers as a
        listing of ``path`` alone would): the whole index or tree, or a path it was
        made for."""
        return self._complete or path in self._exact

    def listed(self, prefix: str) -> list[tuple[str, str | None]] | None:
        """(path, non-regular kind or None) of every listed path at or under
        ``prefix`` (a directory, no slash); None when only some paths were listed."""
        if not self._complete:
            return None
        inside = prefix + "/"
        out: list[tuple[str, str | None]] = [
            (p, None) for p in self._blobs if p == prefix or p.startswith(inside)
        ]
        out += [(p, k) for p, k in self._special.items() if p == prefix or p.startswith(inside)]
        return out

    def named(self, name: str) -> list[str] | None:
        """Every listed regular file called ``name``, at the top or in any directory;
        None when only some paths were listed."""
        if not self._complete:
            return None
        tail = "/" + name
        return [p for p in self._blobs if p == name or p.endswith(tail)]

    def _reads(self) -> BlobReads:
        if self._blobs_read is None:
            self._blobs_read = BlobReads(self.root)
        return self._blobs_read

    def known_hash(self, path: str) -> str | None:
        """The normalised file hash of ``path``'s blob, when this machine computed it."""
        blob = self._blobs.get(path)
        return None if blob is None else self._reads().known_hash(blob)

    def remember(self, path: str, file_hash: str | None) -> None:
        """Record ``file_hash`` for the blob ``read(path)`` returned."""
        blob = self._blobs.get(path)
        if blob is not None:
            self._reads().remember(blob, file_hash)

    def save_cache(self) -> None:
        if self._blobs_read is not None:
            self._blobs_read.save()

    def read(self, path: str) -> bytes | None:
        blob = self._blobs.get(path)
        return None if blob is None else self._reads().read(blob)

    def read_unedited(self, paths: Iterable[str]) -> dict[str, bytes]:
        """The blobs of the regular files ``paths`` name here: each from the working
        tree's file when its bytes are that blob, the rest in one ``git cat-file``
        (content_blobs.py)."""
        blobs = {p: self._blobs[p] for p in paths if p in self._blobs}
        return self._reads().read_unedited(blobs)

    def special(self, path: str) -> str | None:
        kind = self._special.get(path)
        if kind is None and path not in self._blobs:
            if self._dirs is None:  # a tree where the file was: files listed under it
                self._dirs = _directories(self._blobs)
            if path in self._dirs:
                return "directory"
        return kind

    def variant(self, path: str) -> str | None:
        """For a missing ``path``: how a path git records in the same directory
        differs from it only in Unicode normalisation or letter case; None if none.
        Asked once per path: every binding of a missing file asks the same."""
        if path in self._variants:
            return self._variants[path]
        parent = path.rpartition("/")[0]
        if not self._complete and parent not in self._listed:  # a hook listed its paths only
            self._take(self._list(parent + "/" if parent else ""))
            self._listed.add(parent)
            self._complete = not parent
        if self._by_dir is None:  # one grouping of every listed path per run
            self._by_dir = {}
            for p in self._blobs:
                self._by_dir.setdefault(p.rpartition("/")[0], []).append(p)
        found = self._variants[path] = path_variant(path, self._by_dir.get(parent, ()))
        return found

    def prefetch(self, paths: list[str], *, known_too: bool = False) -> None:
        """Read these paths' blobs in one ``git cat-file --batch``; blobs read by an
        earlier prefetch are let go (a check holds one batch at a time). A blob whose
        file hash is known is skipped (a check needs no bytes for it) unless
        ``known_too`` (the moved search parses every candidate)."""
        wanted = [self._blobs[p] for p in paths if p in self._blobs]
        self._reads().prefetch(wanted, known_too=known_too)

    def paths(self) -> list[str]:
        if not self._complete:
            self._take(self._list(""))
            self._complete = True
        return sorted(self._blobs)


def _directories(paths: Iterable[str]) -> set[str]:
    """Every directory that holds one of ``paths``, at any depth. Each path climbs
    only until it meets a directory already found (its parents are found too)."""
    dirs: set[str] = set()
    for path in paths:
        cut = path.rfind("/")
        while cut >= 0:
            parent = path[:cut]
            if parent in dirs:
                break
            dirs.add(parent)
            cut = path.rfind("/", 0, cut)
    return dirs
