"""The watcher with a real watchdog observer on real repositories: every save style
ends in the right verdict, transients are not judged, git at work is waited out,
and watching never promotes anything."""

from __future__ import annotations

import errno
import os
import subprocess
import threading
import time
from pathlib import Path

import pytest
from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver

from forest_files.custody.proposals import ProposalStore
from forest_files.doors.watch.observe import default_factory
from forest_files.doors.watch.settings import WatchSettings
from forest_files.doors.watch.watcher import Watcher
from forest_files.kernel.hashing import hash_body
from tests.helpers.git import git
from tests.helpers.state import local_state
from tests.helpers.watch import (
    DOC,
    EDITED,
    FAST,
    SAVE_STYLES,
    TIMEOUT,
    bound_repo,
    checks,
    save_by_rename,
    save_in_place,
    settle,
    until,
    verdicts,
    wait_checks,
    wait_proposal,
    wait_verdict,
    watching,
)

EDITED_KEEP = "## Keep\n\nedited words\n\n"


def _open_proposals(root: Path) -> list[str | None]:
    with ProposalStore(root) as store:
        return [p.text for p in store.open_proposals()]


@pytest.mark.parametrize("style", sorted(SAVE_STYLES))
def test_watch_save_style_drift_detected(tmp_path: Path, style: str) -> None:
    root = bound_repo(tmp_path)
    with watching(root) as w:
        SAVE_STYLES[style](root / "a.md", EDITED)
        wait_verdict(w, "drifted")
        wait_proposal(w)
        SAVE_STYLES[style](root / "a.md", DOC)
        wait_verdict(w, "clean")
        # back at ground: the capture closes (issue 25.5), in the same batch
        assert until(lambda: _open_proposals(root) == [])


