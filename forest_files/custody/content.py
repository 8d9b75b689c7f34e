"""Content sources: the bytes a check judges — working tree, the git index, a commit.

Stores: nothing.
Refuses: to read anything but a regular file (special.py's one rule): a
symlink, directory, FIFO or device in the working tree, a symlink (120000) or
submodule (160000) entry in the git index or a commit, and a working-tree file
whose directory resolves outside the repository (named by ``escapes``).
Returns: raw bytes of a repository-relative regular file (None when it is not
one); ``special(path)``, the kind of what stands there instead (None when
nothing does: the file is missing); the list of paths a source holds (for the
``moved`` search). Paths are compared exactly as git records them: when a bound
path is missing but a name differing from it only in Unicode normalisation
(NFC/NFD) or letter case stands in its directory, a source's ``variant(path)``
says so (``path_variant``) for the finding's detail — it is not the bound path
to git, and it is never read as if it were. That search runs only when asked
about a missing path, so a clean check pays nothing for it.
Test: tests/check/test_check.py, tests/custody/test_special_paths.py,
      tests/text/test_selector_rules.py
"""

from __future__ import annotations

import os
import stat as stat_mod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from forest_files.custody.special import git_mode_kind, lstat_kind
from forest_files.custody.statcache import BlobHashCache, StatCache, StatKey

if TYPE_CHECKING:
    from forest_files import gitio

# Open for reading without following a final symlink (refused with ELOOP, then
# handled by ``_open_slow``). Without O_NOFOLLOW (Windows) every path takes the
# lstat-first ``_open_slow``. O_NONBLOCK: a FIFO put where a bound file was must
# not block the open (its fstat then says it is not a regular file); it changes
# nothing for a regular file.
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_READ_NOFOLLOW = os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)


def path_variant(path: str, names: Iterable[str]) -> str | None:
    """How one of ``names`` (full repository-relative paths) differs from ``path``
    when it is the same name but for Unicode normalisation or letter case, as a
    clause for a finding or refusal; None when none is."""
    import unicodedata  # only for a path that is missing

    def nfc(text: str) -> str:
        return unicodedata.normalize("NFC", text)

    want = nfc(path)
    folded = want.casefold()
    for other in names:
        if other == path:
            continue
        got = nfc(other)
        if got == want:
            form = "NFD" if unicodedata.normalize("NFD", other) == other else "not NFC"
            return (
                f"only {other!r} ({other!a}) stands there: the same name in another "
                f"Unicode normalisation ({form}), a different path to git"
            )
        if got.casefold() == folded:
            return (
                f"only {other!r} stands there: it differs in letter case only (a case-only "
                "rename), a different path to git"
            )
    return None


def read_regular(full: str) -> bytes | None:
    """The bytes of the regular file at ``full``; None when it is anything else (a
    symlink is not followed, a FIFO does not block) or cannot be read."""
    try:
        fd = os.open(full, _READ_NOFOLLOW)
    except OSError:
        return None
    try:
        if not stat_mod.S_ISREG(os.fstat(fd).st_mode):
            return None
        parts = []
        while chunk := os.read(fd, 1 << 20):
            parts.append(chunk)
        return b"".join(parts)
    except OSError:
        return None
    finally:
        os.close(fd)


class ContentSource(Protocol):
    name: str

    def read(self, path: str) -> bytes | None: ...

    def special(self, path: str) -> str | None:
        """What stands at ``path`` when ``read`` found no regular file there
        (``symlink``, ``directory``, ``fifo``, ``submodule``…); None when nothing does."""
        ...

    def paths(self) -> list[str]: ...

    def variant(self, path: str) -> str | None:
        """For a missing ``path``: a same-but-for-normalisation-or-case name there."""
        ...


def _open_dir(root: Path) -> int | None:
    """A descriptor of the directory ``root`` to open paths under, or None where the
    system opens no path relative to one (then each path is joined to ``root``)."""
    if os.open not in os.supports_dir_fd:
        return None
    try:
        return os.open(root, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return None


def escapes(root: Path, path: str, resolved_root: Path | None = None) -> bool:
    """True when ``root/path`` resolves (through symlinks) outside ``root``
    (``resolved_root``: ``root.resolve()`` when the caller holds it already)."""
    target = (root / path).resolve()
    return not target.is_relative_to(root.resolve() if resolved_root is None else resolved_root)


def dir_inside(
    root: Path, parent: str, memo: dict[str, bool], resolved_root: Path | None = None
) -> bool:
    """``parent`` (repository-relative) resolves inside ``root``; memoised in ``memo``
    so a regular file in it costs one ``lstat``, not a walk of every component."""
    inside = memo.get(parent)
    if inside is None:
        inside = memo[parent] = not escapes(root, parent or ".", resolved_root)
    return inside


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
        if not _NOFOLLOW:
            return self._open_slow(path, os.path.join(self.root, path))
        try:
            if dir_fd is None:
                fd = os.open(os.path.join(self.root, path), _READ_NOFOLLOW)
            else:
                fd = os.open(path, _READ_NOFOLLOW, dir_fd=dir_fd)
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
        root_fd = _open_dir(self.root)
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
    _special: dict[str, str] = field(default_factory=dict)  # path -> kind (symlink, …)
    _cache: dict[str, bytes] = field(default_factory=dict)
    _complete: bool = False
    _hashes: BlobHashCache | None = None  # blob id -> file hash, computed here (statcache.py)
    _dirs: set[str] | None = None  # every directory the listed blobs lie in (built once)
    _by_dir: dict[str, list[str]] | None = None  # listed paths by directory (variant)
    _listed: set[str] = field(default_factory=set)  # directories listed for variant
    _variants: dict[str, str | None] = field(default_factory=dict)  # path -> variant

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
        self._dirs = None
        self._by_dir = None
        for e in entries:
            if e.stage != 0:
                continue  # a conflicted path holds no one content: read as absent
            kind = git_mode_kind(e.mode)
            if kind is None:
                self._blobs[e.path] = e.blob
            else:
                self._special[e.path] = kind

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

    def _blob_hashes(self) -> BlobHashCache:
        if self._hashes is None:
            self._hashes = BlobHashCache(self.root)
        return self._hashes

    def known_hash(self, path: str) -> str | None:
        """The normalised file hash of ``path``'s blob, when this machine computed it."""
        blob = self._blobs.get(path)
        return None if blob is None else self._blob_hashes().get(blob)

    def remember(self, path: str, file_hash: str | None) -> None:
        """Record ``file_hash`` for the blob ``read(path)`` returned."""
        blob = self._blobs.get(path)
        if blob is not None:
            self._blob_hashes().put(blob, file_hash)

    def save_cache(self) -> None:
        if self._hashes is not None:
            self._hashes.save()

    def read(self, path: str) -> bytes | None:
        blob = self._blobs.get(path)
        if blob is None:
            return None
        if blob not in self._cache:
            from forest_files.gitio import cat_blobs

            self._cache.update(cat_blobs(self.root, [blob]))
        return self._cache[blob]

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
        if not known_too:
            hashes = self._blob_hashes()
            wanted = [b for b in wanted if hashes.get(b) is None]  # known: no read needed
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
