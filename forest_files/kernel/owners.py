"""Whether this user owns a work tree as git counts it before it opens the repository.

git (2.35.2 and later) opens a repository it discovers only when the user running it
owns the work tree, its ``.git`` entry and, for a ``.git`` file (a linked worktree, a
submodule), the git directory that file names; root owns what root owns, and under
``sudo`` what the ``SUDO_UID`` sudo exported owns too. Anything else git opens only
when ``safe.directory`` names it. The light doors (``forest check``, ``forest
status``) answer without git, from the caches in the git directory: in a repository
another user owns they would write root's files into that user's state before git
refused. This is the rule's cheap half; its other half, ``safe.directory``, is never
matched here: the caller leaves its light path and asks git (custody/verdict.py
``quick_root``), so a trusted repository is answered, through git.

Stores: nothing. Refuses: nothing (a ``.git`` file naming no git directory: what
kernel/state.py ``git_dir_paths`` refuses).
Returns: ``owned_by_user``: True when this user owns all three as git counts it;
False when another user owns one, one cannot be stat'ed, or git's test variable
``GIT_TEST_ASSUME_DIFFERENT_OWNER`` is set (git then counts none as owned).
Test: tests/doors/test_light_check_foreign_owner.py
"""

from __future__ import annotations

import os
import stat
import sys


def _users() -> tuple[int, ...]:
    """The owners git counts as this user: its effective id; for root, root and the
    ``SUDO_UID`` sudo exported, read as git reads it (``_sudo_uid``)."""
    euid = os.geteuid()
    sudo = _sudo_uid(os.environ.get("SUDO_UID", "")) if euid == 0 else None
    return (euid,) if sudo is None else (0, sudo)


_ULONG_MAX = sys.maxsize * 2 + 1  # C's unsigned long where there is geteuid (LP64, ILP32)


def _sudo_uid(text: str) -> int | None:
    """``SUDO_UID`` as git (2.35.2 and later) reads it: ``strtoul`` in base 10 (leading
    white space and one ``+`` or ``-`` taken, nothing after the digits, no overflow),
    then cut to a 32-bit ``uid_t``: `` 65534``, ``+65534`` and ``4295032830`` are
    65534 to git, ``65534 `` and ``0x10`` nothing (None)."""
    digits = text.lstrip(" \t\n\v\f\r")
    negative = digits.startswith("-")
    if digits.startswith(("+", "-")):
        digits = digits[1:]
    if not (digits.isascii() and digits.isdecimal()):
        return None
    value = int(digits)
    if value > _ULONG_MAX:  # strtoul's ERANGE: git ignores the variable
        return None
    if negative:  # strtoul negates in unsigned arithmetic
        value = -value % (_ULONG_MAX + 1)
    return value & 0xFFFFFFFF


def owned_by_user(root: str, dotgit: str) -> bool:
    """Whether this user owns the work tree ``root``, its ``.git`` entry ``dotgit`` and
    (``dotgit`` a file) the git directory it names, as git's ownership check counts it
    (git's paths are physical, links resolved: the work tree and the git directory a
    ``.git`` file names through their links, the ``.git`` entry itself with ``lstat``)."""
    if not hasattr(os, "geteuid"):
        return True  # git counts owners by SID there: nothing this rule can judge
    if os.environ.get("GIT_TEST_ASSUME_DIFFERENT_OWNER"):
        return False
    users = _users()
    try:
        entry = os.lstat(dotgit)
        if entry.st_uid not in users or os.stat(root).st_uid not in users:
            return False
        if not stat.S_ISREG(entry.st_mode):
            return True
        from forest_files.kernel.state import git_dir_paths

        return os.stat(git_dir_paths(root)[0]).st_uid in users
    except OSError:
        return False
