"""Before ``forest init``, no command writes anything: no ``.forest/`` in the work tree,
nothing under the git directory's ``forest/``; the ones that need custody say to run
``forest init`` in one line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.cli import forest
from tests.helpers.git import commit_all, git_env, make_repo, write

COMMANDS = [
    ("check",),
    ("status",),
    ("log",),
    ("verify",),
    ("fsck",),
    ("sync",),
    ("diff", "a.md"),
    ("audit",),
    ("proposals",),
    ("proposal", "list"),
    ("hooks", "status"),
    ("watch", "status"),
    ("watch", "stop"),
    ("watch", "--detach"),
    ("ci",),
]


def _state(root: Path) -> list[str]:
    found = [p for p in (root / ".forest", root / ".git" / "forest") if os.path.lexists(p)]
    return [p.relative_to(root).as_posix() for p in found]


@pytest.fixture
def plain(tmp_path: Path) -> Path:
    root = make_repo(tmp_path)
    write(root, "a.md", "# A\n\ntext\n")
    commit_all(root, "a")
    return root


@pytest.mark.parametrize("argv", COMMANDS, ids=[" ".join(c) for c in COMMANDS])
def test_before_init_command_writes_nothing_refused(plain: Path, argv: tuple[str, ...]) -> None:
    result = forest(plain, *argv)
    assert _state(plain) == [], f"{argv} wrote local state before forest init"
    if result.exit_code != 0:
        assert "Traceback" not in result.output + result.stderr
        if argv[0] not in ("ci",):
            assert "forest init" in result.stderr, result.stderr


def test_before_init_light_check_writes_nothing_refused(plain: Path) -> None:
    """The console entry's light path (fastcheck, the remembered verdict) too."""
    env = {**os.environ, **git_env()}
    done = subprocess.run(
        [sys.executable, "-P", "-m", "forest_files", "check"],
        cwd=plain,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1 and "forest init" in done.stderr
    assert _state(plain) == []
