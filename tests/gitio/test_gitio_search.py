"""gitio.search: the commits that added files holding hex words, the commit of a range
that added a path, many files at one revision."""

from __future__ import annotations

from pathlib import Path

import pytest

from forest_files import gitio
from tests.helpers.git import commit_all, git, make_repo, write

WORD = "ab" * 32


def test_files_with_word_added_on_any_branch_accepted(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    write(repo, "a.txt", "start\n")
    commit_all(repo, "start")
    git(repo, "checkout", "-q", "-b", "side")
    write(repo, "d/held.txt", f"x {WORD}\n")
    write(repo, "elsewhere.txt", f"{WORD}\n")
    side = commit_all(repo, "side")
    git(repo, "checkout", "-q", "main")
    (added,) = gitio.files_with(repo, [WORD, "cd" * 32], "d")
    assert added.commit == side and added.path == "d/held.txt"
    assert gitio.cat_blobs(repo, [added.blob])[added.blob] == f"x {WORD}\n".encode()
    assert gitio.files_with(repo, [], "d") == []


@pytest.mark.parametrize("word", ["--output=/tmp/x", "ab|.*", "AB" * 32, ""])
def test_files_with_word_not_hex_refused(tmp_path: Path, word: str) -> None:
    repo = make_repo(tmp_path)
    commit_all(repo, "empty")
    with pytest.raises(gitio.UnknownRef):
        gitio.files_with(repo, [word], "d")


def test_first_added_oldest_commit_of_range_accepted(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    base = commit_all(repo, "base")
    write(repo, "x.txt", "1\n")
    first = commit_all(repo, "x")
    write(repo, "y.txt", "2\n")
    commit_all(repo, "y")
    got = gitio.first_added(repo, f"{base}..HEAD", ["x.txt", "missing.txt"])
    assert got == {"x.txt": first}
    assert gitio.blobs_at(repo, "HEAD", ["x.txt", "missing.txt"]) == {
        "x.txt": b"1\n",
        "missing.txt": None,
    }
    with pytest.raises(gitio.UnknownRef):
        gitio.first_added(repo, "--all", ["x.txt"])


def test_files_with_and_first_added_merge_alone_bringing_file_detected(tmp_path: Path) -> None:
    """A merge diffs combined: a file its resolution added (no parent held it) is found
    at the merge; a file it took from a side is found at the side's commit only."""
    repo = make_repo(tmp_path)
    base = commit_all(repo, "base")
    git(repo, "checkout", "-q", "-b", "side")
    write(repo, "d/side.txt", f"{WORD}\n")
    side = commit_all(repo, "side")
    git(repo, "checkout", "-q", "main")
    write(repo, "main.txt", "main\n")
    commit_all(repo, "main")
    git(repo, "merge", "-q", "--no-commit", "side")
    write(repo, "d/evil.txt", f"{WORD} too\n")
    merge = commit_all(repo, "merge side")
    found = {(a.commit, a.path) for a in gitio.files_with(repo, [WORD], "d")}
    assert found == {(merge, "d/evil.txt"), (side, "d/side.txt")}
    got = gitio.first_added(repo, f"{base}..HEAD", ["d/evil.txt", "d/side.txt"])
    assert got == {"d/evil.txt": merge, "d/side.txt": side}


def test_paths_added_exact_path_on_any_branch_accepted(tmp_path: Path) -> None:
    """A path is a name, never a glob: ``d/*.txt`` finds only a file of that name."""
    repo = make_repo(tmp_path)
    commit_all(repo, "start")
    git(repo, "checkout", "-q", "-b", "side")
    write(repo, "d/b.txt", "b\n")
    side = commit_all(repo, "side")
    git(repo, "checkout", "-q", "main")
    (added,) = gitio.paths_added(repo, ["d/b.txt", "d/absent.txt"])
    assert (added.commit, added.path) == (side, "d/b.txt")
    assert gitio.paths_added(repo, ["d/*.txt"]) == []
    assert gitio.paths_added(repo, []) == []
