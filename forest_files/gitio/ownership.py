"""A repository git will not open because another user owns it, said with its fix.

git (2.35.2 and later) refuses a repository whose work tree or git directory another
user owns unless ``safe.directory`` names it, in three or more lines ("detected
dubious ownership …", then the ``git config`` that trusts it). Run together into one
line, a path holding a newline or a byte that is not UTF-8 came out as another path
(a space, ``\\xe9``), so the command it named, pasted, trusted a directory that is not
this one and git still refused.

Stores: nothing. Refuses: nothing (gitio/_run.py raises the line as GitFailed).
Returns: the one line naming the repository and the ``git config --global --add
safe.directory`` that trusts it (its path quoted: kernel/shellword.py), or None when
git's words are not that refusal.
Test: tests/gitio/test_dubious_ownership.py
"""

from __future__ import annotations

import re

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
    return (
        f"git refuses the repository at {printable(path)}: another user owns it, and git "
        "opens such a repository only when safe.directory names it; if you trust it, run "
        f"`{trust} {shell_word(path)}`, then the command again"
    )
