"""``GitTreeSource(only=…)`` at the git index (a hook judging a few paths) lists those
paths with one ``git ls-files`` however many it names (up to 20), not one per path,
and answers for each of them as the whole index's listing does: its bytes, what
stands there instead of a file (a symlink, a folder, a conflicted path read as
absent) and how a missing path's name differs from one git records."""

from __future__ import annotations

import os
import unicodedata
from pathlib import Path

import pytest

from forest_files.custody.content import GitTreeSource
from forest_files.gitio import content as gitio_content
from tests.helpers.git import commit_all, conflicted_merge, git, make_repo, write

CAFE = unicodedata.normalize("NFD", "café.md")  # recorded decomposed


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = make_repo(tmp_path)
    write(root, "seed.md", "seed\n")
    commit_all(root, "seed")
    for i in range(8):
        write(root, f"notes/n{i}.md", f"note {i}\n")
    write(root, "docs/Guide.md", "guide\n")
    write(root, "docs/guide-old.md", "older\n")
    write(root, "folder/inner/deep.md", "deep\n")
    write(root, f"names/{CAFE}", "accent\n")
    os.symlink("seed.md", root / "link.md")
    commit_all(root, "files")
    conflicted_merge(root)  # notes.md unmerged: stages 2 and 3 in the index
    write(root, "staged.md", "only in the index\n")
    git(root, "add", "staged.md")
    return root


ASKED = (
    "notes/n3.md",
    "staged.md",
    "link.md",
    "notes.md",  # in conflict
    "folder",  # a folder where a file was bound
    "folder/inner",
    "docs/guide.md",  # missing: Guide.md differs in case
    unicodedata.normalize("NFC", "names/café.md"),  # missing: another normalisation
    "gone.md",
    "notes/n0.md",
    "seed.md",
    "notes/n7.md",
)


def test_index_only_paths_one_listing_same_answers_accepted(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole = GitTreeSource(root, keep_index_file=True)
    calls: list[list[str]] = []
    real = gitio_content.run_git

    def run_git(repo: Path | str, args: list[str], **kw: bool) -> object:
        calls.append(args)
        return real(repo, args, **kw)

    monkeypatch.setattr(gitio_content, "run_git", run_git)
    few = GitTreeSource(root, keep_index_file=True, only=ASKED)
    assert [a[0] for a in calls] == ["ls-files"], calls  # one listing, not one per path
    for path in ASKED:
        assert few.read(path) == whole.read(path), path
        assert few.special(path) == whole.special(path), path
    for path in ASKED:
        assert few.variant(path) == whole.variant(path), path
    assert few.read("staged.md") == b"only in the index\n"
    assert few.special("link.md") == "symlink" and few.special("folder") == "directory"
    assert few.read("notes.md") is None
    assert few.variant("docs/guide.md") is not None
    assert few.variant(unicodedata.normalize("NFC", "names/café.md")) is not None


def test_commit_only_paths_one_listing_same_answers_accepted(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At a commit (the CI gate's few bound files of each commit) the paths are listed
    with one ``git ls-tree`` (gitio/tree_paths.py), not one per path."""
    from forest_files import gitio
    from forest_files.gitio import tree_paths

    commit = git(root, "rev-parse", "HEAD")
    whole = GitTreeSource(root, rev=commit)
    gitio.forget_read_objects()
    calls: list[list[str]] = []
    for module in (gitio_content, tree_paths):
        real = module.run_git

        def run_git(repo: Path | str, args: list[str], _real=real, **kw: bool) -> object:
            calls.append(args)
            return _real(repo, args, **kw)

        monkeypatch.setattr(module, "run_git", run_git)
    few = GitTreeSource(root, rev=commit, only=ASKED)
    assert [a[0] for a in calls] == ["ls-tree"], calls  # one listing, not one per path
    for path in ASKED:
        assert few.read(path) == whole.read(path), path
        assert few.special(path) == whole.special(path), path
    for path in ASKED:
        assert few.variant(path) == whole.variant(path), path
    assert few.read("notes.md") == b"main\n" and few.read("staged.md") is None
    assert few.special("link.md") == "symlink" and few.special("folder") == "directory"
    assert few.variant("docs/guide.md") is not None
