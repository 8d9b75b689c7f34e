"""The steps every route is made of: ``forest`` and ``git`` commands spelled as the
user runs them (kernel/shellword.py), the placeholder words a ceremony asks for, and
what a route stages after it changed files or recorded an act (and, while a merge,
cherry-pick or revert waits for its commit, after it wrote a file back: git staged
what it merged, so that commit takes the index, not the working tree).

Stores: nothing. Refuses: nothing. Returns: steps (argument tuples).
Test: tests/check/test_routes_paste.py
"""

from __future__ import annotations

import os
from pathlib import Path

from forest_files.check.findings import WORDS_PLACEHOLDER
from forest_files.kernel.paths import LEDGER_PREFIX
from forest_files.kernel.shellword import forest_step, git_step

LEDGER = LEDGER_PREFIX.rstrip("/")
# what git leaves in the git directory while an operation waits for ``git commit``, which
# commits what the index holds
_AWAITING_COMMIT = ("MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD")
Step = tuple[str, ...]


def words_option() -> Step:
    """``--words …``: the placeholder a ceremony refuses when pasted as is."""
    return ("--words", WORDS_PLACEHOLDER)


forest = forest_step  # ``forest COMMAND [options] TARGET…`` (kernel/shellword.py)


def stage_steps(source: str, *paths: str) -> tuple[Step, ...]:
    """After a route changed files: the hook's commit needs them staged again."""
    return (git_step("add", "--", *paths),) if source == "index" else ()


def written_back_steps(source: str, root: Path, *paths: str) -> tuple[Step, ...]:
    """After a route wrote files back (a restore): staged again for the hook's commit,
    and for the commit a merge (cherry-pick, revert) under way waits for: git staged
    what it merged, so the file written to the working tree alone stays staged as it
    was (``MM``) and that commit is refused again."""
    if source == "worktree" and awaiting_commit(root):
        return (git_step("add", "--", *paths),)
    return stage_steps(source, *paths)


def awaiting_commit(root: Path) -> bool:
    """A merge, cherry-pick or revert in this working tree waits for its commit."""
    from forest_files.kernel.errors import ForestError
    from forest_files.kernel.state import git_dir_paths

    try:
        git_dir = git_dir_paths(root)[0]
    except ForestError:
        return False
    return any(os.path.lexists(os.path.join(git_dir, name)) for name in _AWAITING_COMMIT)


def record_steps(source: str, *paths: str) -> tuple[Step, ...]:
    """After a route recorded an act: the ledger staged for the commit that carries
    it (and, in the hook, the files the route changed)."""
    return (git_step("add", "--", LEDGER, *(paths if source == "index" else ())),)
