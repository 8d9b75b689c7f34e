"""A clean working-tree verdict, remembered with exactly what it depended on.

A working-tree check's verdict is a function of the ledger (the segment files
the index is synced from, and ``forest.toml``) and of the bound files' content.
When a whole check came out clean, this module records that verdict beside the
stat of every input; the next check whose inputs all still stat the same
repeats the verdict without opening SQLite, replaying, listing bindings or
reading a file — the way git's index spares ``git status`` from re-hashing.

Stores: ``.git/forest/verdict-<python tag>.bin`` (local, git-ignored), a
``marshal`` record written to a temporary file and renamed into place.
Refuses: nothing. A missing, corrupt, foreign-version or stale record is a
miss, and the caller runs the full check.
Returns: ``recall`` the number of bindings of the remembered clean verdict, or
None (run the check).
Test: tests/check/test_verdict.py, tests/check/test_verdict_linked_folder.py

Trust rules, the stat cache's (statcache.py): every input must be a regular
file whose (size, mtime_ns, ino, ctime_ns) are unchanged, and every mtime must
be strictly earlier than a filesystem stamp taken BEFORE the inputs were first
stat'ed and read (git's racy-clean rule). The ledger is keyed before the check
starts, so an act landing during a check makes the record stale, never wrong.
Only a clean verdict over every binding (no path filter) is remembered. A bound
file is keyed by its inode and ctime, so a directory swapped for a symlink, or
a file replaced by another, is a miss. The ledger's folders (``.forest``, the
ledger, ``segments``, ``bodies``) are keyed by their own ``lstat`` too: one made a
link is no key, and a body folder swapped for a link moves the mtime of ``bodies``,
so the next check judges (and refuses the link) instead of answering from memory.
Kept light on purpose: ``os`` and ``marshal`` only, so the hook and ``fastcheck`` pay
nothing for it.
"""

from __future__ import annotations

import os
import stat as stat_mod
import sys

from forest_files.kernel import cache
from forest_files.kernel.owners import owned_by_user
from forest_files.kernel.paths import (
    BODIES,
    CACHE_DIR,
    CONFIG_NAME,
    FOREST_DIR,
    LEDGER_DIR,
    SEGMENTS,
)
from forest_files.kernel.state import ensure_dir, worktree_path

StatKey = tuple[int, int, int, int]
_SEGMENTS = os.path.join(*LEDGER_DIR.split("/"), SEGMENTS)
# Each keyed by its own lstat, never through a link (custody/ledger_dirs.py refuses one
# there): a folder's mtime moves whenever an entry in it is made, removed or replaced,
# so a body folder swapped for a link by a pull changes the key of ``bodies``.
_FOLDERS = (FOREST_DIR, LEDGER_DIR, _SEGMENTS, os.path.join(*LEDGER_DIR.split("/"), BODIES))
_ABSENT: StatKey = (-1, -1, -1, -1)  # ``bodies`` before any adoption
FORMAT = 4  # 2: verdicts of checks that trusted the ledger's file hash are dropped;
# 3: a Python definition bound again later in its block no longer resolves (pysymbol.py);
# 4: the ledger's folders keyed by their own lstat (a segments folder read through a link)
_NAME = f"verdict-{sys.implementation.cache_tag}.bin"
_KIND = "verdict"

# (each segment's name and key, forest.toml's key, each ledger folder's own key)
LedgerKey = tuple[tuple[tuple[str, StatKey], ...], StatKey, tuple[StatKey, ...]]


def _key(st: os.stat_result) -> StatKey:
    return (st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns)


def record_path(root: str, *, create: bool = True) -> str:
    """Where the verdict is kept; ``create`` False for a reader, which makes nothing
    (before ``forest init`` a check writes nothing in the git directory)."""
    return os.path.join(worktree_path(root, create=create), CACHE_DIR, _NAME)


def ledger_key(root: str) -> LedgerKey | None:
    """Stat of every ledger segment, of ``forest.toml`` and of the ledger's folders
    (``lstat``: never through a link); None if one is not a file, or a folder not a
    folder."""
    items: list[tuple[str, StatKey]] = []
    folders = _folder_keys(root)
    if folders is None:
        return None
    try:
        with os.scandir(os.path.join(root, _SEGMENTS)) as entries:
            for entry in entries:
                st = entry.stat(follow_symlinks=False)
                if not stat_mod.S_ISREG(st.st_mode):
                    return None
                items.append((entry.name, _key(st)))
        st = os.lstat(os.path.join(root, CONFIG_NAME))
    except OSError:
        return None
    if not stat_mod.S_ISREG(st.st_mode):
        return None
    items.sort()
    return (tuple(items), _key(st), folders)


