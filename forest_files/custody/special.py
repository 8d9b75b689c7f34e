"""What a bound path may be: a regular file, outside git's and forest's own files.

One rule for every door (adoption, the ledger applier, checks of the working
tree, the git index and commits, restore): a bound path names a regular file —
git mode 100644 or 100755 (any mode git itself reads as a regular file) in the
index and in commits, a regular file (``lstat``, no symlink) in the working tree.

Stores: nothing.
Refuses: nothing itself; ``special_path_reason`` says why a path may never be
bound — anything under ``.git/`` or ``.forest/`` at the root, a path through a
``.git`` directory at any depth (git never tracks one), and ``forest.toml`` at
the root; names compared without case, as a case-insensitive filesystem would.
Returns: a reason (one phrase saying what to do) or None; the kind of a
non-regular entry (``symlink``, ``directory``, ``fifo``, ``submodule``, …) from
an ``lstat`` mode or a git mode, and the one detail a check reports for it,
``not a regular file (KIND)``; ``submodule_refusal``, what adoption says of a
submodule or a path inside one.
Test: tests/custody/test_special_paths.py

Kept pure (``stat`` only) so the ledger applier and the hook can import it for
nothing; ``special_path_reason`` is forest_files/kernel/repopath.py's, named here
for the modules that read modes too.
"""

from __future__ import annotations

import stat as stat_mod

# The rule itself lives with the other path rules, below the ledger's codec.
from forest_files.kernel.repopath import special_path_reason
from forest_files.kernel.shellword import command_text, git_step, shell_word
from forest_files.kernel.standing import reached

__all__ = [
    "git_mode_kind",
    "lstat_kind",
    "not_regular",
    "special_path_reason",
    "submodule_refusal",
]


def lstat_kind(mode: int) -> str | None:
    """The kind of a non-regular file from an ``lstat`` mode; None for a regular file."""
    if stat_mod.S_ISREG(mode):
        return None
    if stat_mod.S_ISLNK(mode):
        return "symlink"
    if stat_mod.S_ISDIR(mode):
        return "directory"
    if stat_mod.S_ISFIFO(mode):
        return "fifo"
    if stat_mod.S_ISSOCK(mode):
        return "socket"
    return "device"


# git's object modes: only the type bits count (git reads a legacy 100664 as a
# regular file too, so it is one here).
_GIT_KINDS = {0o120000: "symlink", 0o160000: "submodule", 0o040000: "directory"}


def git_mode_kind(mode: str) -> str | None:
    """The kind of a non-regular git index or tree entry (octal ``mode`` as git
    prints it); None for a regular file."""
    bits = int(mode, 8) & 0o170000
    if bits == 0o100000:
        return None
    return _GIT_KINDS.get(bits, f"mode {mode}")


def not_regular(kind: str) -> str:
    """The detail of an ``unresolved`` finding for a bound path of ``kind``."""
    return f"not a regular file ({kind})"


def submodule_refusal(path: str, sub: str, checked_out: bool) -> str:
    """Why ``path``, the submodule ``sub`` or a path inside it, is not adopted here, and
    the steps that reach the submodule's own repository (checked out first when it is
    not): a gitlink records a commit of another repository, never a file's text."""
    into = f"cd {shell_word(reached(sub))}"
    if not checked_out:
        into = f"{command_text(git_step('submodule', 'update', '--init', '--', sub))} && {into}"
    what = (
        f"{shell_word(sub)} is a git submodule (a commit of another repository, not a file)"
        if path == sub
        else f"inside the submodule {shell_word(sub)}"
    )
    return (
        f"{path}: {what}; custody binds files inside the submodule's own repository: "
        f"run forest there ({into})"
    )
