"""Every path forest-files keeps inside a repository, named once.

Stores: nothing (names, and folders opened by descriptor; standard library, so the
hook's fast path may import it for nothing).
Refuses: nothing.
Returns: repository-relative names, with ``/`` separators; ``state_git_dir`` (the git
directory a state path lies in); ``open_below``, a folder under a git directory opened
with no link followed (the one walk of kernel/handover.py and, through ``open_folder``,
of kernel/held.py's held folders); ``through_folder``, the name root opens a state file by
(SQLite's databases) through that folder's descriptor; ``name_in``, that name through
a descriptor the caller holds (a view being built: custody/viewbuild.py).
Test: tests/kernel/test_paths.py
"""

from __future__ import annotations

import os

CONFIG_NAME = "forest.toml"  # at the repository's root: custody's settings, governed
FOREST_DIR = ".forest"
LEDGER_DIR = f"{FOREST_DIR}/ledger"  # committed: segments and bodies
LEDGER_PREFIX = f"{LEDGER_DIR}/"
SEGMENTS = "segments"  # under LEDGER_DIR
BODIES = "bodies"  # under LEDGER_DIR
# Local state: names under the state directories of kernel/state.py, which live in
# the git directory (never in the work tree, never transferred by git).
STATE_NAME = "forest"  # the state directories: <git-dir>/forest, <git-common-dir>/forest
# Per worktree (``<git-dir>/forest``): follows the checked-out branch.
INDEX_NAME = "woods.db"  # the local index, a cache of the ledger
VIEWS_DIR = "views"  # cached custody views of other sources
CACHE_DIR = "cache"  # stat, parse and blob caches; remembered verdicts
TMP_DIR = "tmp"  # every ledger file is written here first, then renamed in
WATCH_PID = "watch.pid"  # the running watcher's pid (advice; the lock decides)
WATCH_LOCK = "watch.lock"  # flock held for a watcher's lifetime
WATCH_LOG = "watch.log"  # rotating; paths, selectors, hashes — never text
WATCH_STATE = "watch.json"  # what `forest watch status` shows
OWED_DIR = "audit-owed"  # audit records a killed recording owes: act ids, never a body
# Shared by every worktree of a clone (``<git-common-dir>/forest``).
LOCAL_DB_NAME = "local.db"  # proposals: kept across rebuild
AUDIT_DB_NAME = "audit.db"  # the audit log: append-only, kept across rebuild
CAPTURES_DIR = "captures"  # what restore and the watcher captured before writing
PURGE_DIR = "purge-pending"  # a forget's purge, resumable
CRASH_DIR = "crash"  # internal errors' logs
MAC_KEY_NAME = "mac.key"  # the cache MAC key: random, created on first use

# Where older forest-files kept local state inside the work tree (.forest/);
# moved once by kernel/relocate.py, never read.
LEGACY_INDEX = f"{FOREST_DIR}/{INDEX_NAME}"
LEGACY_CACHE = f"{FOREST_DIR}/cache"
LEGACY_LOCAL_DB = f"{FOREST_DIR}/{LOCAL_DB_NAME}"
LEGACY_AUDIT_DB = f"{FOREST_DIR}/{AUDIT_DB_NAME}"
LEGACY_CAPTURES = f"{LEGACY_CACHE}/captures"


def state_git_dir(path: str) -> str | None:
    """The git directory whose state directory (``<git-dir>/forest``) holds ``path``,
    by name alone (``os.path``: nothing is read); None for a path in none."""
    probe = os.path.abspath(path)
    while os.path.basename(probe) != STATE_NAME:
        parent = os.path.dirname(probe)
        if parent == probe:
            return None
        probe = parent
    return os.path.dirname(probe)


def state_parts(path: str) -> tuple[str, list[str]] | None:
    """``(git_dir, names)``: the git directory whose state directory holds ``path`` and
    the names from it down to ``path`` (``forest`` first); None for a path in none."""
    git_dir = state_git_dir(path)
    if git_dir is None:
        return None
    return git_dir, os.path.relpath(os.path.abspath(path), git_dir).split(os.sep)


