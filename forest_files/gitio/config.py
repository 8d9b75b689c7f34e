"""A repository's git configuration: a key's value, where it is set, who signs.

Stores: nothing.
Refuses: an invalid config key (GitFailed).
Returns: ``config_get`` a key's effective value (or None), ``config_origin`` its
scope and origin, ``user_identity`` ``"Name <email>"`` as git would sign a commit.
Test: tests/gitio/test_gitio.py
"""

from __future__ import annotations

import os
from pathlib import Path

from forest_files.gitio._run import GitFailed, decode, run_git, split_z


def config_get(repo: Path | str, key: str, *, as_type: str | None = None) -> str | None:
    """The effective value of ``key`` (last one wins), or None if unset. ``as_type``:
    git's ``--type`` (``bool-or-str``: ``true`` for each way git spells a true
    boolean, ``yes``, ``on``, ``1`` or a bare key)."""
    typed = [f"--type={as_type}"] if as_type else []
    proc = run_git(repo, ["config", *typed, "--get", "--end-of-options", key], ok_codes=(0, 1))
    if proc.returncode == 1:
        if proc.stderr.strip():
            raise GitFailed(f"config key {key!r} is invalid", stderr=decode(proc.stderr))
        return None
    return decode(proc.stdout).rstrip("\n")


def config_origin(repo: Path | str, key: str) -> tuple[str, str] | None:
    """Where the effective value of ``key`` is set: git's scope (``local``,
    ``worktree``, ``global``, ``system``, ``command``) and its origin (``file:PATH``,
    PATH relative to ``repo`` for the repository's own files; ``command line:`` for
    ``git -c`` or ``GIT_CONFIG_COUNT``), or None if unset. ``-z``: a path is given as
    it is, never quoted."""
    proc = run_git(
        repo,
        ["config", "-z", "--show-scope", "--show-origin", "--get", "--end-of-options", key],
        ok_codes=(0, 1),
    )
    fields = split_z(proc.stdout)
    if proc.returncode == 1 or len(fields) < 3:
        return None
    return fields[0], fields[1]


def user_identity(repo: Path | str) -> str | None:
    """``"Name <email>"`` as git would sign a commit: GIT_AUTHOR_NAME/GIT_AUTHOR_EMAIL
    override user.name/user.email (git's own precedence); None if either is unset."""
    proc = run_git(repo, ["config", "-z", "--get-regexp", r"^user\.(name|email)$"], ok_codes=(0, 1))
    values: dict[str, str] = {}
    for record in split_z(proc.stdout):
        key, _, value = record.partition("\n")
        values[key] = value.strip()
    name = os.environ.get("GIT_AUTHOR_NAME", "").strip() or values.get("user.name")
    email = os.environ.get("GIT_AUTHOR_EMAIL", "").strip() or values.get("user.email")
    if not name or not email:
        return None
    return f"{name} <{email}>"


__all__ = ["config_get", "config_origin", "user_identity"]
