"""The watcher on a contest: a binding rebound on two merged branches, judged as
``forest check`` judges it, once, and kept so while it stands.

``forest rebind A.md#X B.md#X`` on one branch and ``... C.md#X`` on another, merged:
the check reports the binding's section (``clean`` where it stands) and its
``contested`` finding. The watcher kept one verdict per binding, so the two
overwrote each other: every reconcile and every save of the file said ``clean``
then the whole contest again (a new alert, a new audit line each time), and for a
moment ``status`` of the watcher listed the contest as gone. Now the contest is
said once and stays open; the section's own verdicts (a drift, back to clean) are
said beside it.
"""

from __future__ import annotations

import time
from pathlib import Path

from forest_files.doors.watch.watcher import Watcher
from tests.helpers.git import write
from tests.helpers.rebound import BODY, merged_clones
from tests.helpers.watch import FAST, checks, settle, verdicts, wait_checks, wait_verdict, watching


def _open(w: Watcher) -> list[tuple[str, str]]:
    return sorted((r.finding.kind, r.finding.selector) for r in w.open_findings())


def _reconcile(w: Watcher) -> None:
    """A full check now, as the periodic reconcile makes one."""
    n = checks(w)
    w.collector.hold({}, frozenset({"periodic"}), time.monotonic())
    wait_checks(w, n + 1)


def test_watch_binding_rebound_twice_said_once_detected(tmp_path: Path) -> None:
    b, _ = merged_clones(tmp_path)
    alerts: list[str] = []
    with watching(b, FAST, alert=lambda r: alerts.append(r.finding.kind)) as w:
        ((kind, stands),) = _open(w)
        path = stands.split("#")[0]
        assert kind == "contested" and verdicts(w, path) == ["contested"]
        _reconcile(w)
        settle(w, b, path)  # a save of the place where it stands, its text unchanged
        assert verdicts(w, path) == ["contested"], w.journal.items()
        assert _open(w) == [("contested", stands)] and alerts == ["contested"]
        write(b, path, BODY.replace("kept", "edited"))  # a drift where it stands
        wait_verdict(w, "drifted", path)
        assert _open(w) == [("contested", stands), ("drifted", stands)]
        write(b, path, BODY)  # back at ground: the contest stays
        wait_verdict(w, "clean", path, after=2)
        assert verdicts(w, path) == ["contested", "drifted", "clean"]
        assert _open(w) == [("contested", stands)]
