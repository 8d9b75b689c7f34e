"""A hard-linked file (link count over 1) is refused at adoption like a symlink:
another name for the same inode could change bound text unseen. A glob matching
it is refused naming it (it passed over it without a word); a file of its own is
adopted."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from forest_files.custody.repository import Repository
from tests.helpers.cli import forest, ok
from tests.helpers.git import make_repo, write

BY = "Ada Lovelace <ada@example.org>"
TEXT = "Hard-linked words stay out of custody."


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = make_repo(tmp_path)
    Repository.init(root, project_id="p-links").close()
    write(root, "docs/a.md", f"# A\n\n{TEXT}\n")
    write(root, "docs/b.md", "# B\n\nA file of its own.\n")
    os.link(root / "docs/a.md", tmp_path / "elsewhere.md")  # outside the repository
    return root


def _ledger(root: Path) -> list[str]:
    return sorted(str(p) for p in (root / ".forest" / "ledger").rglob("*"))


def test_adopt_hard_linked_file_refused(root: Path) -> None:
    before = _ledger(root)
    for target in ("docs/a.md", "docs/a.md#A"):
        result = forest(root, "adopt", target, "--words", "adopt it", "--as", BY)
        assert result.exit_code == 1, result.stdout
        assert result.stderr.startswith("forest: docs/a.md: is hard-linked (2 names")
        assert len(result.stderr.splitlines()) == 1 and TEXT not in result.stderr
    assert _ledger(root) == before


def test_adopt_glob_matching_hard_linked_file_refused(root: Path) -> None:
    """A glob passed over a hard-linked file without a word: the user believed it in
    custody, and its edits were committed unchecked. The adoption is refused naming
    it (all or nothing, as for a name the ledger cannot hold); narrowed, it goes."""
    before = _ledger(root)
    result = forest(root, "adopt", "docs/*.md", "--words", "the docs", "--as", BY)
    assert result.exit_code == 1, result.stdout
    (line,) = result.stderr.splitlines()
    assert line.startswith("forest: docs/a.md: matched by docs/*.md, but it is hard-linked"), line
    assert "narrow the glob" in line and TEXT not in line
    assert _ledger(root) == before
    ok(root, "adopt", "docs/b*.md", "--words", "the docs of their own", "--as", BY)
    with Repository(root) as r:
        from forest_files.custody.bindings import all_bindings

        assert sorted(b.path for b in all_bindings(r.synced())) == ["docs/b.md"]


def test_adopt_after_link_broken_accepted(root: Path, tmp_path: Path) -> None:
    (tmp_path / "elsewhere.md").unlink()
    ok(root, "adopt", "docs/a.md", "--words", "a file of its own now", "--as", BY)
