"""One check of a merge with many conflicted bound files reads the index's stages once:
one ``git ls-files -u`` (it ran once to find the files in conflict, then once more per
finding as its routes were built: 41 of 46 git calls for 40 files), and, with the
markers staged by ``git add``, one ``git ls-files --resolve-undo`` for them all (it
ran once per file). Counted from git's own trace (``GIT_TRACE``), real processes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, git, make_repo, pasted, write
from tests.helpers.gittrace import git_traced

FILES = 12


def _doc(n: int, text: str) -> str:
    return f"# F{n}\n\n## S\n\n{text}\n"


def _merged(tmp_path: Path) -> Path:
    """``FILES`` bound files, each edited on two branches; the merge leaves all UU."""
    root = make_repo(tmp_path)
    ok(root, "init")
    for n in range(FILES):
        write(root, f"f{n}.md", _doc(n, "base text"))
    ok(root, "adopt", *(f"f{n}.md#F{n}/S" for n in range(FILES)), "--words", "as it stands")
    commit_all(root, "adopt")
    for branch, start in (("side", "-b"), ("main", "")):
        git(root, "checkout", "-q", *filter(None, (start, branch)))
        for n in range(FILES):
            write(root, f"f{n}.md", _doc(n, f"{branch} text"))
        git(root, "commit", "-q", "--no-verify", "-am", branch)
    assert pasted(root, "git merge -q side").returncode == 1
    return root


def _traced(root: Path, trace: Path, monkeypatch: pytest.MonkeyPatch) -> list[dict[str, object]]:
    with git_traced(monkeypatch, trace):
        shown = forest(root, "check", "--json")
    found: list[dict[str, object]] = json.loads(shown.stdout)["findings"]
    return found


def _calls(trace: Path, what: str) -> list[str]:
    return [ln for ln in trace.read_text().splitlines() if f"git {what}" in ln]


def test_conflicted_files_stages_read_once_per_check_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _merged(tmp_path)
    trace = tmp_path / "trace.txt"
    found = _traced(root, trace, monkeypatch)
    assert len(found) == FILES and all(f["kind"] == "unresolved" for f in found), found
    for f in found:  # every file's sides still offered, from the one read
        commands = [r["command"] for r in f["routes"]]  # type: ignore[attr-defined]
        assert f"git checkout --theirs -- {f['path']} && git add -- {f['path']}" in commands
    assert len(_calls(trace, "ls-files -u")) == 1, _calls(trace, "ls-files -u")


def test_conflict_markers_staged_resolve_undo_read_once_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _merged(tmp_path)
    git(root, "add", "-A")  # the markers staged: git's stages go to resolve-undo
    trace = tmp_path / "trace.txt"
    found = _traced(root, trace, monkeypatch)
    assert len(found) == FILES, found
    for f in found:
        commands = [r["command"] for r in f["routes"]]  # type: ignore[attr-defined]
        path = f["path"]
        want = f"git checkout -m -- {path} && git checkout --ours -- {path} && git add -- {path}"
        assert want in commands, commands
    assert len(_calls(trace, "ls-files --resolve-undo")) == 1
    assert len(_calls(trace, "ls-files -u")) == 1
