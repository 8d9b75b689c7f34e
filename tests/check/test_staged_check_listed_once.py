"""``forest check --staged`` lists the staged files' index entries once, as the hook does.

The index check (check/path.py ``_index``) lists the index for its content source
(the whole index, or the paths it was given). On a failed finding, the conversion
reader (converted.py) listed the failed files again for their staged blobs, and the
conflict reader (conflicts.py) a third time for their stages. They now take the
entries from the content source's listing (content_git.py ``entries_at``), and list
for themselves only when it lacks a path. Counted in process around the real
``gitio.ls_files_stage`` (a wrapper that calls through); the output is compared, byte
for byte, with what the readers' own listings give.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from forest_files.custody.content import GitTreeSource
from tests.helpers.cli import forest
from tests.helpers.git import commit_all, git, pasted, write
from tests.helpers.listings import NOTE, counted_listings, two_notes
from tests.helpers.template import copied_from

FORMS = [("--json",), ("f.md", "g.md")]  # every binding; the paths' alone


repo = copied_from(two_notes)


def _stage_drift(repo: Path) -> None:
    write(repo, "f.md", NOTE.replace("words of a", "other words"))
    write(repo, "g.md", NOTE.replace("words of b", "other words"))
    git(repo, "add", "f.md", "g.md")


@pytest.mark.parametrize("form", FORMS, ids=["whole-index", "paths"])
def test_check_staged_lists_failed_files_once_detected(
    repo: Path, monkeypatch: pytest.MonkeyPatch, form: tuple[str, ...]
) -> None:
    _stage_drift(repo)
    calls = counted_listings(monkeypatch)
    result = forest(repo, "check", "--staged", *form)
    assert result.exit_code == 1, result.stdout
    assert "f.md#A" in result.stdout and "g.md#B" in result.stdout, result.stdout
    staged = [c for c in calls if {"f.md", "g.md"} & set(c)]  # not the ledger's
    whole = [c for c in calls if c == ("",)]
    # the content source's one listing of the whole index (the paths given too); none
    # after it (before: the failed files listed twice more, for their blobs and stages)
    assert (staged, whole) == ([], [("",)]), calls


def _stage_markers(repo: Path) -> None:
    """f.md in a real merge conflict, its markers then staged (``git add``); g.md
    drifted beside it."""
    git(repo, "checkout", "-q", "-b", "side")
    write(repo, "f.md", NOTE.replace("words of a", "side words"))
    commit_all(repo, "side")
    git(repo, "checkout", "-q", "-")
    write(repo, "f.md", NOTE.replace("words of a", "main words"))
    commit_all(repo, "main")
    assert pasted(repo, "git merge -q side").returncode != 0
    git(repo, "add", "f.md")
    write(repo, "g.md", NOTE.replace("words of b", "other words"))
    git(repo, "add", "g.md")


def _stage_unmerged(repo: Path) -> None:
    """f.md left unmerged in the index (stages 1, 2, 3)."""
    _stage_markers(repo)
    git(repo, "checkout", "-m", "--", "f.md")


def _stage_symlink(repo: Path) -> None:
    (repo / "f.md").unlink()
    (repo / "f.md").symlink_to("g.md")
    git(repo, "add", "f.md")


def _stage_converted(repo: Path) -> None:
    write(repo, ".gitattributes", "f.md text eol=lf\n")
    write(repo, "f.md", NOTE.replace("words of a", "other words").replace("\n", "\r\n"))
    git(repo, "add", ".gitattributes", "f.md")


@pytest.mark.parametrize("form", FORMS, ids=["whole-index", "paths"])
@pytest.mark.parametrize(
    "stage", [_stage_markers, _stage_unmerged, _stage_symlink, _stage_converted]
)
def test_check_staged_words_same_as_readers_own_listings_accepted(
    repo: Path,
    monkeypatch: pytest.MonkeyPatch,
    stage: Callable[[Path], None],
    form: tuple[str, ...],
) -> None:
    """``forest check --staged`` prints, byte for byte, what it printed when each
    reader listed the index itself (``entries_at`` answering None)."""
    stage(repo)
    shared = forest(repo, "check", "--staged", *form)
    assert shared.exit_code == 1, shared.stdout
    with monkeypatch.context() as m:
        m.setattr(GitTreeSource, "entries_at", lambda self, paths: None)
        own = forest(repo, "check", "--staged", *form)
    assert (shared.exit_code, shared.stdout, shared.stderr) == (
        own.exit_code,
        own.stdout,
        own.stderr,
    )
