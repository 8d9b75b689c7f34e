"""A folder moved whole while the watcher runs: its log gives ``forest check``'s one
directory rebind (check/folder_move.py), once, and pasted it records the moves; a
folder moved in part gets no such route."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from tests.helpers.cli import findings
from tests.helpers.git import pasted
from tests.helpers.watch import TIMEOUT, bound_repo, until, watching

FOLDER = "or move the 2 bindings under d/ at once: "


class Lines:
    """Every line the watcher said, in order."""

    def __init__(self) -> None:
        self.said: list[str] = []
        self._lock = threading.Lock()

    def __call__(self, lines: list[str]) -> None:
        with self._lock:
            self.said.extend(lines)

    def have(self, start: str) -> list[str]:
        with self._lock:
            return [line for line in self.said if line.startswith(start)]


@pytest.mark.slow  # a real watcher, then the route pasted into a shell
def test_watch_folder_moved_whole_one_rebind_route_accepted(tmp_path: Path) -> None:
    root = bound_repo(tmp_path, files=3)  # a.md, d/f1.md, d/f2.md bound at #Keep
    sink = Lines()
    with watching(root, sink=sink):
        os.rename(root / "d", root / "e")
        assert until(lambda: len(sink.have("moved d/")) == 2, TIMEOUT), sink.said
        assert until(lambda: bool(sink.have(FOLDER)), TIMEOUT), sink.said
        (line,) = sink.have(FOLDER)  # once, not per file
        assert line == FOLDER + "forest rebind d/ e/ && git add -- .forest/ledger"
    done = pasted(root, line.removeprefix(FOLDER))
    assert done.returncode == 0, done.stderr
    assert {f["selector"]: f["kind"] for f in findings(root)} == {
        "a.md#Title/Keep": "clean",
        "e/f1.md#Title/Keep": "clean",
        "e/f2.md#Title/Keep": "clean",
    }


@pytest.mark.slow  # a real watcher
def test_watch_folder_moved_in_part_no_folder_route_refused(tmp_path: Path) -> None:
    """Two files of d/ moved to e/ in one batch, a third left (clean, not in the
    batch's check): a directory rebind would move it too, so no folder route."""
    root = bound_repo(tmp_path, files=4)  # d/f1.md, d/f2.md, d/f3.md
    sink = Lines()
    with watching(root, sink=sink):
        (root / "e").mkdir()
        for name in ("f1.md", "f2.md"):
            os.rename(root / "d" / name, root / "e" / name)
        assert until(lambda: len(sink.have("moved d/")) == 2, TIMEOUT), sink.said
    assert not [s for s in sink.said if "at once" in s], sink.said
