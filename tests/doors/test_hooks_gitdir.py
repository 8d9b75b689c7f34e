"""A separate git directory (``git --git-dir=X --work-tree=Y``, as vcsh and yadm run
git) is never judged through another repository.

git exports ``GIT_DIR`` to every hook. When it names another repository than the
one the work tree's ``.git`` leads to (here: an outer repository holding the work
tree), the hook and every command refuse in one line that says how to give the work
tree a ``.git`` of its own (kernel/foreign_gitdir.py ``refuse_foreign_git_dir``); pasted,
that fix makes the hook judge the right repository.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from forest_files.doors import hooks as githooks
from tests.helpers.cli import FOREST
from tests.helpers.custody import init_and_adopt
from tests.helpers.git import git, git_env, make_repo, pasted, write

BIN = Path(sys.executable).parent


def _layout(tmp_path: Path) -> tuple[Path, Path, Path]:
    """(outer repository, the project's work tree inside it, its git directory)."""
    outer = make_repo(tmp_path, "home")
    git(outer, "commit", "-q", "--allow-empty", "-m", "outer")
    tree = outer / "proj"
    write(tree, "doc.md", "# Canon\n\nThe sky is green.\n")
    gitdir = tmp_path / "proj.git"
    git(tmp_path, "init", "-q", "--bare", str(gitdir))
    git(gitdir, "config", "core.bare", "false")
    (tree / ".git").write_text(f"gitdir: {gitdir}\n")  # only while custody is set up
    init_and_adopt(tree, ["doc.md"])
    git(tree, "add", "-A")
    git(tree, "commit", "-q", "-m", "init")
    githooks.install(tree)
    (tree / ".git").unlink()
    return outer, tree, gitdir


def _separate(tree: Path, gitdir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **git_env(), "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
    cmd = ["git", f"--git-dir={gitdir}", f"--work-tree={tree}", *args]
    return subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True)


def test_separate_git_dir_inside_another_repo_refused_then_fixed(tmp_path: Path) -> None:
    outer, tree, gitdir = _layout(tmp_path)
    write(tree, "doc.md", "# Canon\n\nThe sky is red.\n")
    proc = _separate(tree, gitdir, "commit", "-q", "-am", "silent edit")
    assert proc.returncode != 0, proc.stderr
    assert "(GIT_DIR)" in proc.stderr and proc.stderr.count("forest-files:") == 1
    assert not (outer / "forest.toml").exists()
    fix = proc.stderr.split("naming it: ", 1)[1].strip()
    assert pasted(tree, fix).returncode == 0
    proc = _separate(tree, gitdir, "commit", "-q", "-am", "silent edit")
    assert proc.returncode == 1 and "drifted" in proc.stderr, proc.stderr


def test_forest_with_foreign_git_dir_writes_nothing_refused(tmp_path: Path) -> None:
    outer, tree, gitdir = _layout(tmp_path)
    env = {**os.environ, **git_env(), "GIT_DIR": str(gitdir), "GIT_WORK_TREE": str(tree)}
    proc = subprocess.run([FOREST, "init"], cwd=tree, env=env, capture_output=True, text=True)
    assert proc.returncode == 1 and "(GIT_DIR)" in proc.stderr, proc.stderr
    assert not (outer / "forest.toml").exists() and not (outer / ".forest").exists()