def open_below(git_dir: str, folders: list[str]) -> tuple[int, os.stat_result]:
    """A descriptor of the folder ``folders`` name under ``git_dir``, each opened from the
    one above it with ``O_NOFOLLOW|O_DIRECTORY`` (OSError for a link or no folder on the
    way: one the owner of ``git_dir`` swapped in is never followed), and ``git_dir``'s
    stat (its owner). The caller closes the descriptor."""
    flags = os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(git_dir, flags)
    try:
        top = os.fstat(fd)
        for folder in folders:
            below = os.open(folder, flags | os.O_NOFOLLOW, dir_fd=fd)
            os.close(fd)
            fd = below
    except BaseException:
        os.close(fd)
        raise
    return fd, top


def open_folder(folder: str) -> int:
    """A descriptor of ``folder``; in a state directory, opened from its git directory
    with no link followed (``open_below``)."""
    parts = state_parts(folder)
    if parts is None or not os.path.isfile(os.path.join(parts[0], "HEAD")):
        # in no state directory, or a folder named forest elsewhere (a report's)
        return os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    return open_below(*parts)[0]


# Linux names each open descriptor here; a name below one resolves through the folder
# open at it, whatever its path leads to now (a magic link).
PROC_FD = "/proc/self/fd"
_by_fd: list[bool] = []  # [root on a system with PROC_FD], asked once per process


def through_folder(path: str) -> tuple[str, int | None]:
    """The name to open ``path`` by, and the descriptor it goes through (closed by the
    caller once the file is open). As root where ``PROC_FD`` names open folders, for a
    file in a state directory: ``/proc/self/fd/N/NAME``, ``N`` its folder opened from the
    git directory with no link followed (``open_folder``; OSError for a link on the
    way), so a folder its owner swapped for a link after it was checked never leads the
    open elsewhere. Else ``path`` itself and None: another user's own files, by path."""
    folder, name = os.path.split(os.path.abspath(path))
    if not _root_by_fd() or state_parts(folder) is None:
        return path, None  # in no state directory (a library caller's, a temporary one)
    fd = open_folder(folder)
    return f"{PROC_FD}/{fd}/{name}", fd


def name_in(at: int, path: str) -> str:
    """The name to open ``path`` by, its folder open at ``at`` (``open_folder``) for as
    long as the file is used: as ``through_folder`` names it (``/proc/self/fd/N/NAME``
    as root in a state directory, else ``path``), through ``at`` held by the caller."""
    folder, name = os.path.split(os.path.abspath(path))
    if not _root_by_fd() or state_parts(folder) is None:
        return path
    return f"{PROC_FD}/{at}/{name}"


def _root_by_fd() -> bool:
    if not _by_fd:
        _by_fd.append(hasattr(os, "geteuid") and os.geteuid() == 0 and os.path.isdir(PROC_FD))
    return _by_fd[0]


def segment_file(stem: str) -> str:
    """The committed file of the segment named ``stem`` (its sha256)."""
    return f"{LEDGER_DIR}/{SEGMENTS}/{stem}.jsonl"


# What ``forest init`` writes to .gitattributes: git stores and checks out ledger files
# byte for byte (no line-end conversion, clean/smudge filter such as LFS, $Id$
# expansion or re-encoding), whatever a broader rule above says; their names are the
# SHA-256 of their bytes.
GITATTRIBUTES_LINE = f"{LEDGER_DIR}/** -text -filter -ident -working-tree-encoding"
# .forest/.gitignore: nothing but the ledger belongs in .forest/; the lines keep an
# older forest-files' local files (which lived here) out of commits.
GITIGNORE_LINES = (f"{INDEX_NAME}*", "cache/", f"{LOCAL_DB_NAME}*", f"{AUDIT_DB_NAME}*")
