"""``forest rebind`` of one binding given a directory (``git mv a.md notes/``'s
spelling): refused, one line naming the command to give, nothing recorded; never a
binding to a path ending in '/'. A directory move (``docs notes/``) still moves."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, git, make_repo, write

DOC = "# T\n\nx\n\n## H\n\nh\n"


def _repo(tmp_path: Path, *, moved: bool) -> Path:
    repo = make_repo(tmp_path)
    write(repo, "docs/a.md", DOC)
    write(repo, "notes/keep", "k\n")
    ok(repo, "init")
    ok(repo, "adopt", "docs/a.md", "--words", "first")
    ok(repo, "adopt", "docs/a.md#H", "--words", "first")
    commit_all(repo, "adopt")
    if moved:
        git(repo, "mv", "docs/a.md", "notes/a.md")
    return repo


def _ledger(repo: Path) -> dict[str, bytes]:
    folder = repo / ".forest" / "ledger"
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.mark.parametrize("moved", [False, True])
@pytest.mark.parametrize(
    ("old", "new", "given"),
    [
        ("docs/a.md", "notes/", "forest rebind docs/a.md notes/a.md"),
        ("docs/a.md", "notes/a.md/", "forest rebind docs/a.md notes/a.md"),
        ("docs/a.md#H", "notes/", "forest rebind 'docs/a.md#T/H' 'notes/a.md#T/H'"),
        ("docs/a.md#H", "notes/a.md/#H", "'notes/a.md#H'"),
    ],
)
def test_rebind_one_binding_to_directory_refused(
    tmp_path: Path, moved: bool, old: str, new: str, given: str
) -> None:
    repo = _repo(tmp_path, moved=moved)
    before = _ledger(repo)
    result = forest(repo, "rebind", old, new)
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.splitlines()
    assert line.startswith("forest: ") and given in line, line
    assert "rebound" not in result.stdout
    assert _ledger(repo) == before


def test_rebind_directory_without_slash_to_directory_accepted(tmp_path: Path) -> None:
    repo = _repo(tmp_path, moved=True)
    result = forest(repo, "rebind", "docs", "notes/")
    assert result.exit_code == 0, result.output
    assert "rebound docs/a.md -> notes/a.md" in result.stdout


def test_rebind_directory_without_slashes_refused(tmp_path: Path) -> None:
    """``forest rebind docs notes`` (``git mv docs notes`` spelt): one line naming the
    directory move, nothing recorded; before, "no binding (bindings of docs: none)"."""
    repo = _repo(tmp_path, moved=True)
    before = _ledger(repo)
    result = forest(repo, "rebind", "docs", "notes")
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.splitlines()
    assert "docs is a directory holding 2 binding(s)" in line, line
    assert line.endswith("`forest rebind docs/ notes/`"), line
    assert _ledger(repo) == before
    assert "rebound docs/a.md -> notes/a.md" in ok(repo, "rebind", "docs/", "notes/").stdout
