"""``python -m forest_files.fastcheck``: the CLI's verdict without the heavy imports."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.custody import DOC, init_and_adopt
from tests.helpers.git import commit_all, git_env, isolate, make_repo, write

HEAVY = {"typer", "pydantic", "git", "pyromark", "markdown_it", "click", "rich"}
PY_SRC = "def f(x):\n    return x\n\n\ndef g(x):\n    return 2 * x\n"


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch) -> None:
    isolate(monkeypatch)


def _repo(tmp_path: Path) -> Path:
    root = make_repo(tmp_path)
    write(root, "a.md", DOC)
    write(root, "m.py", PY_SRC)
    init_and_adopt(root, ["a.md#Keep", "m.py::g"])
    commit_all(root, "adopt")
    return root


def _run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **git_env(), "FOREST_DEBUG_IMPORTS": "1"}
    return subprocess.run(
        [sys.executable, "-m", *args],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _imports(proc: subprocess.CompletedProcess[str]) -> set[str]:
    line = next(x for x in proc.stderr.splitlines() if x.startswith("imports: "))
    return set(line.removeprefix("imports: ").split())


def _forest(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    code = "from forest_files.cli import main; main()"
    env = {**os.environ, **git_env()}
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_no_change_loads_no_heavy_library(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    extra: list[str] = []
    for _ in range(2):  # cold (no caches), then warm
        proc = _run(root, "forest_files.fastcheck", *extra)
        assert proc.returncode == 0, proc.stderr
        assert "2 binding(s) checked" in proc.stdout
        assert not _imports(proc) & HEAVY


def test_verdict_matches_forest_check(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    fast = _run(root, "forest_files.fastcheck")
    cli = _forest(root, "check")
    assert (fast.returncode, cli.returncode) == (0, 0)
    assert fast.stdout.splitlines()[-1] == cli.stdout.splitlines()[-1]

    write(root, "a.md", DOC.replace("kept words", "changed words"))
    fast = _run(root, "forest_files.fastcheck")
    cli = _forest(root, "check")
    assert (fast.returncode, cli.returncode) == (1, 1)
    assert fast.stdout.splitlines()[-1] == cli.stdout.splitlines()[-1]
    assert "drifted a.md#Title/Keep" in fast.stdout or "drifted" in fast.stdout

    (root / "m.py").unlink()
    fast = _run(root, "forest_files.fastcheck")
    cli = _forest(root, "check")
    assert (fast.returncode, cli.returncode) == (1, 1)
    assert fast.stdout.splitlines()[-1] == cli.stdout.splitlines()[-1]
    assert "missing" in fast.stdout


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_bound_file_swapped_for_a_fifo_refused_without_hanging(tmp_path: Path) -> None:
    """A FIFO where a bound file was is not its text: missing, at once (reading it
    would block until some writer opened the pipe)."""
    root = _repo(tmp_path)
    (root / "m.py").unlink()
    os.mkfifo(root / "m.py")
    fast = _run(root, "forest_files.fastcheck")  # _run's timeout fails a hang
    cli = _forest(root, "check")
    assert (fast.returncode, cli.returncode) == (1, 1)
    assert "missing" in fast.stdout and "missing" in cli.stdout


def test_bad_usage_exits_2(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    assert _run(root, "forest_files.fastcheck", "--nope").returncode == 2