def test_watch_sed_in_place_drift_detected(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    with watching(root) as w:
        subprocess.run(["sed", "-i", "s/kept words/edited words/", str(root / "a.md")], check=True)
        wait_verdict(w, "drifted")
    assert _open_proposals(root) == [EDITED_KEEP]


def test_watch_zero_length_transient_not_judged(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    settings = WatchSettings(quiet=0.1, ceiling=1.0, grace=30, reconcile=3600)
    with watching(root, settings) as w:
        (root / "a.md").write_bytes(b"")  # the truncate half of a save in place
        ok = w.journal.wait_for(
            lambda rs: any(r.kind == "deferred" and r.detail == "empty" for r in rs), TIMEOUT
        )
        assert ok, w.journal.items()
        save_in_place(root / "a.md", DOC)
        settle(w, root)
        assert verdicts(w) == []


def test_watch_delete_then_rename_back_within_grace_not_reported(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    settings = WatchSettings(quiet=0.1, ceiling=1.0, grace=30, reconcile=3600)
    with watching(root, settings) as w:
        os.replace(root / "a.md", root / "a.md.orig")
        ok = w.journal.wait_for(
            lambda rs: any(r.kind == "deferred" and r.detail == "missing" for r in rs), TIMEOUT
        )
        assert ok, w.journal.items()
        os.replace(root / "a.md.orig", root / "a.md")
        settle(w, root)
        assert verdicts(w) == []


def test_watch_delete_past_grace_missing_detected(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    with watching(root) as w:
        (root / "a.md").unlink()
        wait_verdict(w, "missing")


def test_watch_write_storm_judged_at_ceiling_accepted(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    settings = WatchSettings(quiet=0.3, ceiling=0.6, grace=0.5, reconcile=3600)
    with watching(root, settings) as w:
        start = checks(w)
        stop = threading.Event()
        during: list[int] = []

        def storm() -> None:  # never quiet for 0.3 s: only the ceiling lets a check through
            n = 0
            deadline = time.monotonic() + TIMEOUT
            while not stop.is_set() and time.monotonic() < deadline:
                save_in_place(root / "a.md", DOC.replace("kept words", f"storm {n}"))
                n += 1
                stop.wait(0.01)

        writer = threading.Thread(target=storm)
        writer.start()
        seen = w.journal.wait_for(lambda rs: checks(w) > start, TIMEOUT)
        during.append(checks(w))
        stop.set()
        writer.join()
        assert seen and during[0] > start  # judged while the storm still ran


def test_watch_burst_of_writes_deduplicated_final_verdict_right(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    with watching(root) as w:
        start = checks(w)
        for n in range(1000):
            save_in_place(root / "a.md", DOC.replace("kept words", f"burst {n}"))
        final = "## Keep\n\nburst 999\n\n"

        def settled(_rs: object) -> bool:
            with ProposalStore(root) as store:
                return [p.text_hash for p in store.open_proposals()] == [hash_body(final)]

        assert w.journal.wait_for(settled, TIMEOUT)
        assert checks(w) - start < 100  # debounced, not one check per write
        assert verdicts(w)[-1] == "drifted"
    with ProposalStore(root) as store:
        (only,) = store.open_proposals()
        assert only.text == final


def test_watch_startup_reconciles_edits_made_while_stopped_detected(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    save_by_rename(root / "a.md", EDITED)
    with watching(root) as w:
        assert verdicts(w) == ["drifted"]
    assert _open_proposals(root) == [EDITED_KEEP]


def test_watch_git_forest_and_artefact_events_ignored(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    with watching(root) as w:
        before = checks(w)
        (root / ".git" / "scratch").write_text("x")
        (local_state(root) / "cache" / "scratch").write_text("x")
        (root / "a.md.swp").write_text("x")
        (root / "4913").write_text("x")
        (root / "unbound.md").write_text("x")
        settle(w, root)
        assert checks(w) == before + 1  # only the touch of a.md made a check
        assert verdicts(w) == []


@pytest.mark.parametrize("marker", ["index.lock", "MERGE_HEAD"])
def test_watch_git_mid_operation_only_collects_accepted(tmp_path: Path, marker: str) -> None:
    root = bound_repo(tmp_path)
    with watching(root) as w:
        (root / ".git" / marker).write_text("")
        save_by_rename(root / "a.md", EDITED)
        ok = w.journal.wait_for(
            lambda rs: any(r.kind == "held" and r.detail == marker for r in rs), TIMEOUT
        )
        assert ok and verdicts(w) == []
        (root / ".git" / marker).unlink()
        wait_verdict(w, "drifted")


def test_watch_branch_switch_resyncs_without_drift_accepted(tmp_path: Path) -> None:
    from tests.helpers.custody import supersede_as_it_stands

    root = bound_repo(tmp_path)
    git(root, "checkout", "-q", "-b", "other")
    save_in_place(root / "a.md", EDITED)
    supersede_as_it_stands(root, "a.md#Keep")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "amend on other")
    other = git(root, "rev-parse", "HEAD")
    git(root, "checkout", "-q", "main")
    with watching(root) as w:
        for branch, head in (("other", other), ("main", None)):
            git(root, "checkout", "-q", branch)
            head = head or git(root, "rev-parse", "HEAD")

            def caught_up(rs: list, head: str = head) -> bool:  # type: ignore[type-arg]
                heads = [i for i, r in enumerate(rs) if r.kind == "head" and r.detail == head]
                return bool(heads) and any(r.kind == "reconciled" for r in rs[heads[-1] :])

            assert w.journal.wait_for(caught_up, TIMEOUT), w.journal.items()
        settle(w, root)
        assert verdicts(w) == []
    assert _open_proposals(root) == []


def test_watch_polling_mode_drift_detected(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    settings = WatchSettings(quiet=0.1, ceiling=1.0, grace=0.5, poll=True, poll_interval=0.2)
    with watching(root, settings) as w:
        assert w.observers.mode == "polling"
        save_by_rename(root / "a.md", EDITED)
        wait_verdict(w, "drifted")


class _ExhaustedObserver(Observer):  # type: ignore[misc,valid-type]
    """A real inotify observer that meets the kernel's watch limit when scheduled."""

    def schedule(self, *args: object, **kw: object) -> object:
        raise OSError(errno.ENOSPC, "inotify watch limit reached")


def _exhausted(poll: bool, interval: float) -> BaseObserver:
    return default_factory(poll, interval) if poll else _ExhaustedObserver()


def test_watch_inotify_exhausted_falls_back_to_polling_recovers(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    settings = WatchSettings(quiet=0.1, ceiling=1.0, grace=0.5, poll_interval=0.2)
    with watching(root, settings, factory=_exhausted) as w:
        assert w.observers.mode == "polling" and "ENOSPC" in w.observers.fallback
        save_by_rename(root / "a.md", EDITED)
        wait_verdict(w, "drifted")


def test_watch_never_promotes_accepted(tmp_path: Path) -> None:
    from forest_files.custody.repository import Repository

    root = bound_repo(tmp_path)
    segments = sorted((root / ".forest" / "ledger" / "segments").iterdir())
    with Repository(root) as repo:
        ground = [g.content_id for g in repo.ground()]
    with watching(root) as w:
        save_by_rename(root / "a.md", EDITED)
        wait_verdict(w, "drifted")
    assert sorted((root / ".forest" / "ledger" / "segments").iterdir()) == segments
    with Repository(root) as repo:
        assert [g.content_id for g in repo.ground()] == ground
    assert git(root, "status", "--porcelain") == " M a.md"  # local.db is never offered to git


def test_watch_directory_renamed_detected(tmp_path: Path) -> None:
    root = bound_repo(tmp_path, files=2)
    with watching(root) as w:
        os.rename(root / "d", root / "e")
        ok = w.journal.wait_for(
            lambda rs: any(r.kind == "verdict" and r.path == "d/f1.md" for r in rs), TIMEOUT
        )
        assert ok and verdicts(w, "d/f1.md")[0] in ("moved", "missing")
        os.rename(root / "e", root / "d")
        wait_verdict(w, "clean", "d/f1.md")
        save_by_rename(root / "d" / "f1.md", EDITED)  # the watch followed the directory
        wait_verdict(w, "drifted", "d/f1.md")


def test_watch_new_binding_noticed_detected(tmp_path: Path) -> None:
    from forest_files.custody.record import adopt_sections
    from forest_files.custody.repository import Repository
    from forest_files.custody.targets import read_section
    from tests.helpers.custody import init_and_adopt  # noqa: F401  (same builders)
    from tests.helpers.git import write

    root = bound_repo(tmp_path)
    with watching(root) as w:
        write(root, "n/new.md", DOC)
        reconciled = w.journal.counts.get("reconciled", 0)
        with Repository(root) as repo:
            section = read_section(root, "n/new.md#Keep", (), max_bytes=1 << 20)
            adopt_sections(repo, [section], words="adopt new", by="t <t@example.org>")
        assert w.journal.wait_for(
            lambda rs: sum(r.kind == "reconciled" for r in rs) > reconciled, TIMEOUT
        )
        save_by_rename(root / "n" / "new.md", EDITED)
        wait_verdict(w, "drifted", "n/new.md")


def test_watch_stop_idempotent_joins_threads_accepted(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    w = Watcher(root, FAST)
    w.start()
    wait_checks(w, 1)
    w.stop()
    w.stop()
    assert w._thread is not None and not w._thread.is_alive()
    assert not w.observers.alive()
