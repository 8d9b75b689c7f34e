"""The refused pre-commit hook reads which bound files the git index takes as unchanged
(``git update-index --assume-unchanged`` or ``--skip-worktree``) from its own listing of
the index (``git ls-files -s -v``: content_git.py ``flags_at``), not from a second
``git ls-files -v`` of the findings' files (check/unstaged.py). Counted from the git
processes the real hook entry starts in process; the hint that clears the flag is the
one it said before, and pasted it recovers."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from forest_files.doors.hooks.run import main as hook
from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, git, make_repo, pasted, write


def _flagged_and_superseded(tmp_path: Path, flag: str) -> Path:
    """A bound page flagged, edited and superseded, the ledger staged, the edit not
    (``git add`` of a flagged file stages nothing): the staged ledger's ground drifts."""
    root = make_repo(tmp_path)
    ok(root, "init")
    write(root, "p1.md", "# p1\n\nwords\n")
    commit_all(root, "page")
    ok(root, "adopt", "p1.md", "--words", "The page")
    commit_all(root, "adopt")
    git(root, "update-index", f"--{flag}", "--", "p1.md")
    write(root, "p1.md", "# p1\n\nwords, edited\n")
    ok(root, "supersede", "p1.md", "--words", "Edited")
    git(root, "add", "--", ".forest/ledger")
    return root


def _flag_listings(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """Each ``git ls-files`` from now on that asks for the index's flags (``-v``)."""
    calls: list[list[str]] = []
    real: Callable[..., Any] = subprocess.run

    def run(args: Any, *rest: Any, **kwargs: Any) -> Any:
        argv = [str(a) for a in args] if isinstance(args, list | tuple) else []
        if argv[:1] == ["git"] and "ls-files" in argv and "-v" in argv:
            calls.append(argv[argv.index("ls-files") :])
        return real(args, *rest, **kwargs)

    monkeypatch.setattr(subprocess, "run", run)
    return calls


@pytest.mark.parametrize("flag", ["assume-unchanged", "skip-worktree"])
def test_hook_flags_read_from_the_index_listing_pasted_recovers(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    flag: str,
) -> None:
    root = _flagged_and_superseded(tmp_path, flag)
    monkeypatch.chdir(root)
    calls = _flag_listings(monkeypatch)
    assert hook(["pre-commit"]) == 1
    monkeypatch.undo()
    err = capsys.readouterr().err
    assert "drifted p1.md" in err, err
    assert f"git is told to take it as unchanged (`git update-index --{flag}`)" in err, err
    clear = f"git update-index --no-{flag} -- p1.md && git add -- p1.md"
    assert f"`{clear}`" in err, err
    assert len(calls) == 1 and calls[0][:3] == ["ls-files", "-s", "-v"], calls
    assert pasted(root, clear).returncode == 0
    assert forest(root, "check", "--staged").exit_code == 0
