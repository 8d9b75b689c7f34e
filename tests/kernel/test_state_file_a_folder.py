"""A folder standing where forest-files keeps one of its files (``woods.db``,
``local.db``, ``audit.db`` in the git directory): the refusal's command removes
it when pasted (``rm --`` alone refuses a folder, so the line was a dead end)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.helpers.cli import console
from tests.helpers.state import local_state, shared_state
from tests.helpers.watch import bound_repo


@pytest.mark.parametrize("name", ["woods.db", "local.db"])
def test_folder_where_a_state_file_belongs_removal_pasted_recovers(
    tmp_path: Path, name: str
) -> None:
    root = bound_repo(tmp_path)
    state = local_state(root) if name == "woods.db" else shared_state(root)
    (state / name).unlink(missing_ok=True)
    (state / name / "inner").mkdir(parents=True)
    args = ("status",) if name == "woods.db" else ("proposals",)
    done = console(root, *args)
    assert done.returncode == 1, done.stderr
    (line,) = done.stderr.strip().splitlines()
    fix = line.partition("remove it (")[2].partition(") and run")[0]
    assert fix, line
    subprocess.run(fix, shell=True, cwd=root, check=True)
    again = console(root, *args)
    assert again.returncode == 0, again.stderr
