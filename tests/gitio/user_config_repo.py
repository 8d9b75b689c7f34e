"""The repository test_user_config.py runs every door on, and the doors' outputs.

main: docs/a.md#A/Keep, notes/b.md and docs/ü.md adopted; forest.toml gives ``**`` to the adopter
and to "Zoë Ärne". feature (HEAD): notes/b.md renamed to notes/c.md, a side branch
merged (no fast-forward), forest.toml's [authority] widened by Zoë (a governed change
its author may make), docs/a.md#A/Keep drifted and staged, docs/ü.md drifted
unstaged, an untracked file in src/sub/.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from forest_files.doors.cli import app
from tests.helpers.cli import forest
from tests.helpers.custody import init_and_adopt
from tests.helpers.git import git, git_env, make_repo, write

ZOE = {"GIT_AUTHOR_NAME": "Zoë Ärne", "GIT_COMMITTER_NAME": "Zoë Ärne"}
DOC = "# A\n\n## Keep\n\nKept words.\n\n## Other\n\nOther words.\n"
TOML = (
    '[project]\nid = "p"\n\n[authority]\n'
    '"**" = ["t <t@example.org>", "Zoë Ärne <author@example.org>"]\n'
)

# (door, exit code, stdout, stderr) of each door, in order.
Run = list[tuple[str, int, str, str]]

DOORS: list[tuple[str, ...]] = [
    ("check",),
    ("check", "--staged"),
    ("status", "--json"),
    ("ci", "--base", "main", "--format", "json"),
    ("verify", "--base", "main"),
]


def built(home: Path) -> Path:
    root = make_repo(home)
    write(root, "docs/a.md", DOC)
    write(root, "notes/b.md", "# B\n\nWhole file bound.\n")
    write(root, "src/sub/x.txt", "x\n")
    write(root, "docs/ü.md", "# Ü\n\nWhole file bound.\n")
    write(root, "ORDER", "src/*\nnotes/*\n")
    init_and_adopt(root, ["docs/a.md#Keep", "notes/b.md", "docs/ü.md"])
    write(root, "forest.toml", TOML)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "adopt")
    git(root, "checkout", "-q", "-b", "feature")
    git(root, "mv", "notes/b.md", "notes/c.md")
    git(root, "commit", "-q", "-m", "move b", env=ZOE)
    git(root, "checkout", "-q", "-b", "side")
    write(root, "docs/a.md", DOC.replace("Other words.", "Other words, changed."))
    git(root, "commit", "-qam", "side edit", env=ZOE)
    git(root, "checkout", "-q", "feature")
    write(root, "src/sub/x.txt", "x2\n")
    write(root, "forest.toml", TOML + '"docs/**" = ["Zoë Ärne <author@example.org>"]\n')
    git(root, "commit", "-qam", "feature edit", env=ZOE)
    git(root, "merge", "-q", "--no-ff", "-m", "merge side", "side", env=ZOE)
    drifted = DOC.replace("Other words.", "Other words, changed.").replace("Kept", "Drifted")
    write(root, "docs/a.md", drifted)
    git(root, "add", "docs/a.md")
    write(root, "docs/ü.md", "# Ü\n\nWhole file bound, drifted.\n")
    write(root, "src/sub/y.txt", "untracked\n")
    return root


def doors(root: Path, env: dict[str, str], *, drop: tuple[str, ...] = ()) -> Run:
    """Every door's output on ``root``; ``env``: the variables of the test's setting,
    for the hook's ``git commit`` (a process of its own); ``drop``: variables of the
    fixed test git it runs without. A door that refuses to install the hook is one
    more output (and no commit is tried)."""
    out: Run = []
    for args in DOORS:
        done = forest(root, *args)
        out.append((" ".join(args), done.exit_code, done.stdout, done.stderr))
    done = forest(root / "docs", "ci", "--base", "main", "--format", "json")
    out.append(("ci --repo docs", done.exit_code, done.stdout, done.stderr))
    here = os.getcwd()
    os.chdir(root / "src" / "sub")
    try:
        done = CliRunner().invoke(app, ["check"])
    finally:
        os.chdir(here)
    out.append(("check in src/sub", done.exit_code, done.stdout, done.stderr))
    installed = forest(root, "hooks", "install")
    if installed.exit_code != 0:
        out.append(("hooks install", installed.exit_code, installed.stdout, installed.stderr))
        return out
    hook = _pasted(root, "git commit -q -m try", env, drop)
    out.append(("git commit", hook.returncode, hook.stdout, hook.stderr))
    return out


def _pasted(
    root: Path, command: str, env: dict[str, str], drop: tuple[str, ...]
) -> subprocess.CompletedProcess[str]:
    """``command`` typed into bash in ``root`` (tests/helpers/git.py ``pasted``) with
    the fixed test git less ``drop``."""
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    full = {**os.environ, **git_env(), "PATH": path, **env}
    for name in drop:
        full.pop(name, None)
    return subprocess.run(
        ["bash", "-c", command], cwd=root, env=full, capture_output=True, text=True, check=False
    )
