"""What the pre-commit hook repeats for each moved section, counted.

A reorganisation commit (``git mv`` of bound files) makes the hook explain and plan
thousands of moved findings; work done once per finding there is paid thousands of
times. Counted in process, around the real code (monkeypatch wrappers that call
through): the commit's plan runs no import statement per rebind (``rebind_group``
imported the selector path splitter on every call: 2,000 imports for a move of 2,000
sections); the report's explanation hashes no finding to ask maps that hold nothing
(``unlike``, ``held``, ``sided``: three hashes of every field of every finding).
"""

from __future__ import annotations

import builtins
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from forest_files.check.finding import Finding
from forest_files.doors.hooks.run import main as hook
from tests.helpers.cli import forest
from tests.helpers.git import commit_all, git, make_repo, write
from tests.helpers.template import copied_from

CHAPTERS = 6
BOOK = "# Book\n\nopening\n\n" + "".join(
    f"## Chapter {k}\n\ntext of chapter {k}\n\n" for k in range(1, CHAPTERS + 1)
)


def _build(where: Path) -> Path:
    root = make_repo(where)
    write(root, "book.md", BOOK)
    commit_all(root, "docs")
    assert forest(root, "init").exit_code == 0
    for k in range(1, CHAPTERS + 1):
        done = forest(root, "adopt", f"book.md#Book/Chapter {k}", "--words", "as written")
        assert done.exit_code == 0, done.stdout + done.stderr
    commit_all(root, "custody")
    return root


repo = copied_from(_build)


def test_hook_move_plan_imports_nothing_per_rebind_accepted(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Hostile: a move of 2,000 bound sections ran the plan's ``from ... import`` of the
    selector path splitter 2,000 times (each a trip through the import system)."""
    from forest_files.check import commit_plan

    asked: Counter[str] = Counter()
    real = builtins.__import__

    def counted(name: str, globals: Any = None, *args: Any, **kwargs: Any) -> Any:
        if globals is not None and globals.get("__name__") == commit_plan.__name__:
            asked[name] += 1
        return real(name, globals, *args, **kwargs)

    git(repo, "mv", "book.md", "novel.md")
    monkeypatch.chdir(repo)
    monkeypatch.setattr(builtins, "__import__", counted)
    assert hook(["pre-commit"]) == 1
    monkeypatch.setattr(builtins, "__import__", real)
    err = capsys.readouterr().err
    assert f"or record the whole commit at once ({CHAPTERS} rebound" in err, err
    assert asked["forest_files.text.selector_paths"] == 0, asked
    assert asked["forest_files.kernel.hashing"] == 0, asked


def test_hook_move_explain_hashes_no_finding_accepted(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Hostile: explaining each moved finding asked three maps that hold nothing on a
    move (bindings rebound twice, contests held, contests in conflict) whether they
    held it: three hashes of all its fields, 6,000 for a move of 2,000 sections."""
    hashed: Counter[str] = Counter()
    real = Finding.__hash__

    def counted(self: Finding) -> int:
        if sys._getframe(1).f_code.co_filename.endswith("explain.py"):
            hashed[self.selector] += 1
        return real(self)

    monkeypatch.setattr(Finding, "__hash__", counted)
    git(repo, "mv", "book.md", "novel.md")
    monkeypatch.chdir(repo)
    assert hook(["pre-commit"]) == 1
    err = capsys.readouterr().err
    assert "moved book.md#Book/Chapter 1" in err, err
    assert sum(hashed.values()) == 0, hashed
