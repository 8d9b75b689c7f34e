"""The steps one report's routes share are built once, counted.

Every moved section's two routes (its rebind, its retire) end in the same ``git add --
.forest/ledger``; every drifted section of one file adopts with the same ``git add --
.forest/ledger FILE``. A hook refusing a commit that moves 2,000 bound sections built
those steps 4,000 times (``record_steps``, ``git_step``: ~25 ms on the move bench);
now the report keeps each in a dict for its call (route_steps.py ``recorded``,
``ledger_add``, ``written_back``). The printed routes are unchanged.
"""

from __future__ import annotations

import contextlib
import io
from collections import Counter
from pathlib import Path

import pytest

from forest_files.check import route_steps, routes
from forest_files.doors.hooks.run import main as hook
from tests.helpers.cli import forest
from tests.helpers.git import commit_all, git, make_repo, write
from tests.helpers.template import copied_from

SECTIONS = 6


def _text(word: str) -> str:
    return "".join(f"# S{i}\n\n{word} {i}\n\n" for i in range(SECTIONS))


def _build(where: Path) -> Path:
    root = make_repo(where)
    write(root, "m.md", _text("moved"))
    write(root, "d.md", _text("drifted"))
    commit_all(root, "docs")
    assert forest(root, "init").exit_code == 0
    targets = [f"{name}#S{i}" for name in ("m.md", "d.md") for i in range(SECTIONS)]
    done = forest(root, "adopt", *targets, "--words", "as written")
    assert done.exit_code == 0, done.stdout + done.stderr
    commit_all(root, "custody")
    return root


repo = copied_from(_build)


def test_hook_routes_shared_steps_built_once_per_report_accepted(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    git(repo, "mv", "m.md", "n.md")
    write(repo, "d.md", _text("edited"))
    git(repo, "add", "d.md")
    monkeypatch.chdir(repo)
    built: Counter[tuple[str, ...]] = Counter()
    real_git, real_record = route_steps.git_step, route_steps.record_steps

    def git_step(*words: str) -> tuple[str, ...]:
        built[words] += 1
        return real_git(*words)

    def record_steps(source: str, *paths: str) -> tuple[tuple[str, ...], ...]:
        built[("record", source, *paths)] += 1
        return real_record(source, *paths)

    for module in (routes, route_steps):  # the names each module calls the steps by
        monkeypatch.setattr(module, "git_step", git_step)
        monkeypatch.setattr(module, "record_steps", record_steps)
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert hook(["pre-commit"]) == 1
    said = err.getvalue()
    assert said.count("move the binding: forest rebind ") == SECTIONS, said
    assert said.count("git add -- .forest/ledger d.md") == SECTIONS, said
    assert built[("record", "index")] == 1, built
    assert built[("add", "--", ".forest/ledger")] == 1, built
    assert built[("add", "--", ".forest/ledger", "d.md")] == 1, built
    assert built[("add", "--", "d.md")] == 1, built  # each restore stages it again
