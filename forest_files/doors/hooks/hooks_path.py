"""The ``git config`` step that removes ``core.hooksPath`` from the file that sets it.

A bare ``git config --unset core.hooksPath`` edits the repository's own config
alone: pasted when the value comes from the global or system config, an included
file or a worktree's ``config.worktree``, it exits 5 and removes nothing. So git
is asked where the value it uses is set (``config_origin``) and the step names
that place: nothing for the repository's config, ``--worktree`` for this
worktree's, ``--file PATH`` for any other file. ``--global`` is not used: it
writes ``~/.gitconfig`` whenever that file exists, while git also reads
``$XDG_CONFIG_HOME/git/config``, so a value set there is out of its reach.
Only the value git uses is removed (``--unset-all``: every line of it in that
file): another one set elsewhere then takes over, and the install the step ends
with warns again, naming where that one lives.

Stores: nothing. Refuses: nothing; a value set for git's process alone (``git
-c``, ``GIT_CONFIG_PARAMETERS``, ``GIT_CONFIG_COUNT``) has no file to edit, so
it is named with no step.
Returns: ``keep_out_of_commits``, the text of the step, then ``step`` (the
install), each reaching the repository from where the command was typed.
Test: tests/doors/test_hooks_path_unset.py
"""

from __future__ import annotations

from pathlib import Path

from forest_files import gitio
from forest_files.kernel.shellword import command_text, git_step, printable
from forest_files.kernel.state import git_dirs

KEY = "core.hooksPath"


def unset_step(repo: Path, scope: str, origin: str) -> tuple[str, ...] | None:
    """``git config [--worktree | --file PATH] --unset-all core.hooksPath`` for the
    value git uses, set in ``scope`` at ``origin`` (``config_origin``'s; PATH as git
    names it: a relative one is the top's, where ``git_step`` is run from); None when
    it comes from no file."""
    if not origin.startswith("file:"):
        return None
    path = origin.removeprefix("file:")
    where = (repo / path).resolve()
    git_dir, common = git_dirs(repo)
    if scope == "local" and where == (common / "config").resolve():
        place: tuple[str, ...] = ()
    elif scope == "worktree" and where == (git_dir / "config.worktree").resolve():
        place = ("--worktree",)
    else:
        place = ("--file", path)
    return git_step("config", *place, "--unset-all", KEY)


def keep_out_of_commits(repo: Path, step: str) -> str:
    """How to move git's hooks folder out of the work tree ``repo``: the ``core.hooksPath``
    removal where it is set, then ``step``, pasteable where the command was typed."""
    scope, origin = gitio.config_origin(repo, KEY) or ("command", "command line:")
    unset = unset_step(repo, scope, origin)
    if unset is not None:
        return f"`{command_text(unset)} && {step}`"
    return (
        f"remove {KEY} where it is set ({printable(origin.rstrip(':'))}: `git -c`, "
        f"GIT_CONFIG_PARAMETERS or GIT_CONFIG_COUNT), then `{step}`"
    )


__all__ = ["KEY", "keep_out_of_commits", "unset_step"]
