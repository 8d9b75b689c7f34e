"""The pre-commit hook lists the custody files git does not track once per run, ignored
or not (check/unstaged.py, check/uncommitted.py ``untracked_custody``): a refused
commit asked ``git ls-files -o`` for the ledger's new files, then again for the
ignored ones whenever the first came back empty; an accepted commit asked for every
untracked custody file, then again for the ignored ones whenever the first did not
come back empty. Now one ``git ls-files -o`` of the custody paths, and one more only
of the files it lists (which are ignored), when it lists any. Counted from the git
processes the hook starts (real git, the real hook entry in process), with what the
hook says unchanged."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from forest_files.doors.hooks.run import main as hook
from tests.helpers.cli import ok
from tests.helpers.git import commit_all, git, make_repo, write
from tests.helpers.template import copied_from

NOTE = "# A\n\nwords of a\n\n## B\n\nwords of b\n"
LEDGER_HINT = "acts recorded in the working tree are not staged"
IGNORED_HINT = "git ignores custody files (.forest/ledger/stray.jsonl)"


def _build(where: Path) -> Path:
    root = make_repo(where)
    write(root, "f.md", NOTE)
    write(root, "g.md", "# G\n\nloose\n")
    commit_all(root, "notes")
    ok(root, "init")
    ok(root, "adopt", "f.md#A/B", "--words", "as written")
    commit_all(root, "custody")
    return root


repo = copied_from(_build)


def _listings(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each git process from now on that lists the custody files the index does not
    track (the ledger's among them; not the moved files' listing, ``to_stage``), as
    ``"listing"``, and each that lists named untracked files alone, as ``"files"``."""
    calls: list[str] = []
    real: Callable[..., Any] = subprocess.run

    def run(args: Any, *rest: Any, **kwargs: Any) -> Any:
        argv = [str(a) for a in args] if isinstance(args, list | tuple) else []
        if argv[:1] == ["git"] and "ls-files" in argv and "-o" in argv:
            if ".forest/ledger" in argv:
                calls.append("listing")
            elif ".forest/ledger/stray.jsonl" in argv:
                calls.append("files")
        return real(args, *rest, **kwargs)

    monkeypatch.setattr(subprocess, "run", run)
    return calls


def _stray(root: Path, *, ignored: bool) -> None:
    """A file in the working tree's ledger the index does not track, hidden by an
    ignore rule (``.git/info/exclude``) or not."""
    write(root, ".forest/ledger/stray.jsonl", "")
    if ignored:
        exclude = root / ".git" / "info" / "exclude"
        exclude.write_text(exclude.read_text() + "stray.jsonl\n")


@pytest.mark.parametrize("stray", ["none", "ignored", "not-ignored"])
def test_hook_refused_untracked_custody_listed_once_detected(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], stray: str
) -> None:
    if stray != "none":
        _stray(repo, ignored=stray == "ignored")
    git(repo, "mv", "f.md", "h.md")
    monkeypatch.chdir(repo)
    calls = _listings(monkeypatch)
    assert hook(["pre-commit"]) == 1
    err = capsys.readouterr().err
    assert "moved f.md#A/B" in err, err
    assert (LEDGER_HINT in err) == (stray == "not-ignored"), err
    assert (IGNORED_HINT in err) == (stray == "ignored"), err
    assert calls == ["listing", *(["files"] if stray != "none" else [])], calls


@pytest.mark.parametrize("stray", ["ignored", "not-ignored"])
def test_hook_accepted_untracked_custody_listed_once_detected(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], stray: str
) -> None:
    _stray(repo, ignored=stray == "ignored")
    write(repo, "g.md", "# G\n\nloose, edited\n")
    git(repo, "add", "g.md")
    monkeypatch.chdir(repo)
    calls = _listings(monkeypatch)
    assert hook(["pre-commit"]) == 0
    err = capsys.readouterr().err
    if stray == "ignored":
        assert IGNORED_HINT in err, err
    else:
        assert "forest: 1 ledger file(s) not in git (never committed)" in err, err
    assert calls == ["listing", "files"], calls
