"""``forest init`` writes all of its files or none (custody/repo_init.py).

Real repositories. A file init must write that cannot be written (made
immutable with ``chattr +i``: the tests may run as root, for whom permissions
are no bar) is refused with one ``forest:`` line naming it, and every file is
left as it was; a user's own lines in ``.forest/.gitignore`` are kept.
"""

from __future__ import annotations

import hashlib
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.helpers.cli import forest
from tests.helpers.git import commit_all, make_repo, write


def _tree(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".git" not in p.relative_to(root).parts[:1]
    }


@contextmanager
def immutable(path: Path) -> Iterator[None]:
    """``path`` immutable while the block runs (skips where chattr cannot)."""
    done = subprocess.run(["chattr", "+i", str(path)], capture_output=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"chattr +i is not available here: {done.stderr.decode().strip()}")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], capture_output=True, check=False)


def test_init_gitattributes_cannot_be_written_nothing_left_refused(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    write(repo, "c.md", "# C\n")
    write(repo, ".gitattributes", "*.png binary\n")
    commit_all(repo, "base")
    before = _tree(repo)
    with immutable(repo / ".gitattributes"):
        result = forest(repo, "init")
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.splitlines()
    assert line.startswith("forest: .gitattributes cannot be written"), line
    assert "nothing was set up" in line
    assert "internal error" not in line
    assert _tree(repo) == before
    assert not (repo / ".forest").exists() and not (repo / "forest.toml").exists()
    assert forest(repo, "init").exit_code == 0  # once writable, init goes through


def test_init_keeps_the_users_own_gitignore_lines_accepted(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    write(repo, ".forest/.gitignore", "mine\n")
    assert forest(repo, "init").exit_code == 0
    lines = (repo / ".forest" / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert lines[0] == "mine" and "woods.db*" in lines


def test_init_empty_project_id_refused(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    result = forest(repo, "init", "--project-id", " ")
    assert result.exit_code == 1
    assert "--project-id is empty" in result.stderr
    assert _tree(repo) == {}
