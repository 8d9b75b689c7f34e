"""``forest watch status --json`` gives the watcher's ``error_count`` (its state file's:
every error since it started, repeats included), beside ``errors`` (each once) and
``problem`` (the one in force).

Before the fix the state file held the count and ``status`` dropped it: a watcher
failing the same way at every batch (forest.toml that does not parse) showed one error
and nothing of how often it met it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from forest_files.doors.watch.daemon import stop
from forest_files.doors.watch.lock import running
from tests.helpers.cli import forest
from tests.helpers.watch import TIMEOUT, bound_repo, save_by_rename, until, watch_state

FAST = ["--quiet", "0.1", "--ceiling", "1", "--grace", "0.5"]


@pytest.fixture
def root(tmp_path: Path) -> Iterator[Path]:
    path = bound_repo(tmp_path)
    yield path
    stop(path)  # whatever the test left running


def _counted(root: Path) -> int:
    count = watch_state(root).get("error_count", 0)
    return count if isinstance(count, int) else 0


def test_watch_status_json_error_count_repeats_detected(root: Path) -> None:
    child = subprocess.Popen(
        [sys.executable, "-m", "forest_files.doors.watch", "--repo", str(root), *FAST],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    assert until(lambda: running(root) == child.pid)
    assert until(lambda: watch_state(root).get("checks", 0) >= 1), watch_state(root)
    good = (root / "forest.toml").read_text(encoding="utf-8")
    save_by_rename(root / "forest.toml", good + "\n[watch\n")
    assert until(lambda: _counted(root) >= 1), watch_state(root)
    save_by_rename(root / "forest.toml", good + "\n[watch\n\n")  # the same error again
    assert until(lambda: _counted(root) >= 2), watch_state(root)
    shown = json.loads(forest(root, "watch", "status", "--json").stdout)
    assert shown["error_count"] == _counted(root) >= 2, shown
    assert len(shown["errors"]) == 1 and "not valid TOML" in shown["problem"], shown
    assert stop(root).startswith("stopped")
    assert child.wait(TIMEOUT) == 0
    assert json.loads(forest(root, "watch", "status", "--json").stdout)["error_count"] == 0
