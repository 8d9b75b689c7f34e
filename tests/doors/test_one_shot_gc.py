"""One-shot console commands run without the cyclic garbage collector and end
without the interpreter's teardown (``boundary.leave``); the watcher, which runs for
hours, turns the collector back on (entry.py, watch/daemon.py)."""

from __future__ import annotations

import gc
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from forest_files.doors import boundary, entry
from forest_files.doors.hooks import run
from forest_files.doors.watch.daemon import settle_gc
from forest_files.store import connection


@pytest.fixture(autouse=True)
def _restore_gc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    # In this process the doors' last step raises instead of ending pytest.
    monkeypatch.setattr(boundary, "leave", _raise_exit)
    yield
    gc.unfreeze()
    gc.enable()


def _raise_exit(code: int) -> None:
    raise SystemExit(code)


def test_forest_console_turns_cyclic_gc_off_accepted(monkeypatch: pytest.MonkeyPatch) -> None:
    assert gc.isenabled()
    monkeypatch.setattr(sys, "argv", ["forest", "--version"])
    with pytest.raises(SystemExit) as done:
        entry.main()
    assert done.value.code == 0
    assert not gc.isenabled()


def test_hook_console_turns_cyclic_gc_off_accepted(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)  # no repository: the hook says so and exits
    # The hook shortens the store's busy budget for the process: put it back after.
    monkeypatch.setattr(connection, "_budget_ms", connection._budget_ms)
    monkeypatch.setattr(sys, "argv", ["forest-hook", "pre-commit"])
    with pytest.raises(SystemExit) as done:
        run.console()
    assert isinstance(done.value.code, int)
    assert not gc.isenabled()


@pytest.mark.parametrize("door", ["forest", "forest-hook"])
def test_leave_flushes_both_streams_and_keeps_the_code_accepted(door: str) -> None:
    """What a door printed (into pipes, so buffered) all arrives, with its exit code,
    though nothing is torn down."""
    code = (
        "import sys\n"
        "from forest_files.doors.boundary import leave\n"
        "print('out ' * 5000)\n"
        "sys.stderr.write('err')\n"
        "leave(5)\n"
        "print('never')\n"
    )
    if door == "forest-hook":  # the hook's own console, in a directory with no repository
        code = (
            "import os, sys, tempfile\n"
            "os.chdir(tempfile.mkdtemp())\n"
            "print('out ' * 5000)\n"
            "sys.stderr.write('err')\n"
            "sys.argv = ['forest-hook']\n"
            "from forest_files.doors.hooks.run import console\n"
            "console()\n"
            "print('never')\n"
        )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.stdout == "out " * 5000 + "\n"
    assert proc.stderr.startswith("err")
    assert proc.returncode == (5 if door == "forest" else 2), proc.stderr


def test_watcher_settle_gc_turns_the_collector_back_on_accepted() -> None:
    gc.disable()
    settle_gc()
    assert gc.isenabled()
    assert gc.get_freeze_count() > 0


# Refusals of the commands that open the index to find their target. Without the
# collector (every console command), an index a refused command left open stays open
# until the process ends: SQLite's ``-wal`` and ``-shm`` stay beside it, and in a
# process that goes on (the library, a test) the connection leaks.
_ZERO = "0" * 64
_REFUSED = (
    ("retire", "nope.md", "--words", "w"),
    ("retire", "ok.md", "--binding", "abc", "--words", "w"),
    ("supersede", "nope.md", "--words", "w"),
    ("restore", "nope.md#A"),
    ("diff", "nope.md#A"),
    ("log", "nope.md"),
    ("renormalise", "nope.md", "--none", "--words", "w"),
    ("seal", "nope.md", "--words", "w"),
    ("unseal", "ok.md", "--words", "w"),
    ("rebind", "nope.md", "ok.md"),
    ("show", _ZERO),
    ("forget", _ZERO, "--words", "w"),
    ("resolve", _ZERO, "--pick", _ZERO, "--words", "w"),
    ("adopt", "ok.md", "--words", "w"),
)


@pytest.mark.slow  # fourteen commands in process
def test_refused_target_commands_close_the_index_without_the_collector_refused(
    tmp_path: Path,
) -> None:
    from tests.helpers.cli import forest
    from tests.helpers.git import commit_all, make_repo, write

    repo = make_repo(tmp_path)
    write(repo, "ok.md", "# A\n\ntext\n")
    assert forest(repo, "init").exit_code == 0
    assert forest(repo, "adopt", "ok.md", "--words", "w").exit_code == 0
    commit_all(repo, "adopt")
    gc.collect()
    gc.disable()  # as in every console command (entry.main)
    state = repo / ".git" / "forest"
    for args in _REFUSED:
        result = forest(repo, *args)
        assert result.exit_code == 1 and result.stderr.startswith("forest: "), (args, result)
        left = sorted(p.name for p in state.glob("woods.db-*"))
        assert left == [], (args, left)  # `forest retire nope.md` left the index open
