"""The watcher's moved, missing and unresolved verdicts follow other files, as
``forest check``'s do: their verdict comes from a search of every file (check/moves.py),
so an event on any file re-judges them (events.py ``searching``).

The watcher ignored events on unbound paths: a ``moved`` finding kept saying its
section stood at a file deleted since (``forest check``: missing), and a ``missing``
one stayed when its text came back under another name (``forest check``: moved),
until the next periodic reconcile, minutes later.
"""

from __future__ import annotations

import os
from pathlib import Path

from forest_files.doors.watch.watcher import Watcher
from tests.helpers.cli import findings
from tests.helpers.watch import DOC, bound_repo, wait_verdict, watching

SELECTOR = "a.md#Title/Keep"


def _open(w: Watcher) -> list[tuple[str, str | None]]:
    return [(r.finding.kind, r.finding.moved_to) for r in w.open_findings()]


def _check(root: Path) -> list[tuple[str, str | None]]:
    return [(f["kind"], f["moved_to"]) for f in findings(root) if f["kind"] != "clean"]


def test_watch_moved_then_new_place_deleted_missing_detected(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    with watching(root) as w:
        os.rename(root / "a.md", root / "z.md")
        wait_verdict(w, "moved")
        assert _open(w) == [("moved", "z.md#Title/Keep")]
        (root / "z.md").unlink()  # an unbound path: the section stands nowhere now
        wait_verdict(w, "missing", after=1)
        assert _open(w) == _check(root) == [("missing", None)]


def test_watch_missing_then_text_back_elsewhere_moved_detected(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    with watching(root) as w:
        (root / "a.md").unlink()
        wait_verdict(w, "missing")
        (root / "z.md").write_text(DOC, encoding="utf-8")  # pasted into a new file
        wait_verdict(w, "moved", after=1)
        assert _open(w) == _check(root) == [("moved", "z.md#Title/Keep")]
        assert [r.finding.selector for r in w.open_findings()] == [SELECTOR]
