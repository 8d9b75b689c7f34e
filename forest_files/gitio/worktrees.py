"""The work trees of a clone, as git lists them (``git worktree list --porcelain -z``).

Git lists the main work tree first, then the linked ones. A path is git's raw
bytes (a newline, a byte that is not UTF-8: ``-z`` keeps each whole, surrogateescape
keeps each byte). For the main work tree git names the directory holding the common
git directory: a work tree kept apart from it (``git init --separate-git-dir``) is
one git keeps no path for, and git names the git directory itself instead.

Stores: nothing.
Refuses: nothing of its own (NotARepo, GitFailed as every git call; a git without
``-z`` for this listing, before 2.36, is asked without it).
Returns: ``worktree_list``: one ``Worktree`` per work tree git keeps.
Test: tests/gitio/test_worktrees.py
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from forest_files.gitio._run import GitFailed, decode, run_git, split_z


class Worktree(NamedTuple):
    """One work tree git keeps. ``head`` is None for a bare repository (and for an
    unborn branch's null id git prints, it is that id); ``branch`` the full ref name,
    None when detached or bare; ``locked`` / ``prunable`` the reason git gives ("" when
    none), None when not locked / not prunable (``prunable``: its directory is gone)."""

    path: str
    head: str | None = None
    branch: str | None = None
    bare: bool = False
    detached: bool = False
    locked: str | None = None
    prunable: str | None = None


def _record(fields: list[str]) -> Worktree:
    values: dict[str, str] = {}
    flags: set[str] = set()
    for field in fields:
        name, _, value = field.partition(" ")
        if name in ("worktree", "HEAD", "branch", "locked", "prunable"):
            values[name] = value
        flags.add(name)
    return Worktree(
        path=values["worktree"],
        head=values.get("HEAD"),
        branch=values.get("branch"),
        bare="bare" in flags,
        detached="detached" in flags,
        locked=values.get("locked") if "locked" in flags else None,
        prunable=values.get("prunable") if "prunable" in flags else None,
    )


def worktree_list(repo: Path | str) -> tuple[Worktree, ...]:
    """Every work tree of the clone ``repo`` belongs to, the main one first: one
    ``git worktree list --porcelain -z`` (each record's fields end in NUL, an empty
    field ends the record). A git older than 2.36 knows no ``-z``: its lines are read
    instead (a path holding a newline is then misread: the listing only names paths)."""
    try:
        fields = split_z(run_git(repo, ["worktree", "list", "--porcelain", "-z"]).stdout)
    except GitFailed:
        lines = run_git(repo, ["worktree", "list", "--porcelain"]).stdout
        fields = decode(lines).split("\n")
    records: list[Worktree] = []
    current: list[str] = []
    for field in [*fields, ""]:
        if field:
            current.append(field)
        elif current:
            if current[0].startswith("worktree "):  # a record always opens with its path
                records.append(_record(current))
            current = []
    return tuple(records)


__all__ = ["Worktree", "worktree_list"]
