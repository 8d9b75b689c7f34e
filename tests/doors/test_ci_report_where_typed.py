"""``forest -C DIR ci --report FORMAT=FILE``: a relative FILE is written where
``forest`` was typed (as ``--repo DIR`` after the command does, and as the commands it
prints are pasted), on the light door and the full CLI alike; an absolute FILE where
it says."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers.cli import console
from tests.helpers.custody import DOC, init_and_adopt
from tests.helpers.git import commit_all, make_repo, write

HOW = {
    "light": ("-C", "my repo", "ci"),
    "full": ("-C", "my repo", "ci", "-q"),  # an option the light parser leaves to typer
    "repo-after": ("ci", "--repo", "my repo"),
}


@pytest.fixture
def typed_at(tmp_path: Path) -> Path:
    root = make_repo(tmp_path, "my repo")
    write(root, "a.md", DOC)
    init_and_adopt(root, ["a.md#Keep"])
    commit_all(root, "adopt")
    return tmp_path


@pytest.mark.parametrize("how", sorted(HOW))
def test_ci_relative_report_written_where_typed_accepted(typed_at: Path, how: str) -> None:
    done = console(typed_at, *HOW[how], "--report", "json=out/r.json")
    assert done.returncode == 0, done.stderr
    assert json.loads((typed_at / "out" / "r.json").read_text(encoding="utf-8"))
    assert not (typed_at / "my repo" / "out").exists()


def test_ci_absolute_report_written_there_accepted(typed_at: Path, tmp_path: Path) -> None:
    target = tmp_path / "elsewhere" / "r.txt"
    done = console(typed_at, "-C", "my repo", "ci", "--report", f"text={target}")
    assert done.returncode == 0, done.stderr
    assert "binding(s)" in target.read_text(encoding="utf-8")
