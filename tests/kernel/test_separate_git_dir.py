"""A work tree kept apart from its repository, as dotfile managers keep ``$HOME``: a
bare repository, ``GIT_DIR`` and ``GIT_WORK_TREE`` exported, the work tree inside no
other repository. Before: every command said "not inside a git working tree; run
forest inside a git repository (or `git init` first)" (a ``git init`` there starts
another repository), and the refusal that names the ``.git`` file the work tree needs
(kernel/foreign_gitdir.py ``refuse_foreign_git_dir``) was reached only when an outer repository
held the work tree; its fix, pasted, left a bare repository git refuses to run in a
work tree for (``core.bare`` true)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.helpers.cli import FOREST
from tests.helpers.git import git, git_env, pasted, write


def _dotfiles(tmp_path: Path) -> tuple[Path, Path]:
    """(the bare repository, the work tree): one file committed through GIT_DIR."""
    repo = tmp_path / "dots.git"
    git(tmp_path, "init", "-q", "--bare", str(repo))
    home = tmp_path / "home"
    write(home, "rc.md", "# RC\n\n## A\n\nalias ll='ls -l'\n")
    apart = {"GIT_DIR": str(repo), "GIT_WORK_TREE": str(home)}
    git(home, "add", "rc.md", env=apart)
    git(home, "commit", "-q", "-m", "rc", env=apart)
    return repo, home


def _forest(home: Path, repo: Path | None, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("GIT_DIR", "GIT_WORK_TREE")}
    env.update(git_env())
    if repo is not None:
        env.update(GIT_DIR=str(repo), GIT_WORK_TREE=str(home))
    return subprocess.run([FOREST, *args], cwd=home, env=env, capture_output=True, text=True)


def test_separate_bare_git_dir_outside_any_repo_refused_then_fixed(tmp_path: Path) -> None:
    repo, home = _dotfiles(tmp_path)
    done = _forest(home, repo, "init")
    assert done.returncode != 0
    (line,) = done.stderr.splitlines()
    assert "(GIT_DIR)" in line and "git init" not in line, line
    assert sorted(p.name for p in home.iterdir()) == ["rc.md"]
    fix = line.split("naming it: ", 1)[1]
    assert pasted(home, fix).returncode == 0, fix
    for apart in (repo, None):  # GIT_DIR still exported, or not
        assert _forest(home, apart, "status").returncode != 0  # no custody yet
    assert _forest(home, repo, "init").returncode == 0
    done = _forest(home, None, "adopt", "rc.md#RC/A", "--words", "kept")
    assert done.returncode == 0, done.stderr
    done = _forest(home, repo, "check")
    assert done.returncode == 0 and "1 binding(s)" in done.stdout, done.stdout + done.stderr


def test_project_under_exported_dotfiles_told_to_unset_never_a_git_file_refused(
    tmp_path: Path,
) -> None:
    """A project with a ``.git`` of its own under a ``$HOME`` whose dotfile setup exports
    ``GIT_DIR`` and ``GIT_WORK_TREE``: forest refused (git in that shell names the
    dotfiles) with the fix written for the dotfiles' work tree, a ``printf … >
    $HOME/.git`` that, pasted, made the whole home a work tree and left the project
    refused. The fix is now to unset the two variables; pasted, it works."""
    repo, home = _dotfiles(tmp_path)
    project = home / "proj"
    write(project, "a.md", "# A\n\ntext\n")
    git(project, "init", "-q")
    git(project, "add", "a.md")
    git(project, "commit", "-q", "-m", "a")
    apart = {"GIT_DIR": str(repo), "GIT_WORK_TREE": str(home)}
    env = {**os.environ, **git_env(), **apart}
    done = subprocess.run([FOREST, "init"], cwd=project, env=env, capture_output=True, text=True)
    assert done.returncode != 0
    (line,) = done.stderr.splitlines()
    assert "(GIT_DIR)" in line and "printf" not in line and ".git file" not in line, line
    fix = line.split("judges only the repository a work tree's .git names: ", 1)[1]
    assert fix == "run `unset GIT_DIR GIT_WORK_TREE`, then the command again", fix
    again = pasted(project, "unset GIT_DIR GIT_WORK_TREE && forest init", env=apart)
    assert again.returncode == 0, again.stderr
    assert (project / "forest.toml").is_file() and not (home / ".git").exists()
