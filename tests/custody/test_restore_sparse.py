"""``forest restore`` of a bound file a sparse checkout leaves out (skip-worktree,
not in the work tree) is refused, nothing written, with the route that brings the
file into the sparse set and restores it, which works pasted. Before: a section's
refusal named ``git checkout -- PATH`` (git refuses it: "did not match any file(s)
known to git"), and a whole file was written again outside the sparse set (behind
``mkdir -p DIR``), where ``git sparse-checkout reapply`` removes it again and, with
``sparse.expectFilesOutsideOfPatterns``, git never sees it at all."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.cli import forest, kinds, ok
from tests.helpers.git import commit_all, git, make_repo, pasted, write

SECTION = "canon/c.md#C/A"
WHOLE = "canon/w.md"


@pytest.fixture
def sparse(tmp_path: Path) -> Path:
    """``canon/c.md#C/A`` and the whole ``canon/w.md`` bound; the checkout's cone is
    ``docs`` and ``.forest``: ``canon/`` is not in the work tree."""
    repo = make_repo(tmp_path)
    ok(repo, "init")
    write(repo, "canon/c.md", "# C\n\n## A\n\ncanon\n")
    write(repo, WHOLE, "whole\n")
    write(repo, "docs/d.md", "# D\n")
    commit_all(repo, "start")
    ok(repo, "adopt", SECTION, WHOLE, "--words", "first")
    commit_all(repo, "adopt")
    git(repo, "sparse-checkout", "set", "--cone", "docs", ".forest")
    assert not (repo / "canon").exists()
    return repo


def _tree(repo: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(repo)): p.read_bytes()
        for p in sorted(repo.rglob("*"))
        if p.is_file() and ".git" not in p.relative_to(repo).parts
    }


@pytest.mark.parametrize("target", [SECTION, WHOLE])
def test_restore_outside_sparse_checkout_refused(sparse: Path, target: str) -> None:
    before = _tree(sparse)
    index = (sparse / ".git" / "index").read_bytes()
    done = forest(sparse, "restore", target)
    assert done.exit_code == 1, done.output
    (line,) = done.stderr.splitlines()
    assert line.startswith("forest: canon/") and "sparse checkout leaves" in line, line
    assert "git checkout" not in line and "mkdir" not in line
    assert _tree(sparse) == before and (sparse / ".git" / "index").read_bytes() == index
    route = line.rsplit("`", 2)[1]
    pasted_in = pasted(sparse, route)
    assert pasted_in.returncode == 0, pasted_in.stderr
    assert (sparse / "canon" / "c.md").exists()
    assert git(sparse, "ls-files", "-t", "--", "canon").split() == ["H", "canon/c.md", "H", WHOLE]
    assert set(kinds(sparse)) == {"clean"}


def test_restore_skip_worktree_without_sparse_checkout_refused(tmp_path: Path) -> None:
    """The flag set by hand (``git update-index --skip-worktree``), no sparse checkout:
    ``git checkout -- PATH`` does not bring the file back either; the route clears the
    flag first."""
    repo = make_repo(tmp_path)
    ok(repo, "init")
    write(repo, "c.md", "# C\n\n## A\n\ncanon\n")
    commit_all(repo, "start")
    ok(repo, "adopt", "c.md#C/A", "--words", "first")
    commit_all(repo, "adopt")
    git(repo, "update-index", "--skip-worktree", "--", "c.md")
    (repo / "c.md").unlink()
    done = forest(repo, "restore", "c.md#C/A")
    assert done.exit_code == 1 and not (repo / "c.md").exists()
    route = done.stderr.strip().rsplit("`", 2)[1]
    assert route.startswith("git update-index --no-skip-worktree -- c.md && "), route
    assert pasted(repo, route).returncode == 0
    assert (repo / "c.md").exists() and set(kinds(repo)) == {"clean"}
