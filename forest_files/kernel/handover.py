"""Root's new state in a repository another user owns, given to that user.

Root opens a repository whose git directory another user owns when ``safe.directory``
names it, or under ``sudo`` when the ``SUDO_UID`` sudo exported owns it (git's rule,
kernel/owners.py). What forest-files then made in that user's ``.git/forest`` was
root's (the folder itself ``0700``, ``mac.key``, the index, the records ``0600``), and
locked the owner out of their own state: every later command of theirs refused
("another user owns it"), or without its caches. Each file and folder root creates
there is now given to the owner of the git directory (its uid and gid), on the
descriptor it was created on, before it is renamed into place; a hard link planted
there (any file of root's, it may be) is never given away, nor anything not root's.
The owner of ``.git/forest`` may swap a folder for a symlink, or plant one at the
name, between root's making a file and its hand-over: what is given is found at its
name again by a walk from the git directory that follows no link (``O_NOFOLLOW`` at
each folder), the same inode as the descriptor's, or nothing is given.

Stores: the owner of what it is handed (as root only; a no-op for every other user).
Refuses: nothing (a hand-over the system refuses, a filesystem that keeps root's files
root's, leaves the file root's, as before).
Returns: nothing.
Test: tests/doors/test_state_of_another_owner.py, tests/doors/test_hostile_owner_state.py
"""

from __future__ import annotations

import os
import stat

from forest_files.kernel.paths import open_below, open_folder, state_git_dir, state_parts


def hand_over(fd: int, path: str) -> None:
    """Give the file or folder open at ``fd``, just created at ``path`` inside a state
    directory (``<git-dir>/forest``), to the owner of that git directory, when root
    created it and another user owns the git directory; else leave it. Only root's own
    new inode is handed over: a folder, or a file with no other link (a hard link
    planted there might be any file of root's, and is never given away)."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return
    if _state_owner(path) is None:
        return
    try:
        made = os.fstat(fd)
        if made.st_uid != 0 or not (stat.S_ISDIR(made.st_mode) or made.st_nlink == 1):
            return
        owner = _owner_where_found(made, path)
        if owner is not None:
            os.fchown(fd, *owner)
    except OSError:  # a filesystem that keeps root's files root's (root_squash)
        pass


def _owner_where_found(made: os.stat_result, path: str) -> tuple[int, int] | None:
    """(uid, gid) of the git directory holding ``path`` when ``made`` (the inode open to
    be handed over) is what ``path`` names in it, reached from that git directory with
    no link followed (a folder swapped for one, a link at the name: None); None too
    when root owns the git directory so reached."""
    parts = state_parts(path)
    if parts is None:
        return None
    *folders, name = parts[1]
    fd, top = open_below(parts[0], folders)
    try:
        found = os.stat(name, dir_fd=fd, follow_symlinks=False)
    finally:
        os.close(fd)
    if (found.st_dev, found.st_ino) != (made.st_dev, made.st_ino) or top.st_uid == 0:
        return None
    return top.st_uid, top.st_gid


def hand_over_path(path: str, dir_fd: int | None = None) -> None:
    """``hand_over`` for the file or folder just made at ``path`` and closed (opened
    without following a link, never blocking on a FIFO: anything put there since is
    another user's and left alone); with ``dir_fd``, opened by its name in the folder
    open there (its folder, held by the caller)."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0)
    name = path if dir_fd is None else os.path.basename(path)
    try:
        fd = os.open(name, flags | getattr(os, "O_CLOEXEC", 0), dir_fd=dir_fd)
    except OSError:
        return
    try:
        hand_over(fd, path)
    finally:
        os.close(fd)


def create_for_owner(path: str) -> None:
    """As root in a git directory another user owns, the file at ``path`` made empty
    (where absent) and handed over, for what creates it by name next: SQLite, which
    makes a database's ``-wal``, ``-shm`` and ``-journal`` its owner's when root makes
    them. Elsewhere, and where ``path`` exists, nothing. Made in its folder opened from
    the git directory with no link followed (a folder swapped for a link: nothing)."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0 or _state_owner(path) is None:
        return
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        at = open_folder(os.path.dirname(os.path.abspath(path)))
    except OSError:  # a link on the way: what opens it next refuses it
        return
    try:
        name = os.path.basename(path)
        fd = os.open(name, flags | getattr(os, "O_CLOEXEC", 0), 0o644, dir_fd=at)  # SQLite's
    except OSError:  # there already, or a link: what opens it next decides
        return
    finally:
        os.close(at)
    try:
        hand_over(fd, path)
    finally:
        os.close(fd)


def _state_owner(path: str) -> tuple[int, int] | None:
    """(uid, gid) of the git directory whose state directory holds ``path``, when not
    root's; None for a path in no state directory."""
    git_dir = state_git_dir(path)
    if git_dir is None:
        return None
    try:
        if not os.path.isfile(os.path.join(git_dir, "HEAD")):
            return None  # a folder named forest elsewhere (a report's), not a state one
        found = os.stat(git_dir)
    except OSError:
        return None
    return None if found.st_uid == 0 else (found.st_uid, found.st_gid)
