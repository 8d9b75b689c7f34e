"""A failing hook lists the staged paths' index entries once (content_git.py
``entries_at``), and its later readers answer as their own listings did.

The hook's content source lists the staged paths (``git ls-files -s``). On a failed
finding, the conversion reader (converted.py) listed the failed files again for their
staged blobs, and the conflict reader (conflicts.py) a third time for their stages:
three listings of the same entries. The entries the first listing holds now answer
both; each reader lists for itself only when they do not (None). The answers are
checked against the readers' own listings for each shape an index entry takes: the
three stages of a conflict, a symlink, a gitlink, an intent-to-add entry, a
skip-worktree entry, names differing only in case or Unicode form, a directory.
Counted in process around the real ``gitio.ls_files_stage`` (a wrapper that calls
through); the hook's words are compared with those of the readers' own listings.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest

from forest_files import gitio
from forest_files.custody.content import GitTreeSource
from forest_files.doors.hooks.run import main as hook
from tests.helpers.git import commit_all, git, make_repo, pasted, write
from tests.helpers.listings import NOTE, counted_listings, two_notes
from tests.helpers.template import copied_from

NFC = unicodedata.normalize("NFC", "café.md")
NFD = unicodedata.normalize("NFD", "café.md")


repo = copied_from(two_notes)


def test_failing_hook_lists_staged_paths_once_accepted(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    write(repo, "f.md", NOTE.replace("words of a", "other words"))
    write(repo, "g.md", NOTE.replace("words of b", "other words"))
    git(repo, "add", "f.md", "g.md")
    calls = counted_listings(monkeypatch)
    monkeypatch.chdir(repo)
    assert hook(["pre-commit"]) == 1
    err = capsys.readouterr().err
    assert "drifted f.md#A" in err and "drifted g.md#B" in err, err
    staged = [c for c in calls if {"f.md", "g.md"} & set(c)]  # not the ledger's (cold views)
    assert staged == [("f.md", "g.md")], calls  # the content's listing; none after it


def _hook_words(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str]:
    monkeypatch.chdir(repo)
    code = hook(["pre-commit"])
    return code, capsys.readouterr().err


def _stage_markers(repo: Path) -> None:
    """f.md in a real merge conflict, its markers then staged (``git add``)."""
    git(repo, "checkout", "-q", "-b", "side")
    write(repo, "f.md", NOTE.replace("words of a", "side words"))
    commit_all(repo, "side")
    git(repo, "checkout", "-q", "-")
    write(repo, "f.md", NOTE.replace("words of a", "main words"))
    commit_all(repo, "main")
    assert pasted(repo, "git merge -q side").returncode != 0
    git(repo, "add", "f.md")


def _stage_symlink(repo: Path) -> None:
    (repo / "f.md").unlink()
    (repo / "f.md").symlink_to("g.md")
    git(repo, "add", "f.md")


def _stage_gitlink(repo: Path) -> None:
    head = git(repo, "rev-parse", "HEAD")
    git(repo, "rm", "-q", "--cached", "f.md")
    git(repo, "update-index", "--add", "--cacheinfo", f"160000,{head},f.md")


def _stage_case_rename(repo: Path) -> None:
    git(repo, "mv", "f.md", "F.md")


def _stage_drift_beside_intent_and_skip(repo: Path) -> None:
    write(repo, "f.md", NOTE.replace("words of a", "other words"))
    write(repo, "g.md", NOTE.replace("words of b", "other words"))
    write(repo, "new.md", "new\n")
    git(repo, "add", "f.md", "g.md")
    git(repo, "add", "-N", "new.md")
    git(repo, "update-index", "--skip-worktree", "g.md")


def _stage_converted(repo: Path) -> None:
    write(repo, ".gitattributes", "f.md text eol=lf\n")
    write(repo, "f.md", NOTE.replace("words of a", "other words").replace("\n", "\r\n"))
    git(repo, "add", ".gitattributes", "f.md")


@pytest.mark.parametrize(
    "stage",
    [
        _stage_markers,
        _stage_symlink,
        _stage_gitlink,
        _stage_case_rename,
        _stage_drift_beside_intent_and_skip,
        _stage_converted,
    ],
)
def test_hook_words_same_as_readers_own_listings_accepted(
    repo: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    stage: object,
) -> None:
    """The hook's report, byte for byte, is what it was when each reader listed the
    index itself (``entries_at`` answering None: the readers' own listings)."""
    assert callable(stage)
    stage(repo)
    shared = _hook_words(repo, monkeypatch, capsys)
    assert shared[0] == 1, shared[1]
    with monkeypatch.context() as m:
        m.setattr(GitTreeSource, "entries_at", lambda self, paths: None)
        own = _hook_words(repo, monkeypatch, capsys)
    assert shared == own


@pytest.fixture
def shapes(tmp_path: Path) -> Path:
    """An index holding each shape of entry: a conflict's three stages (c.md), a
    symlink, a gitlink, an intent-to-add entry, a skip-worktree entry, two names
    differing by case and two by Unicode form, and a directory (d/)."""
    root = make_repo(tmp_path)
    write(root, "c.md", "base\n")
    for name in ("Case.md", "case.md", NFC, NFD, "d/x.md", "skip.md"):
        write(root, name, f"{name}\n")
    (root / "link").symlink_to("c.md")
    commit_all(root, "base")
    git(root, "checkout", "-q", "-b", "side")
    write(root, "c.md", "side\n")
    commit_all(root, "side")
    git(root, "checkout", "-q", "-")
    write(root, "c.md", "main\n")
    commit_all(root, "main")
    assert pasted(root, "git merge -q side").returncode != 0
    head = git(root, "rev-parse", "HEAD")
    git(root, "update-index", "--add", "--cacheinfo", f"160000,{head},sub")
    write(root, "ita.md", "intent\n")
    git(root, "add", "-N", "ita.md")
    git(root, "update-index", "--skip-worktree", "skip.md")
    return root


ASKED = ("c.md", "link", "sub", "ita.md", "skip.md", "Case.md", "case.md", NFC, NFD, "d", "gone.md")


def _own(root: Path, paths: tuple[str, ...]) -> set[gitio.TreeEntry]:
    """What a reader's own listing of ``paths`` holds at exactly those paths."""
    listed = gitio.ls_files_stage(root, paths=paths, keep_index_file=True)
    return {e for e in listed if e.path in paths}


@pytest.mark.parametrize("only", [ASKED, ()], ids=["hook-listing", "whole-index"])
def test_entries_at_same_as_own_listing_every_shape_accepted(
    shapes: Path, only: tuple[str, ...]
) -> None:
    source = GitTreeSource(shapes, keep_index_file=True, only=only)
    for asked in [ASKED, *((p,) for p in ASKED)]:
        got = source.entries_at(asked)
        assert got is not None, asked
        assert len(got) == len(set(got)), got  # each entry once
        assert set(got) == _own(shapes, asked), asked
    stages = {e.stage for e in source.entries_at(["c.md"]) or []}
    assert stages == {1, 2, 3}
    modes = {e.path: e.mode for e in source.entries_at(["link", "sub"]) or []}
    assert modes == {"link": "120000", "sub": "160000"}


def test_entries_at_unlisted_path_or_commit_none_refused(shapes: Path) -> None:
    """A path the listing did not name, or a commit's tree: the reader lists itself."""
    source = GitTreeSource(shapes, keep_index_file=True, only=("c.md",))
    assert source.entries_at(["c.md", "link"]) is None
    assert GitTreeSource(shapes, rev="HEAD", only=("c.md",)).entries_at(["c.md"]) is None
