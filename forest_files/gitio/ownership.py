"""A repository git will not open because another user owns it, said with its fix.

git (2.35.2 and later) refuses a repository whose work tree or git directory another
user owns unless ``safe.directory`` names it, in three or more lines ("detected
dubious ownership …", then the ``git config`` that trusts it). Run together into one
line, a path holding a newline or a byte that is not UTF-8 came out as another path
(a space, ``\\xe9``), so the command it named, pasted, trusted a directory that is not
this one and git still refused.

A work tree this user owns whose ``.git`` another user does (root's, after a ``sudo
git clone`` into the user's own folder, or a ``sudo git init`` there), or the reverse,
is this user's repository half taken: trusting it by ``safe.directory`` left root's
files in ``.git`` (``.git/forest`` among them). Its line names the repair first, the
``sudo chown -R`` that gives the other part back (kernel/access.py ``chown_back``), and
``safe.directory`` only for a repository that really is another user's.

Stores: nothing. Refuses: nothing (gitio/_run.py raises the line as GitFailed).
Returns: the one line naming the repository and the ``git config --global --add
safe.directory`` that trusts it (its path quoted: kernel/shellword.py), after the
``sudo chown -R`` of the part another user owns when this user owns the rest; None
when git's words are not that refusal.
Test: tests/gitio/test_dubious_ownership.py
"""

from __future__ import annotations

import os
import re
import stat

# git's first line, then its report of the owners ("'PATH' is owned by:", git 2.40+)
# or its advice ("To add an exception"): the path is everything between the quotes.
_DUBIOUS = re.compile(
    r"detected dubious ownership in repository at '(.*?)'\n(?=To add an exception|')",
    re.DOTALL,
)


def dubious_ownership(err: str) -> str | None:
    """The line for git's ``err`` when it refused a repository another user owns."""
    found = _DUBIOUS.search(err)
    if found is None:
        return None
    from forest_files.kernel.shellword import printable, shell_word

    path = found[1]
    trust = " ".join(map(shell_word, ("git", "config", "--global", "--add", "safe.directory")))
    trust = f"{trust} {shell_word(path)}"
    taken = _taken_part(path)
    if taken is None:
        return (
            f"git refuses the repository at {printable(path)}: another user owns it, and "
            "git opens such a repository only when safe.directory names it; if you trust "
            f"it, run `{trust}`, then the command again"
        )
    from forest_files.kernel.access import chown_back

    if taken == path:
        split = "its work tree's folder, though its .git folder is yours"
    else:  # the common one: a sudo git clone into the user's own folder
        split = f"its git directory {printable(taken)} (a sudo git command leaves it so), "
        split += "though its work tree is yours"
    return (
        f"git refuses the repository at {printable(path)}: another user owns {split}; "
        f"give it back with `{chown_back(taken)}`, then the command again (only for a "
        f"repository that really is another user's, trust it instead: `{trust}`)"
    )


def _taken_part(path: str) -> str | None:
    """Which of the work tree ``path`` (git's refused directory, links resolved) and its
    ``.git`` folder another user owns when this user owns the other, counted as git
    counts them (the folders themselves; kernel/owners.py counts the same for the light
    doors). None when both are another user's, for a bare repository (no ``.git``
    folder), a ``.git`` file (its git directory lies elsewhere, judged by git alone),
    and as root: the part root does not own is another user's, and a chown to root
    would take it from them, so git's own words stand."""
    if not hasattr(os, "geteuid") or os.geteuid() == 0:  # Windows: owners are SIDs
        return None
    git_dir = os.path.join(path, ".git")
    try:
        tree, inner = os.stat(path), os.lstat(git_dir)
    except OSError:  # no .git folder: a bare repository, or gone since
        return None
    if not stat.S_ISDIR(inner.st_mode):
        return None
    taken = [p for p, st in ((path, tree), (git_dir, inner)) if st.st_uid != os.geteuid()]
    return taken[0] if len(taken) == 1 else None
