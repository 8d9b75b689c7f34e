"""What the working tree holds that the git index does not: edits not staged, files
not tracked (ignored or not), files the index is told to take as unchanged.

``repo`` is the working-tree root, paths are from the top and taken literally. The git
index is only read (``git diff``, ``git ls-files``), never written.

Stores: nothing.
Refuses: nothing (a git failure raises GitFailed).
Returns: paths, in git's order or the caller's.
Test: tests/gitio/test_gitio.py
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from forest_files.gitio._run import run_git, split_z

# Paths ``to_stage`` names on git's command line (well within ARG_MAX); more are
# filtered from one listing of the work tree.
_NAMED_PATHS = 500


def unstaged_paths(
    repo: Path | str, paths: Sequence[str], *, keep_index_file: bool = False
) -> set[str]:
    """Which of ``paths`` the working tree holds otherwise than the git index (edits
    not staged, or the file gone): ``git diff`` (content compared, not stat data;
    the index is never written)."""
    if not paths:
        return set()
    args = ["diff", "-z", "--name-only", "--no-ext-diff", "--no-textconv", "--", *paths]
    proc = run_git(repo, args, keep_index_file=keep_index_file)  # paths taken literally
    return set(split_z(proc.stdout))


def to_stage(repo: Path | str, paths: Sequence[str], *, keep_index_file: bool = False) -> list[str]:
    """Which of ``paths`` (from the top) a commit would miss unless they are staged:
    edits the index does not hold, or files it does not track (ignored files aside:
    ``git add`` refuses those). One ``git ls-files``, limited to ``paths`` (taken
    literally) when they are few, else over the work tree and filtered here, so any
    number of paths stays within ARG_MAX. A file whose stat alone changed may be
    listed; staging it is harmless."""
    wanted = list(dict.fromkeys(paths))
    if not wanted:
        return []
    args = ["ls-files", "-z", "--full-name", "-m", "-o", "--exclude-standard"]
    if len(wanted) <= _NAMED_PATHS:
        args += ["--", *wanted]
    listed = set(split_z(run_git(repo, args, keep_index_file=keep_index_file).stdout))
    return [p for p in wanted if p in listed]


def taken_as_unchanged(
    repo: Path | str, paths: Sequence[str], *, keep_index_file: bool = False
) -> dict[str, str]:
    """Which of ``paths`` (from the top, taken literally) the index is told to take as
    unchanged, each with its flag: ``assume-unchanged`` or ``skip-worktree`` (set by
    ``git update-index``). Git then neither lists nor stages the file's edits:
    ``git add`` of it does nothing. One ``git ls-files -v``, limited to ``paths``
    (taken literally) when they are few, else over the whole index and filtered here,
    so any number of paths stays within ARG_MAX (as ``to_stage``)."""
    wanted = list(dict.fromkeys(paths))
    if not wanted:
        return {}
    args = ["ls-files", "-v", "-z", "--full-name"]
    if len(wanted) <= _NAMED_PATHS:
        args += ["--", *wanted]
    asked = set(wanted)
    out: dict[str, str] = {}
    for record in split_z(run_git(repo, args, keep_index_file=keep_index_file).stdout):
        tag, _, path = record.partition(" ")
        flag = index_flag(tag) if path in asked else None
        if flag is not None:
            out[path] = flag
    return out


def index_flag(tag: str) -> str | None:
    """The flag an ``ls-files -v`` tag says the index holds for its path:
    ``skip-worktree`` (S, or s when assume-unchanged is set as well),
    ``assume-unchanged`` (any other lower-case tag), else None."""
    if tag.upper() == "S":
        return "skip-worktree"
    if tag.islower():
        return "assume-unchanged"
    return None


def untracked(
    repo: Path | str,
    paths: Sequence[str],
    *,
    keep_index_file: bool = False,
    which: str = "added",
) -> list[str]:
    """The files under ``paths`` (from the top, taken literally) the index does not
    track, in git's order: ``which`` ``"added"``, those ``git add`` would track (no
    ignore rule hides them); ``"all"``, ignored or not; ``"ignored"``, only those an
    ignore rule hides. One ``git ls-files``."""
    if not paths:
        return []
    args = ["ls-files", "-z", "--full-name", "-o"]
    args += {"added": ["--exclude-standard"], "all": [], "ignored": ["-i", "--exclude-standard"]}[
        which
    ]
    return split_z(run_git(repo, [*args, "--", *paths], keep_index_file=keep_index_file).stdout)


def untracked_split(
    repo: Path | str, paths: Sequence[str], *, keep_index_file: bool = False
) -> tuple[list[str], list[str]]:
    """The files under ``paths`` (from the top, taken literally) the index does not
    track, in git's order, in two lists: those ``git add`` would track (``untracked``'s
    ``"added"``) and those an ignore rule hides (its ``"ignored"``). One ``git
    ls-files`` lists them all (no ignore rule read); only when it lists any, a second
    names which of those files a rule hides, limited to them when they are few (as
    ``to_stage``), else under ``paths`` again. (``git status --ignored`` says both in
    one walk but refreshes and compares every tracked file under ``paths`` too, and
    ``git check-ignore`` refuses the literal pathspecs every call here runs with.)"""
    listed = untracked(repo, paths, keep_index_file=keep_index_file, which="all")
    if not listed:
        return [], []
    few = listed if len(listed) <= _NAMED_PATHS else paths
    hidden = set(untracked(repo, few, keep_index_file=keep_index_file, which="ignored"))
    return [p for p in listed if p not in hidden], [p for p in listed if p in hidden]
