"""``GIT_DISCOVERY_ACROSS_FILESYSTEM`` exported with a value git cannot read as a
boolean (``yes-please``) stops every git command at once; each door that meets it
(``forest check``, ``forest status``, the pre-commit hook of a ``git --git-dir``
commit) says so in one line naming the variable, its value and the ``unset`` that
fixes it, and that fix pasted makes the door run (gitio/discovery.py). Before: "git
rev-parse failed: fatal: bad boolean config value 'yes-please' for
'GIT_DISCOVERY_ACROSS_FILESYSTEM'", git's words with no fix."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.helpers.cli import ok
from tests.helpers.custody import init_and_adopt
from tests.helpers.git import commit_all, git, make_repo, pasted, write

NAME = "GIT_DISCOVERY_ACROSS_FILESYSTEM"
EXPORTED = {NAME: "yes-please"}
UNSET = f"unset {NAME}"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = make_repo(tmp_path)
    write(root, "a.md", "# A\n\n## Keep\n\nKept words.\n")
    init_and_adopt(root, ["a.md#Keep"])
    commit_all(root, "adopt")
    ok(root, "hooks", "install")
    return root


def _one_line(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode != 0, done.stderr
    assert "Traceback" not in done.stderr
    (line,) = done.stderr.splitlines()
    assert f"{NAME} is exported as 'yes-please'" in line, line
    assert f"`{UNSET}`" in line and "export it as 1 or 0" in line, line
    return line


@pytest.mark.parametrize("door", ["forest check", "forest status"])
def test_discovery_across_filesystem_not_boolean_refused(repo: Path, door: str) -> None:
    line = _one_line(pasted(repo, door, env=EXPORTED))
    assert line.startswith("forest: "), line
    fixed = pasted(repo, f"{UNSET}; {door}", env=EXPORTED)  # the fix, pasted
    assert fixed.returncode == 0, fixed.stderr


def test_discovery_across_filesystem_not_boolean_hook_refused(repo: Path) -> None:
    """git finds the repository by ``--git-dir`` (no search), so it runs the hook; the
    hook's own git calls search, and stop."""
    write(repo, "b.md", "new\n")
    git(repo, "add", "b.md")
    head = git(repo, "rev-parse", "HEAD")
    commit = "git --git-dir=.git commit -q -m try"
    _one_line(pasted(repo, commit, env=EXPORTED))
    assert git(repo, "rev-parse", "HEAD") == head  # no commit made
    fixed = pasted(repo, f"{UNSET}; {commit}", env=EXPORTED)
    assert fixed.returncode == 0, fixed.stderr
    assert git(repo, "rev-parse", "HEAD") != head
