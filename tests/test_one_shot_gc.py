"""One-shot console commands run without the cyclic garbage collector; the watcher,
which runs for hours, turns it back on (entry.py, watch/daemon.py)."""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from forest_files import entry
from forest_files.githooks import run
from forest_files.store import connection
from forest_files.watch.daemon import settle_gc


@pytest.fixture(autouse=True)
def _restore_gc() -> Iterator[None]:
    yield
    gc.unfreeze()
    gc.enable()


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
    with pytest.raises(SystemExit):
        run.console()
    assert not gc.isenabled()


def test_watcher_settle_gc_turns_the_collector_back_on_accepted() -> None:
    gc.disable()
    settle_gc()
    assert gc.isenabled()
    assert gc.get_freeze_count() > 0
