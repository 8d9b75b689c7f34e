"""``forest hooks install|uninstall|status``.

Stores: nothing itself (``forest_files.doors.hooks`` writes the scripts).
Refuses: a bare repository without ``--server`` (its hooks are the server's: the
same command with ``--server``, pasted where typed); a foreign hook is chained,
never overwritten without ``--force``.
Returns: one line per hook (or JSON; its path shown escaped in text, exact in JSON),
and a line naming any hook of an older version with the command that updates it
(``--server`` for the server's, ``-C`` where the user typed it), and the steps of the
``core.hooksPath`` notes, each reaching the repository from where it was typed (its
removal from the config file that sets it: doors/hooks/hooks_path.py).
Test: tests/doors/test_hooks.py, tests/doors/test_control_chars_doors.py,
tests/doors/test_hooks_install.py
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from forest_files.doors.cli.errors import boundary
from forest_files.doors.cli.options import JsonOpt, RepoOpt, app

if TYPE_CHECKING:
    from forest_files.doors.hooks.installer import HookState

ServerOpt = Annotated[
    bool,
    typer.Option(
        "--server",
        help="The server's hooks (pre-receive, update), in the bare repository pushes land in.",
    ),
]

hooks_app = typer.Typer(
    help="Install, remove or inspect forest-files' git hooks."
    "\n\nExample: forest hooks install && forest hooks status",
    no_args_is_help=True,
    rich_markup_mode=None,
)
app.add_typer(hooks_app, name="hooks")


def _show(
    states: list[HookState], as_json: bool, repo: Path | None = None, *, step: str = ""
) -> None:
    """Each hook's state; for a hook to install, ``step`` (``installer.install_step``:
    the command pasted where it was typed, ``--server`` for the server's)."""
    from forest_files import gitio
    from forest_files.doors import hooks as githooks
    from forest_files.kernel.shellword import printable

    step = step or "forest hooks install"

    if as_json:
        typer.echo(json.dumps([asdict(s) for s in states]))
    else:
        for s in states:
            typer.echo(f"{s.name:<17} {s.state:<13} {printable(s.path)}")
    old = [s for s in states if s.outdated]
    if old:
        names = ", ".join(f"{s.name} (v{s.version})" for s in old)
        _warn(f"forest: older forest-files hooks: {names}; run: {step}")
    gone = [s.name for s in states if s.state == "missing"]
    if gone and len(gone) < len(states):  # some installed: a hook added since, or removed
        _warn(
            f"forest: missing beside the installed ones: {', '.join(gone)} (added by a later "
            f"forest-files, or removed); run: {step}",
        )
    altered = [s.name for s in states if s.state == "altered"]
    if altered:
        _warn(
            f"forest: {', '.join(altered)} carry forest-files' marker but not its script "
            f"(changed by hand, or by a commit); run: {step}",
        )
    place = None if repo is None else githooks.hooks_place(repo)
    if repo is not None and place == "outside":
        folder = printable(str(gitio.hooks_dir(repo)))
        _warn(
            f"forest: note: git's hooks folder (core.hooksPath) is {folder}, outside this "
            "repository: its hooks run for every repository whose git config names it, and "
            "refuse their commits if forest-files is uninstalled; to keep them to this "
            f"repository: {_own_hooks_folder(step)}",
        )
    if repo is not None and place == "work tree":
        from forest_files.doors.hooks.hooks_path import keep_out_of_commits

        _warn(
            "forest: warning: git's hooks folder (core.hooksPath) lies in the work tree, so "
            "its scripts can change with any commit or pull; `forest ci` is the gate that "
            f"counts (to keep hooks out of commits: {keep_out_of_commits(repo, step)})",
        )


def _warn(line: str) -> None:
    """A line of advice on stderr; its command, pasted, needs bash when a word in it is
    spelled ``$'\\ooo'`` (a folder reached by ``forest -C`` whose name is not UTF-8)."""
    from forest_files.kernel.shellword import for_bash

    typer.echo(for_bash(line), err=True)


def _own_hooks_folder(step: str) -> str:
    """``core.hooksPath`` set to the repository's own hooks folder, then ``step`` (the
    install), each reaching the repository from where the command was typed."""
    from forest_files.kernel.shellword import command_text, git_step

    config = command_text(git_step("config", "--local", "core.hooksPath"))
    common = command_text(git_step("rev-parse", "--path-format=absolute", "--git-common-dir"))
    return f'{config} "$({common})/hooks" && {step}'


@hooks_app.command()
@boundary
def install(
    force: Annotated[
        bool,
        typer.Option(
            "--force",
            help="Replace foreign hooks (kept as NAME.forest-replaced) instead of chaining them.",
        ),
    ] = False,
    server: ServerOpt = False,
    repo: RepoOpt = Path("."),
    as_json: JsonOpt = False,
) -> None:
    """Install pre-commit, pre-merge-commit, post-commit, post-applypatch, post-merge,
    post-checkout and post-rewrite (--server: pre-receive and update, as forest ci judges
    a push).

    Example: forest hooks install --server --repo /srv/git/project.git
    """
    from forest_files import gitio
    from forest_files.doors import hooks as githooks
    from forest_files.doors.hooks.installer import install_step
    from forest_files.kernel.shellword import printable

    where = _where(repo, server, "install")
    shown = None if server else where  # a bare repository has no work tree
    folder = gitio.hooks_dir(where)
    missing = not folder.exists()
    states = githooks.install(where, force=force, server=server)
    if missing and not server and githooks.hooks_place(where) != "git":  # a hooksPath not there
        typer.echo(f"forest: created {printable(str(folder))} (git's hooks folder)", err=True)
    _show(states, as_json, shown, step=install_step(where, server=server))


@hooks_app.command()
@boundary
def uninstall(
    server: ServerOpt = False, repo: RepoOpt = Path("."), as_json: JsonOpt = False
) -> None:
    """Remove our hooks and put chained foreign hooks back.

    Example: forest hooks uninstall
    """
    from forest_files.doors import hooks as githooks

    _show(githooks.uninstall(_where(repo, server, "uninstall"), server=server), as_json)


@hooks_app.command("status")
@boundary
def hooks_status(
    server: ServerOpt = False, repo: RepoOpt = Path("."), as_json: JsonOpt = False
) -> None:
    """Which hooks are ours, foreign, chained or missing.

    Example: forest hooks status --json
    """
    from forest_files.doors import hooks as githooks
    from forest_files.doors.hooks.installer import install_step

    where = _where(repo, server, "status")
    states = githooks.status(where, server=server)
    _show(states, as_json, None if server else where, step=install_step(where, server=server))


def _where(repo: Path, server: bool, command: str) -> Path:
    """A clone's work tree, or with ``server`` the (bare) git directory itself. A bare
    repository without ``server`` is refused with the same ``command`` and
    ``--server``, pasteable where it was typed (a bare repository's hooks are the
    server's)."""
    from forest_files import gitio

    if server:
        return gitio.git_dir(repo)
    from forest_files.custody.repository import find_root

    try:
        return find_root(repo)
    except gitio.BareRepo:
        from forest_files.kernel.shellword import printable, shell_word
        from forest_files.kernel.standing import reached_dir

        where = reached_dir(gitio.git_dir(repo))
        step = ("forest", *(("-C", where) if where else ()), "hooks", command, "--server")
        raise gitio.BareRepo(
            f"{printable(where or '.')}: a bare repository, whose hooks are the server's: "
            f"`{' '.join(map(shell_word, step))}`"
        ) from None
