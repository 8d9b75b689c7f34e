"""forest.toml gone while a ledger stands: the way back, never a fresh project.

A repository whose forest.toml was deleted (by hand, or by a commit made with
``--no-verify``) still holds its ledger. A new forest.toml from ``forest init``
would carry a new project id, so every act of the ledger would be refused, and
none of the authority rules those acts were judged by. Every door that finds the
ledger without forest.toml therefore names the way back, in this order: the
forest.toml the revision holds (``git checkout REV -- forest.toml``), else the
one before the commit that removed it (``git checkout C~1 -- forest.toml``),
else the working tree's (``git add forest.toml``, for the hook), else a new one
with the ledger's own project id (``forest init --project-id ID``). With no ledger
either, but a branch tip holding forest.toml, a commit of this branch removed
custody (made with ``--no-verify``, or pulled): the door names it and the checkout of
its parent's forest.toml and ``.forest`` (``removed_on_branch``), where ``forest
init`` would start another project.

Stores: nothing.
Refuses: nothing; it says.
Returns: ``holds_ledger`` (the working tree's ledger has a segment file),
``index_holds_ledger`` / ``commit_holds_ledger`` (the same for a git source),
``ledger_project`` (the project id of the working tree's ledger, from its first
act), ``way_back`` (the command that puts forest.toml back), ``removed_on_branch``
(the commit that removed custody from this branch, and the way back).
Test: tests/custody/test_lost_config.py, tests/doors/test_printed_where_typed.py
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

from forest_files import gitio
from forest_files.kernel.errors import ForestError
from forest_files.kernel.paths import CONFIG_NAME, FOREST_DIR, LEDGER_DIR, SEGMENTS
from forest_files.kernel.shellword import command_text, forest_text, git_step
from forest_files.ledger.acts import LedgerError, decode_line
from forest_files.ledger.segment_files import segment_paths

_SEGMENTS = f"{LEDGER_DIR}/{SEGMENTS}"
_FIRST_LINE_MAX = 1 << 20  # an act line is bounded far below this


def holds_ledger(root: Path) -> bool:
    """True if the working tree's ledger holds a segment file (links not followed)."""
    return bool(segment_paths(Path(root) / LEDGER_DIR))


def index_holds_ledger(root: Path, *, keep_index_file: bool = False) -> bool:
    """True if the git index (``GIT_INDEX_FILE``'s with ``keep_index_file``) holds a
    file under the ledger's segments."""
    proc = gitio.run_git(
        root, ["ls-files", "--cached", "-z", "--", f"{_SEGMENTS}/"], keep_index_file=keep_index_file
    )
    return bool(proc.stdout)


def commit_holds_ledger(root: Path, rev: str) -> bool:
    """True if commit ``rev`` holds the ledger's segments folder."""
    proc = gitio.run_git(
        root, ["rev-parse", "-q", "--verify", f"{rev}:{_SEGMENTS}"], ok_codes=(0, 1, 128)
    )
    return proc.returncode == 0


def ledger_project(root: Path) -> str | None:
    """The project id (scope) of the first act of the working tree's first segment;
    None when there is none or it cannot be decoded (a sync then names the fault)."""
    for path in segment_paths(Path(root) / LEDGER_DIR):
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
        except OSError:
            return None
        with os.fdopen(fd, "rb") as handle:
            line = handle.readline(_FIRST_LINE_MAX).rstrip(b"\n")
        try:
            return decode_line(line, segment=path.stem, lineno=1).scope or None
        except LedgerError:
            return None
    return None


def way_back(root: Path, rev: str = "HEAD", *, staged: bool = False) -> str:
    """The one command that puts forest.toml back beside the ledger at ``rev``, as the
    user runs it where they stand (a ``git`` step from the top, kernel/shellword.py).
    ``staged``: the git index is judged (the hook), so a working-tree forest.toml
    git has not seen may be staged."""
    held = gitio.run_git(
        root, ["rev-parse", "-q", "--verify", f"{rev}:{CONFIG_NAME}"], ok_codes=(0, 1, 128)
    )
    if held.returncode == 0:
        return command_text(git_step("checkout", rev, "--", CONFIG_NAME))
    last = gitio.run_git(
        root, ["rev-list", "-1", rev, "--", CONFIG_NAME], ok_codes=(0, 128)
    ).stdout.strip()
    if last:  # the newest commit touching it, and it holds none: the one that removed it
        return command_text(git_step("checkout", f"{last.decode('ascii')}~1", "--", CONFIG_NAME))
    if staged and (Path(root) / CONFIG_NAME).is_file():
        return command_text(git_step("add", "--", CONFIG_NAME))
    project = ledger_project(root)
    return forest_text("init", options=("--project-id", project) if project else ())


class Removal(NamedTuple):
    """A commit of this branch that removed custody while a branch tip still holds
    forest.toml: the commit, that branch's short name, and the checkout that puts
    forest.toml and ``.forest`` back as the commit's parent held them."""

    commit: str
    holder: str
    route: str

    def said(self) -> str:
        return (
            f"commit {self.commit[:12]} of this branch removed custody ({self.holder} "
            f"still holds forest.toml); put it back with `{self.route}` and commit it"
        )


def removed_on_branch(root: Path) -> Removal | None:
    """Why neither forest.toml nor a ledger stands here when a branch tip still holds
    forest.toml: the commit of this branch's own history that removed it (a commit
    made with ``--no-verify``, or pulled), with the way back; None when no branch
    holds it or this branch's own commits never removed it (then ``forest init`` is
    the step). Walks only HEAD's commits that no such branch reaches, so a repository
    that never held custody pays two git calls. None too when git cannot say (not a
    repository, a damaged one): the door then says what it said before."""
    if not (Path(root) / ".git").exists():
        return None
    try:
        if gitio.head_commit(root) is None:
            return None
        holders = gitio.branches_holding(root, CONFIG_NAME)
        if not holders:
            return None
        tips = [commit for commit, _ in holders]
        gone = gitio.last_deleted_by(root, CONFIG_NAME, beyond=tips)
        if gone is None:
            return None
        before = f"{gone[:12]}~1"
        kept = [FOREST_DIR] if gitio.trees_exist(root, [before], FOREST_DIR)[before] else []
    except ForestError:
        return None
    route = command_text(git_step("checkout", before, "--", CONFIG_NAME, *kept))
    return Removal(gone, holders[0][1], route)


__all__ = [
    "Removal",
    "commit_holds_ledger",
    "holds_ledger",
    "index_holds_ledger",
    "ledger_project",
    "removed_on_branch",
    "way_back",
]
