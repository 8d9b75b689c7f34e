"""A repository's git configuration: a key's value, where it is set, who signs.

Stores: nothing.
Refuses: an invalid config key (GitFailed).
Returns: ``config_get`` a key's effective value (or None), ``config_origin`` its
scope and origin, ``user_identity`` ``"Name <email>"`` as git would sign a commit,
``remote_names`` the remotes, ``upstream_remote`` the current branch's remote.
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


def remote_names(repo: Path | str) -> list[str]:
    """The names of ``repo``'s remotes, as ``git remote`` lists them (a remote's name is
    a ref name part: never a newline, but maybe ``$``, a quote or a leading ``-``)."""
    proc = run_git(repo, ["remote"])
    return [name for name in decode(proc.stdout).split("\n") if name]


def upstream_remote(repo: Path | str) -> str | None:
    """The remote the current branch tracks (``branch.<name>.remote``), or None: a
    detached HEAD, no upstream, or one in this repository itself (``.``)."""
    head = run_git(repo, ["symbolic-ref", "-q", "HEAD"], ok_codes=(0, 1))
    ref = decode(head.stdout).strip()
    if head.returncode != 0 or not ref.startswith("refs/heads/"):
        return None
    remote = config_get(repo, f"branch.{ref.removeprefix('refs/heads/')}.remote")
    return None if remote in (None, "", ".") else remote


__all__ = ["config_get", "config_origin", "remote_names", "upstream_remote", "user_identity"]