def _folder_keys(root: str) -> tuple[StatKey, ...] | None:
    """Each ledger folder's own ``lstat`` key (``bodies`` may be absent); None if one
    is a link, a file, or missing (no ledger to key)."""
    keys: list[StatKey] = []
    for rel in _FOLDERS:
        try:
            st = os.lstat(os.path.join(root, rel))
        except FileNotFoundError:
            if rel != _FOLDERS[-1]:
                return None
            keys.append(_ABSENT)
            continue
        except OSError:
            return None
        if not stat_mod.S_ISDIR(st.st_mode):
            return None
        keys.append(_key(st))
    return tuple(keys)


def ledger_trusted(ledger: LedgerKey | None, stamp: int) -> bool:
    """Every ledger input's mtime, its folders' too, is earlier than ``stamp`` (none
    racily clean)."""
    if ledger is None or stamp <= 0:
        return False
    segments, config, folders = ledger
    return all(k[1] < stamp for k in [*(k for _, k in segments), config, *folders])


def stamp(root: str) -> int:
    """A filesystem timestamp taken now: the mtime of a stamp file just written (0: none).
    None is written where nothing it dates can be remembered: the cache folder (this
    verdict, the contests) and the state folder (the binding map) this user may not
    write, so a read there leaves the stamp file it may still own as it was."""
    state = worktree_path(root)
    probe = os.path.join(state, CACHE_DIR, ".verdict-stamp")
    try:
        ensure_dir(os.path.dirname(probe))
        if not (os.access(os.path.dirname(probe), os.W_OK) or os.access(state, os.W_OK)):
            return 0
        cache.replace_atomically(probe, str(os.getpid()).encode("ascii"), mode=0o644)
        return os.stat(probe).st_mtime_ns
    except OSError:
        return 0


def quick_root(start: str) -> str | None:
    """The nearest directory at or above ``start`` holding ``.git``, without running git.

    None when ``GIT_DIR``/``GIT_WORK_TREE`` redirect git, or when another user owns the
    work tree or its git directory (kernel/owners.py: git opens it only if
    ``safe.directory`` names it): only git can answer then, and the light doors neither
    read nor write its state before git has.
    """
    if os.environ.get("GIT_DIR") or os.environ.get("GIT_WORK_TREE"):
        return None
    here = os.path.abspath(start)
    while True:
        dotgit = os.path.join(here, ".git")
        if os.path.exists(dotgit):
            return here if owned_by_user(here, dotgit) else None
        up = os.path.dirname(here)
        if up == here:
            return None
        here = up


def _version() -> str:
    from forest_files import __version__

    return __version__


def remember(
    root: str,
    ledger: LedgerKey | None,
    stamp: int,
    files: dict[str, StatKey],
    bindings: int,
) -> bool:
    """Record a clean verdict over ``bindings`` bindings whose files stat as ``files``.

    ``ledger`` is ``ledger_key`` taken after ``stamp`` and before the check began;
    ``files`` holds stat keys the stat cache trusts (each taken after its own stamp,
    with an earlier mtime). Nothing is recorded (and any old record is removed)
    unless every ledger input's mtime is earlier than ``stamp``.
    """
    path = record_path(root)
    if not ledger_trusted(ledger, stamp):
        forget(root)
        return False
    names = sorted(files)
    doc = (FORMAT, _version(), ledger, tuple(names), tuple(files[n] for n in names), bindings)
    return cache.write(path, _KIND, doc)


def forget(root: str) -> None:
    cache.forget(record_path(root, create=False))


def recall(root: str) -> int | None:
    """The binding count of the remembered clean verdict if every input is unchanged."""
    doc = cache.read(record_path(root, create=False), _KIND)
    if not isinstance(doc, tuple) or len(doc) != 6 or doc[0] != FORMAT:
        return None
    _, version, ledger, names, keys, bindings = doc
    if version != _version() or ledger is None or ledger != ledger_key(root):
        return None
    lstat = os.lstat
    is_reg = stat_mod.S_ISREG
    prefix = os.path.join(root, "")
    try:
        for name, key in zip(names, keys, strict=True):
            st = lstat(prefix + name)
            if (
                not is_reg(st.st_mode)
                or st.st_ino != key[2]
                or st.st_mtime_ns != key[1]
                or st.st_size != key[0]
                or st.st_ctime_ns != key[3]
            ):
                return None
    except (OSError, ValueError, TypeError, IndexError):
        return None
    return bindings if isinstance(bindings, int) else None
