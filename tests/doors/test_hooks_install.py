"""``forest hooks install`` is all or nothing (doors/hooks/installer.py).

Real repositories, hooks folder of git's own. A foreign hook that cannot be
moved (immutable: the tests may run as root) refused the install after three of
five hooks were written, as an internal error; a directory where a hook goes was
"chained" and every later commit failed. Both are refused now with one line, and
the hooks folder is left exactly as it was.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

import forest_files.doors.cli  # noqa: F401  (registers every command)
from forest_files.doors.cli import app
from tests.helpers.cli import console
from tests.helpers.git import git, make_repo, pasted, write
from tests.helpers.immutable import immutable

runner = CliRunner()


def _hooks(repo: Path) -> dict[str, bytes | None]:
    folder = repo / ".git" / "hooks"
    return {
        p.name: (None if p.is_dir() else p.read_bytes())
        for p in sorted(folder.iterdir())
        if not p.name.endswith(".sample")
    }


def test_hooks_install_foreign_hook_immutable_nothing_installed_refused(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    foreign = write(repo, ".git/hooks/post-checkout", "#!/bin/sh\necho mine\n")
    foreign.chmod(0o755)
    before = _hooks(repo)
    with immutable(foreign):
        result = runner.invoke(app, ["hooks", "install", "--repo", str(repo)])
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.splitlines()
    assert "cannot be written" in line and "no hook was installed" in line, line
    assert "internal error" not in line
    assert _hooks(repo) == before
    assert runner.invoke(app, ["hooks", "install", "--repo", str(repo)]).exit_code == 0


def test_hooks_install_failed_late_rewritten_hook_restored_recovers(tmp_path: Path) -> None:
    """An install that fails after rewriting one of our older hooks puts that hook back
    as it was, bytes and mode (through the one atomic write, not a write that follows
    a link planted meanwhile)."""
    repo = make_repo(tmp_path)
    old = write(repo, ".git/hooks/pre-commit", "#!/bin/sh\n# forest-files-hook v1\nexit 0\n")
    old.chmod(0o750)
    foreign = write(repo, ".git/hooks/post-rewrite", "#!/bin/sh\necho mine\n")
    foreign.chmod(0o755)
    before = _hooks(repo)
    with immutable(foreign):
        result = runner.invoke(app, ["hooks", "install", "--repo", str(repo)])
    assert result.exit_code == 1, result.output
    assert "no hook was installed" in result.stderr
    assert _hooks(repo) == before
    assert not old.is_symlink() and old.stat().st_mode & 0o7777 == 0o750


def test_hooks_install_directory_named_like_a_hook_refused(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    (repo / ".git" / "hooks" / "pre-commit").mkdir()
    before = _hooks(repo)
    result = runner.invoke(app, ["hooks", "install", "--repo", str(repo)])
    assert result.exit_code == 1, result.output
    assert "is a directory; git runs a hook from a file there" in result.stderr
    assert _hooks(repo) == before


def test_hooks_install_folder_outside_repository_said_route_pasted_recovers(
    tmp_path: Path,
) -> None:
    """A ``core.hooksPath`` outside the repository (often set globally): the install
    wrote there without a word, and created the folder when it was missing, so the
    hooks ran for every repository naming it (and refused their commits once
    forest-files was uninstalled). Both are said now; the printed command, pasted,
    keeps the hooks to this repository."""
    repo = make_repo(tmp_path)
    shared = tmp_path / "shared hooks"
    git(repo, "config", "core.hooksPath", str(shared))
    result = runner.invoke(app, ["hooks", "install", "--repo", str(repo)])
    assert result.exit_code == 0, result.output
    assert f"forest: created {shared} (git's hooks folder)" in result.stderr
    (note,) = [ln for ln in result.stderr.splitlines() if ln.startswith("forest: note: ")]
    assert f"is {shared}, outside this repository" in note
    assert (shared / "pre-commit").is_file()
    route = note.split("to keep them to this repository: ", 1)[1]
    proc = pasted(repo, route)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (repo / ".git" / "hooks" / "pre-commit").is_file()
    again = runner.invoke(app, ["hooks", "status", "--repo", str(repo)])
    assert again.exit_code == 0 and "forest: note" not in again.stderr, again.stderr
    assert "created" not in again.stderr


def test_hooks_install_git_own_folder_no_note_accepted(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    result = runner.invoke(app, ["hooks", "install", "--repo", str(repo)])
    assert result.exit_code == 0, result.output
    assert "forest: note" not in result.stderr and "created" not in result.stderr


def test_hooks_install_server_bare_repository_without_hooks_folder_accepted(
    tmp_path: Path,
) -> None:
    """A bare repository made without git's template has no hooks folder: the server
    install creates it and installs, with no note (it is the repository's own)."""
    bare = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", "--template=", str(bare))
    assert not (bare / "hooks").exists()
    result = runner.invoke(app, ["hooks", "install", "--server", "--repo", str(bare)])
    assert result.exit_code == 0, result.output
    assert (bare / "hooks" / "pre-receive").is_file() and (bare / "hooks" / "update").is_file()
    assert "forest: note" not in result.stderr


def test_hooks_install_links_planted_beside_hooks_never_followed_refused(tmp_path: Path) -> None:
    """A hooks folder in the work tree (``core.hooksPath .githooks``) can arrive by a
    commit, with symlinks in it. The install wrote each script to a fixed temporary
    name beside it, following a link planted there: a file outside the repository was
    overwritten with the hook script. The one atomic write (kernel/cache.py) creates
    its temporary file O_EXCL|O_NOFOLLOW; a link at either temporary name is left
    harmless, and the hook is installed."""
    import os

    repo = make_repo(tmp_path)
    outside = write(tmp_path, "outside.txt", "keep me\n")
    hooks = repo / ".githooks"
    hooks.mkdir()
    (hooks / "pre-commit.forest-tmp").symlink_to(outside)
    (hooks / f"post-merge.{os.getpid()}.tmp").symlink_to(outside)  # this process's name
    git(repo, "config", "core.hooksPath", ".githooks")
    result = runner.invoke(app, ["hooks", "install", "--repo", str(repo)])
    assert result.exit_code == 0, result.output
    assert outside.read_text() == "keep me\n"
    for name in ("pre-commit", "post-merge"):
        script = hooks / name
        assert not script.is_symlink() and "forest-files-hook" in script.read_text()
        assert os.access(script, os.X_OK)


def test_hooks_status_names_a_hook_missing_beside_installed_ones_recovers(
    tmp_path: Path,
) -> None:
    """A repository whose hooks an earlier release installed (no post-commit, no
    post-applypatch): status names the missing hooks and the command; pasted, every
    hook is ours. Nothing installed at all is not this case (no line)."""
    repo = make_repo(tmp_path)
    bare = runner.invoke(app, ["hooks", "status", "--repo", str(repo)])
    assert "missing beside" not in bare.stderr
    assert runner.invoke(app, ["hooks", "install", "--repo", str(repo)]).exit_code == 0
    for name in ("post-commit", "post-applypatch"):
        (repo / ".git" / "hooks" / name).unlink()
    result = runner.invoke(app, ["hooks", "status", "--repo", str(repo)])
    assert result.exit_code == 0, result.output
    (line,) = [ln for ln in result.stderr.splitlines() if "missing beside" in ln]
    assert "post-commit, post-applypatch" in line
    assert pasted(repo, line.rsplit("run: ", 1)[1]).returncode == 0
    after = runner.invoke(app, ["hooks", "status", "--repo", str(repo)])
    assert "missing" not in after.output + after.stderr


def _steps(line: str) -> list[str]:
    """The commands a line quotes between backticks."""
    return line.split("`")[1::2]


@pytest.mark.slow  # four `forest` processes and two pasted steps
def test_hooks_install_server_in_a_clone_steps_pasted_where_typed_recovers(
    tmp_path: Path,
) -> None:
    """``forest -C clone hooks install --server`` typed beside a clone whose origin is a
    bare repository on this machine: refused, naming the clone's own install and the
    server's in its remote as commands with ``-C`` (before: "run `forest hooks install
    --server` in the repository pushes land in", prose that worked nowhere it was
    typed); pasted where typed, each installs. Typed inside the clone, no ``-C`` for it."""
    bare = make_repo(tmp_path, "server.git", bare=True)
    clone = make_repo(tmp_path, "clone")
    git(clone, "remote", "add", "origin", "../server.git")
    git(clone, "remote", "add", "mirror", "https://example.org/x.git")
    (clone / "sub").mkdir()
    refused = pasted(tmp_path, "forest -C clone hooks install --server")
    assert refused.returncode == 1, refused.stderr
    (line,) = refused.stderr.splitlines()
    assert "not a bare repository" in line, line
    client, server = _steps(line)
    assert client == "forest -C clone hooks install", line
    assert server == "forest -C server.git hooks install --server", line
    for step in (server, client):
        done = pasted(tmp_path, step)
        assert done.returncode == 0, (step, done.stderr)
    assert (bare / "hooks" / "pre-receive").is_file() and (
        clone / ".git/hooks/pre-commit"
    ).is_file()
    below = pasted(clone / "sub", "forest hooks install --server")
    assert _steps(below.stderr)[:2] == [
        "forest hooks install",
        "forest -C ../../server.git hooks install --server",
    ], below.stderr


@pytest.mark.slow  # three `forest` processes and a pasted step
def test_hooks_in_a_bare_repository_without_server_step_pasted_recovers(tmp_path: Path) -> None:
    """``forest -C server.git hooks install`` (the client hooks) in a bare repository:
    refused with the same command and ``--server``, reached from where it was typed
    (before: "forest-files needs a working tree (clone it, or use `git worktree add`)");
    pasted, the server's hooks are installed. Status names a missing server hook with
    the server's install, not the clone's."""
    bare = make_repo(tmp_path, "server.git", bare=True)
    refused = pasted(tmp_path, "forest -C server.git hooks install")
    assert refused.returncode != 0 and not (bare / "hooks" / "pre-commit").exists()
    (step,) = _steps(refused.stderr)
    assert step == "forest -C server.git hooks install --server", refused.stderr
    assert pasted(tmp_path, step).returncode == 0
    (bare / "hooks" / "update").unlink()
    status = pasted(tmp_path, "forest hooks status --server --repo server.git")
    (line,) = [x for x in status.stderr.splitlines() if "missing beside" in x]
    assert line.endswith("run: forest -C server.git hooks install --server"), line


@pytest.mark.slow  # four `forest` processes and two pasted routes
def test_hooks_status_dash_c_hooks_path_notes_pasted_beside_recovers(tmp_path: Path) -> None:
    """``forest -C repo hooks status`` typed beside the repository: the notes on a
    ``core.hooksPath`` in the work tree and outside it printed ``git config …`` and
    ``forest hooks install`` without ``-C``, which pasted there failed or changed another
    repository. Each step now reaches the repository from where it was typed; pasted
    there, the hooks are this repository's own and status says nothing more."""
    repo = make_repo(tmp_path)
    git(repo, "config", "core.hooksPath", ".githooks")
    shown = console(tmp_path, "-C", "repo", "hooks", "status")
    assert shown.returncode == 0, shown.stderr
    (warning,) = [ln for ln in shown.stderr.splitlines() if ln.startswith("forest: warning: ")]
    route = warning.split("`")[3]
    assert route == "git -C repo config --unset-all core.hooksPath && forest -C repo hooks install"
    assert pasted(tmp_path, route).returncode == 0
    assert (repo / ".git" / "hooks" / "pre-commit").is_file()
    git(repo, "config", "core.hooksPath", str(tmp_path / "shared"))
    shown = console(tmp_path, "-C", "repo", "hooks", "status")
    (note,) = [ln for ln in shown.stderr.splitlines() if ln.startswith("forest: note: ")]
    route = note.split("to keep them to this repository: ", 1)[1]
    assert route.startswith("git -C repo config --local core.hooksPath ") and route.endswith(
        " && forest -C repo hooks install"
    ), route
    done = pasted(tmp_path, route)
    assert done.returncode == 0, done.stderr
    again = console(tmp_path, "-C", "repo", "hooks", "status")
    assert again.returncode == 0 and "forest:" not in again.stderr, again.stderr


def test_hooks_status_server_in_a_clone_refused_as_install(tmp_path: Path) -> None:
    """``forest hooks status --server`` in a clone listed the clone's ``.git/hooks`` as
    missing server hooks (exit 0), where install and uninstall refuse: it is refused
    now with the install's one line and exit code, listing nothing."""
    clone = make_repo(tmp_path, "clone")
    install = runner.invoke(app, ["hooks", "install", "--server", "--repo", str(clone)])
    status = runner.invoke(app, ["hooks", "status", "--server", "--repo", str(clone)])
    assert status.exit_code == install.exit_code == 1, status.output
    (line,) = status.stderr.splitlines()
    assert line == install.stderr.strip() and "not a bare repository" in line, line
    assert status.stdout == "" and "pre-receive" not in status.output
