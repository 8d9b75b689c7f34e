"""The rename ranking and the bound-there reader take a staged file from the check's
own listing of the index, not from a listing of that file alone each.

A failing hook (or ``forest check --staged``) with a bound heading renamed: its
finding's candidates are ranked (renames.py) and a heading another binding holds is
named (bound_there.py), each reading the file where the check looked. Each read
built a source of its own, one ``git ls-files -s`` of the path; the check's content
source (content_git.py ``lists``) now serves the paths it listed. Counted in process
around the real ``gitio.ls_files_stage``; the words compared, byte for byte, with
those of the per-path reads.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from forest_files.custody.content import GitTreeSource
from forest_files.doors.hooks.run import main as hook
from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, git, make_repo, write
from tests.helpers.listings import counted_listings
from tests.helpers.template import copied_from

ELIAS = "## Elias\n\nElias is a smith.\nHe lives by the sea.\nHe has two brothers.\n"
MARA = "## Mara\n\nMara is a weaver.\nShe sings at night.\nShe keeps bees.\n"
CANON = f"# Canon\n\n{ELIAS}\n{MARA}"


def _build(where: Path) -> Path:
    root = make_repo(where)
    ok(root, "init")
    write(root, "canon.md", CANON)
    commit_all(root, "init")
    ok(root, "adopt", "canon.md#Canon/Elias", "canon.md#Canon/Mara", "--words", "Adopted")
    commit_all(root, "adopt")
    return root


repo = copied_from(_build)


def _renamed_onto_bound(repo: Path) -> None:
    """Elias renamed Mara, Mara's own section gone: bound_there reads canon.md."""
    write(repo, "canon.md", "# Canon\n\n" + ELIAS.replace("## Elias", "## Mara"))
    git(repo, "add", "canon.md")


def _renamed_twice(repo: Path) -> None:
    """Elias's heading gone, two near names in its place: its candidates ranked."""
    twin = ELIAS.replace("## Elias", "## Elias Smith")
    other = ELIAS.replace("## Elias", "## Elias Jones").replace("sea", "hills")
    write(repo, "canon.md", f"# Canon\n\n{twin}\n{other}\n{MARA}")
    git(repo, "add", "canon.md")


def _hook(repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> str:
    monkeypatch.chdir(repo)
    assert hook(["pre-commit"]) == 1
    return capsys.readouterr().err


STAGES = [_renamed_onto_bound, _renamed_twice]


@pytest.mark.parametrize("stage", STAGES)
def test_failing_hook_reads_renamed_file_from_its_listing_detected(
    repo: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    stage: Callable[[Path], None],
) -> None:
    stage(repo)
    calls = counted_listings(monkeypatch)
    err = _hook(repo, monkeypatch, capsys)
    assert "canon.md#Canon/Elias" in err, err
    staged = [c for c in calls if "canon.md" in c]
    assert staged == [("canon.md",)], calls  # the hook's own listing; none per read


@pytest.mark.parametrize("stage", STAGES)
def test_check_staged_reads_renamed_file_from_its_listing_detected(
    repo: Path, monkeypatch: pytest.MonkeyPatch, stage: Callable[[Path], None]
) -> None:
    stage(repo)
    calls = counted_listings(monkeypatch)
    result = forest(repo, "check", "--staged", "--json")
    assert result.exit_code == 1, result.stdout
    assert [c for c in calls if "canon.md" in c] == [], calls  # the whole index, once
    assert calls.count(("",)) == 1, calls


@pytest.mark.parametrize("stage", STAGES)
def test_words_same_as_per_path_reads_accepted(
    repo: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    stage: Callable[[Path], None],
) -> None:
    """The hook's and ``check --staged``'s words, byte for byte, are those the per-path
    reads give (``lists`` answering False)."""
    stage(repo)
    shared = (_hook(repo, monkeypatch, capsys), forest(repo, "check", "--staged").stdout)
    with monkeypatch.context() as m:
        m.setattr(GitTreeSource, "lists", lambda self, path: False)
        own = (_hook(repo, monkeypatch, capsys), forest(repo, "check", "--staged").stdout)
    assert shared == own
    assert "canon.md#Canon/Elias" in shared[1], shared
