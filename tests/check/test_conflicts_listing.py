"""The conflict reader at the hook: the git index listed once, markers still found.

On a commit that moves many bound files, every moved finding asks whether its file
is in a merge conflict (conflicts.py ``in_conflict``). Past 20 paths the reader
listed the whole git index again (``git ls-files -s``), after the hook's own
listing; it lists only the paths it reads, once, for their unmerged stages too (a
``git ls-files -u`` read the index a third time). Counted in process around the real
``gitio`` functions (wrappers that call through).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forest_files import gitio
from forest_files.check import explain_routes
from forest_files.check.conflicts import CONFLICT_DETAIL
from forest_files.doors.hooks.run import main as hook
from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, git, make_repo, pasted, write
from tests.helpers.template import copied_from

FILES = 25  # past the 20 paths a GitTreeSource lists one by one
CONFLICT = "<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> other\n"


def _note(i: int) -> str:
    return f"# Note {i}\n\n## Part\n\ntext of note {i}\n"


def _build(where: Path) -> Path:
    root = make_repo(where)
    for i in range(FILES):
        write(root, f"old/n{i:02d}.md", _note(i))
    commit_all(root, "notes")
    ok(root, "init")
    targets = [f"old/n{i:02d}.md#Note {i}/Part" for i in range(FILES)]
    ok(root, "adopt", *targets, "--words", "as written")
    commit_all(root, "custody")
    return root


repo = copied_from(_build)


def test_hook_move_of_many_files_index_listed_once_accepted(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    whole: list[int] = []
    real = gitio.ls_files_stage

    def listed(
        where: Path | str,
        prefix: str = "",
        *,
        keep_index_file: bool = False,
        paths: tuple[str, ...] | list[str] = (),
    ) -> list[gitio.TreeEntry]:
        got = real(where, prefix, keep_index_file=keep_index_file, paths=paths)
        if not prefix and not paths:
            whole.append(len(got))
        return got

    real_flagged = gitio.ls_files_flagged

    def flagged(
        where: Path | str,
        prefix: str = "",
        *,
        keep_index_file: bool = False,
        paths: tuple[str, ...] | list[str] = (),
    ) -> tuple[list[gitio.TreeEntry], dict[str, str]]:
        got = real_flagged(where, prefix, keep_index_file=keep_index_file, paths=paths)
        if not prefix and not paths:
            whole.append(len(got[0]))
        return got

    monkeypatch.setattr(gitio, "ls_files_stage", listed)
    monkeypatch.setattr(gitio, "ls_files_flagged", flagged)  # the hook's, its flags with it
    git(repo, "mv", "old", "new")
    monkeypatch.chdir(repo)
    assert hook(["pre-commit"]) == 1
    err = capsys.readouterr().err
    assert f"{FILES} bound section(s) moved" in err, err
    assert len(whole) == 1, whole  # the hook's own listing; the conflict reader's is gone


def test_staged_markers_among_many_drifted_files_detected(repo: Path) -> None:
    """The reader of named paths reads each one's staged blob: a file staged with
    conflict markers, among more than 20 drifted files, is still in conflict."""
    for i in range(FILES):
        write(repo, f"old/n{i:02d}.md", _note(i).replace("text", "edited text"))
    write(repo, "old/n07.md", f"# Note 7\n\n## Part\n\n{CONFLICT}")
    git(repo, "add", "-A")
    result = forest(repo, "check", "--staged", "--json")
    assert result.exit_code == 1, result.stdout
    found = {f["selector"]: f for f in json.loads(result.stdout)["findings"]}
    marked = found.pop("old/n07.md#Note 7/Part")
    assert marked["kind"] == "unresolved", marked
    assert marked["detail"].startswith(CONFLICT_DETAIL) and "markers" in marked["detail"]
    assert {f["kind"] for f in found.values()} == {"drifted"}, found
    assert not any(CONFLICT_DETAIL in f["detail"] for f in found.values()), found


def test_hook_conflict_reader_one_index_read_accepted(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """While the conflict reader runs, git lists the index no more: the hook's own
    listing (content_git.py ``entries_at``) gives the unmerged stages and the blobs
    alike (test_staged_listed_once.py)."""
    reading: list[bool] = []
    asked: list[str] = []
    real_conflict, real_list, real_run = (
        explain_routes.in_conflict,
        gitio.ls_files_stage,
        gitio.run_git,
    )

    def in_conflict(*args: object, **kw: object) -> object:
        reading.append(True)
        try:
            return real_conflict(*args, **kw)  # type: ignore[arg-type]
        finally:
            reading.pop()

    def listed(*args: object, **kw: object) -> object:
        if reading:
            asked.append("ls-files -s")
        return real_list(*args, **kw)  # type: ignore[arg-type]

    def run(where: object, args: list[str], **kw: object) -> object:
        if reading and args[:1] == ["ls-files"]:
            asked.append(" ".join(args[:2]))
        return real_run(where, args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(explain_routes, "in_conflict", in_conflict)
    real_flagged = gitio.ls_files_flagged

    def flagged(*args: object, **kw: object) -> object:
        if reading:
            asked.append("ls-files -s -v")
        return real_flagged(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(gitio, "ls_files_stage", listed)
    monkeypatch.setattr(gitio, "ls_files_flagged", flagged)
    monkeypatch.setattr(gitio, "run_git", run)
    git(repo, "mv", "old", "new")
    monkeypatch.chdir(repo)
    assert hook(["pre-commit"]) == 1
    assert f"{FILES} bound section(s) moved" in capsys.readouterr().err
    assert asked == [], asked


def test_unmerged_file_among_many_staged_sides_offered_detected(repo: Path) -> None:
    """A file git left unmerged, checked at the index beside more than 20 drifted files:
    its stages come from the named listing, so both sides are offered whole."""
    git(repo, "checkout", "-q", "-b", "side")
    write(repo, "old/n03.md", _note(3).replace("text", "side text"))
    commit_all(repo, "side")
    git(repo, "checkout", "-q", "main")
    for i in range(FILES):
        write(repo, f"old/n{i:02d}.md", _note(i).replace("text", "main text"))
    commit_all(repo, "main")
    assert pasted(repo, "git merge -q side").returncode != 0
    for i in range(FILES):
        if i != 3:
            write(repo, f"old/n{i:02d}.md", _note(i).replace("text", "edited text"))
            git(repo, "add", "--", f"old/n{i:02d}.md")
    result = forest(repo, "check", "--staged", "--json")
    assert result.exit_code == 1, result.stdout
    found = {f["selector"]: f for f in json.loads(result.stdout)["findings"]}
    unmerged = found.pop("old/n03.md#Note 3/Part")
    assert "unmerged in the git index" in unmerged["detail"], unmerged
    commands = [r["command"] for r in unmerged["routes"] if r["command"]]
    assert [c.split(" && ")[0] for c in commands] == [
        "git checkout --ours -- old/n03.md",
        "git checkout --theirs -- old/n03.md",
    ], commands
    assert {f["kind"] for f in found.values()} == {"drifted"}, found
