"""What a content source is (the working tree, the git index or a commit-ish), how a
message names it, and what git holds under a path there.

Stores: nothing.
Refuses: an unmerged (conflicted) entry in the git index (``ForestError``: ledger
files never conflict, keep both sides' segments); a revision that names no commit
(``UnknownRef``).
Returns: the source names ``WORKTREE``, ``INDEX`` and ``LedgerSource``; ``describe``
(the source as a message names it); ``git_entries`` (stage-0 ``TreeEntry`` values).
Test: tests/ledger/test_ledger_sources.py
"""

from __future__ import annotations

from pathlib import Path

from forest_files import gitio
from forest_files.gitio import TreeEntry
from forest_files.kernel.errors import ForestError

WORKTREE = "worktree"
INDEX = "index"
LedgerSource = str  # "worktree" | "index" | a commit-ish


def describe(source: LedgerSource) -> str:
    if source == WORKTREE:
        return "the working tree"
    if source == INDEX:
        return "the git index"
    return source


def git_entries(
    root: Path, source: LedgerSource, prefix: str, *, keep_index_file: bool
) -> list[TreeEntry]:
    """Stage-0 entries under ``prefix`` in the git index, or in a commit's tree."""
    if source == INDEX:
        entries = gitio.ls_files_stage(root, prefix, keep_index_file=keep_index_file)
        conflicted = sorted({e.path for e in entries if e.stage != 0})
        if conflicted:
            raise ForestError(
                f"{conflicted[0]} is unmerged in the git index; resolve the conflict "
                "(ledger files never conflict: keep both sides' segments) and `git add` it"
            )
        return entries
    commit = gitio.resolve_commit(root, source)
    return gitio.ls_tree(root, commit, prefix)
