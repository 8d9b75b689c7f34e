"""``ls_tree_each``: a few paths of a commit's tree from one ``git ls-tree``, each path's
entries exactly what ``ls_tree`` of that path alone gives (same entries, same order)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from forest_files import gitio
from forest_files.gitio import content as gitio_content
from forest_files.gitio import tree_paths
from tests.helpers.git import commit_all, make_repo, write

ASKED = [
    "notes/n3.md",
    "notes",  # a folder, as a name
    "notes/",  # a folder only
    "top.md/",  # a file named as a folder: nothing
    "notes/n",  # a prefix of names, not a path: nothing
    "gone.md",
    "folder/inner",
    "link.md",
    "with space.md",
    "ünïcödé/ファイル.md",
    "tab\there.md",
    "star*.md",  # a glob character, taken literally
    "notes/n3.md",  # asked twice
    "notesx.md",
]


@pytest.fixture
def root(tmp_path: Path) -> tuple[Path, str]:
    root = make_repo(tmp_path)
    for i in range(5):
        write(root, f"notes/n{i}.md", f"note {i}\n")
    for name in ("top.md", "notesx.md", "with space.md", "ünïcödé/ファイル.md", "tab\there.md"):
        write(root, name, f"{name}\n")
    write(root, "star*.md", "star\n")
    write(root, "starry.md", "not the star\n")
    write(root, "folder/inner/deep.md", "deep\n")
    write(root, "folder/other.md", "other\n")
    os.symlink("top.md", root / "link.md")
    return root, commit_all(root, "files")


def _counted(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    calls: list[list[str]] = []
    for module in (gitio_content, tree_paths):
        real = module.run_git

        def run_git(repo: Path | str, args: list[str], _real=real, **kw: object) -> object:
            calls.append(list(args))
            return _real(repo, args, **kw)

        monkeypatch.setattr(module, "run_git", run_git)
    return calls


@pytest.mark.parametrize("rev", ["commit", "HEAD"])
def test_ls_tree_each_many_paths_one_listing_same_entries_accepted(
    root: tuple[Path, str], rev: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, commit = root
    at = commit if rev == "commit" else "HEAD"
    gitio.forget_read_objects()
    alone = [gitio.ls_tree(repo, at, p) for p in ASKED]
    assert alone[0] and alone[1] and alone[6] and not alone[3] and not alone[4]
    gitio.forget_read_objects()
    calls = _counted(monkeypatch)
    assert gitio.ls_tree_each(repo, at, ASKED) == alone
    assert [a[0] for a in calls] == ["ls-tree"], calls  # one listing, not one per path
    calls.clear()
    assert gitio.ls_tree_each(repo, at, ASKED) == alone
    assert len(calls) == (0 if rev == "commit" else 1)  # a commit id's listing is kept
    calls.clear()
    assert [gitio.ls_tree(repo, at, p) for p in ASKED] == alone  # kept as ls_tree keeps it
    assert len(calls) == (0 if rev == "commit" else len(ASKED))


@pytest.mark.parametrize("odd", ["", "./notes", "notes//n1.md", "../x.md", "/top.md"])
def test_ls_tree_each_path_not_plain_listed_alone_accepted(
    root: tuple[Path, str], odd: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, commit = root
    asked = ["top.md", odd, "notes"]
    gitio.forget_read_objects()
    try:
        alone: object = [gitio.ls_tree(repo, commit, p) for p in asked]
    except gitio.UnknownRef as exc:
        alone = str(exc)
    gitio.forget_read_objects()
    calls = _counted(monkeypatch)
    try:
        got: object = gitio.ls_tree_each(repo, commit, asked)
    except gitio.UnknownRef as exc:
        got = str(exc)
    assert got == alone
    for args in calls:  # each path its own listing, as before
        assert "--" not in args or len(args) - args.index("--") == 2, args


def test_ls_tree_each_case_blind_pathspecs_read_literally_accepted(
    root: tuple[Path, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An inherited ``GIT_ICASE_PATHSPECS`` (git would match names otherwise) is
    dropped: each path is the literal name it is without it, alone or together (git
    refused the variable beside ``--literal-pathspecs`` until forest dropped it)."""
    repo, commit = root
    asked = ["NOTES", "Top.md", "folder", "top.md"]
    gitio.forget_read_objects()
    without = [gitio.ls_tree(repo, commit, p) for p in asked]
    assert without[0] == [] and without[1] == [] and without[3] != []
    monkeypatch.setenv("GIT_ICASE_PATHSPECS", "1")
    gitio.forget_read_objects()
    assert [gitio.ls_tree(repo, commit, p) for p in asked] == without
    gitio.forget_read_objects()
    assert gitio.ls_tree_each(repo, commit, asked) == without


def test_ls_tree_each_unknown_revision_refused(root: tuple[Path, str]) -> None:
    repo, _ = root
    with pytest.raises(gitio.UnknownRef, match="does not name a tree"):
        gitio.ls_tree_each(repo, "no-such-branch", ["top.md", "notes"])
