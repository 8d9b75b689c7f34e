"""The watcher under git rebases and bad input, with a real observer on real
repositories: a rebase is waited out (no false drift, no restore), a file
replaced by a directory, an unreadable file and a corrupt ``forest.toml`` are
each said once and the watcher goes on, and ``--notify`` sends one
notification per new drift, never its text."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from forest_files.custody.proposals import ProposalStore
from forest_files.doors.watch.daemon import stop
from forest_files.doors.watch.lock import running
from forest_files.doors.watch.observe import LostEvents
from forest_files.kernel.paths import WATCH_LOG
from tests.helpers.cli import forest, kinds
from tests.helpers.git import commit_all, git
from tests.helpers.state import local_state, shared_state
from tests.helpers.watch import (
    DOC,
    EDITED,
    TIMEOUT,
    bound_repo,
    count,
    fake_notify_send,
    open_kinds,
    save_by_rename,
    settle,
    until,
    verdicts,
    wait_verdict,
    watch_state,
    watching,
)

# The slow lane (.ci/run runs it; the README's fast command leaves it out):
# real watchers through overflow, conflicts and restarts.
pytestmark = pytest.mark.slow

FAST = ["--quiet", "0.1", "--ceiling", "1", "--grace", "0.5"]
SECRET = "sentinel-body-7f3a"  # section text that must never reach a log or a notification


# -- a watcher process, as `forest watch` runs it --------------------------------------
@pytest.fixture
def root(tmp_path: Path) -> Iterator[Path]:
    path = bound_repo(tmp_path)
    yield path
    stop(path)  # whatever a test left running


def _start(root: Path, *extra: str, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    child = subprocess.Popen(
        [sys.executable, "-m", "forest_files.doors.watch", "--repo", str(root), *FAST, *extra],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert until(lambda: running(root) == child.pid and watch_state(root).get("checks", 0) >= 1)
    return child


def _checks(root: Path) -> int:
    return int(watch_state(root).get("checks", 0))  # type: ignore[call-overload]


def _log_lines(root: Path, *needles: str) -> list[str]:
    text = (local_state(root) / WATCH_LOG).read_text(encoding="utf-8")
    return [line for line in text.splitlines() if all(n in line for n in needles)]


def _until(root: Path, predicate: Callable[[], bool]) -> None:
    assert until(predicate), watch_state(root)


def _proposals(root: Path) -> list[str | None]:
    if not (shared_state(root) / "local.db").exists():
        return []
    with ProposalStore(root) as store:
        return [p.text for p in store.open_proposals()]


def _touch_again(root: Path) -> None:
    """Rewrite a.md with the bytes it holds and wait for that check (every earlier
    event has been judged by then)."""
    n = _checks(root)
    save_by_rename(root / "a.md", (root / "a.md").read_text(encoding="utf-8"))
    assert until(lambda: _checks(root) > n), watch_state(root)


# -- a rebase while watching -----------------------------------------------------------
def _rebase_repo(tmp_path: Path) -> Path:
    """``feature`` edits a.md's Keep and Other (then adopts the new Keep); ``main``
    also moved: it edits Other. ``feature`` is checked out; a rebase onto main stops
    on the Other conflict with Keep edited but not yet adopted on that base."""
    from tests.helpers.custody import supersede_as_it_stands

    root = bound_repo(tmp_path)
    with (root / "forest.toml").open("a", encoding="utf-8") as fh:
        fh.write('\n[watch]\n"a.md" = "restore"\n')  # a restore would be seen at once
    commit_all(root, "restore policy")
    git(root, "checkout", "-q", "-b", "feature")
    save_by_rename(root / "a.md", EDITED.replace("other words", "feature other"))
    commit_all(root, "feature edits")
    supersede_as_it_stands(root, "a.md#Keep")
    commit_all(root, "feature adopts its Keep")
    git(root, "checkout", "-q", "main")
    save_by_rename(root / "a.md", DOC.replace("other words", "main other"))
    commit_all(root, "main moves")
    git(root, "checkout", "-q", "feature")
    return root


@pytest.mark.parametrize(
    ("backend", "marker"), [("--merge", "rebase-merge"), ("--apply", "rebase-apply")]
)
def test_watch_rebase_waited_out_no_false_drift_no_restore_accepted(
    tmp_path: Path, backend: str, marker: str
) -> None:
    root = _rebase_repo(tmp_path)
    with watching(root) as w:
        assert w.open_findings() == []
        stopped = subprocess.run(
            ["git", "rebase", backend, "main"], cwd=root, capture_output=True, check=False
        )
        assert stopped.returncode != 0 and (root / ".git" / marker).exists(), stopped
        conflicted = (root / "a.md").read_bytes()
        assert b"<<<<<<<" in conflicted and b"edited words" in conflicted
        seen = len(w.journal.items("held"))
        save_by_rename(root / "a.md", conflicted.decode())  # an editor open on it, mid-rebase
        assert w.journal.wait_for(
            lambda rs: sum(r.kind == "held" and r.detail == marker for r in rs) > seen + 1,
            TIMEOUT,
        ), w.journal.items()
        assert verdicts(w) == [] and w.journal.items("restore") == []
        assert (root / "a.md").read_bytes() == conflicted  # nothing restored mid-rebase
        save_by_rename(root / "a.md", EDITED.replace("other words", "main other"))
        git(root, "add", "a.md")
        env = {**os.environ, "GIT_EDITOR": "true"}
        subprocess.run(["git", "rebase", "--continue"], cwd=root, env=env, check=True)
        assert not (root / ".git" / marker).exists()
        head = git(root, "rev-parse", "HEAD")

        def caught_up(rs: list) -> bool:  # type: ignore[type-arg]
            at = [i for i, r in enumerate(rs) if r.kind == "head" and r.detail == head]
            return bool(at) and any(r.kind == "reconciled" for r in rs[at[-1] :])

        assert w.journal.wait_for(caught_up, TIMEOUT), w.journal.items()
        settle(w, root)
        assert verdicts(w) == [] and w.journal.items("restore") == []
        assert w.open_findings() == [] and set(kinds(root)) == {"clean"}  # as `forest check`
    assert _proposals(root) == []


# -- a bound file replaced by a directory -----------------------------------------------
def test_watch_file_replaced_by_directory_said_once_keeps_running_detected(root: Path) -> None:
    child = _start(root)
    (root / "a.md").unlink()
    (root / "a.md").mkdir()
    (root / "a.md" / "inside.md").write_text(DOC, encoding="utf-8")
    expected = kinds(root)
    assert expected == ["unresolved"]  # what `forest check` says of a directory there
    _until(root, lambda: open_kinds(root) == expected)
    assert len(_log_lines(root, "unresolved a.md#Title/Keep", "directory")) == 1
    shown = forest(root, "watch", "status").stdout
    assert "unresolved a.md#Title/Keep" in shown
    shutil.rmtree(root / "a.md")  # the file comes back: the same watcher sees it
    (root / "a.md").write_text(DOC, encoding="utf-8")
    _until(root, lambda: open_kinds(root) == [])
    assert running(root) == child.pid and child.poll() is None
    assert stop(root).startswith("stopped") and child.wait(TIMEOUT) == 0


# -- an unreadable bound file ----------------------------------------------------------
def _chmod_denies(path: Path) -> bool:
    """chmod 000 keeps this process out (not so for root: then the test is skipped)."""
    probe = path.with_name("probe.unreadable")
    probe.write_text("x")
    probe.chmod(0)
    try:
        probe.read_bytes()
    except PermissionError:
        return True
    finally:
        probe.unlink()
    return False


def test_watch_unreadable_file_judged_as_check_says_recovers(tmp_path: Path) -> None:
    root = bound_repo(tmp_path)
    if not _chmod_denies(root / "a.md"):
        pytest.skip("chmod 000 does not deny reads here (running as root)")
    with watching(root) as w:
        (root / "a.md").chmod(0)
        try:
            expected = kinds(root)
            assert expected and expected != ["clean"]
            wait_verdict(w, expected[0])
            assert [r.finding.kind for r in w.open_findings()] == expected
        finally:
            (root / "a.md").chmod(0o644)
        wait_verdict(w, "clean", after=1)  # readable again: clean again, still watching
        assert w._thread is not None and w._thread.is_alive()
        assert SECRET not in " ".join(w.errors)


# -- forest.toml made corrupt while the watcher runs ------------------------------------
def test_watch_corrupt_config_said_once_last_good_kept_repair_picked_up_recovers(
    root: Path,
) -> None:
    good = (root / "forest.toml").read_text(encoding="utf-8")
    child = _start(root)
    save_by_rename(root / "forest.toml", good + "\n[watch\n")  # not TOML any more
    _until(root, lambda: "not valid TOML" in str(watch_state(root).get("problem")))
    failed = int(watch_state(root)["error_count"])  # type: ignore[call-overload]
    shown = forest(root, "watch", "status").stdout
    assert "failing now:" in shown and "forest.toml" in shown
    # an edit while it is corrupt: judged (and failing) the same way, said no more
    save_by_rename(root / "a.md", EDITED.replace("edited words", SECRET))
    _until(root, lambda: int(watch_state(root)["error_count"]) > failed)  # type: ignore[call-overload]
    assert len(_log_lines(root, "not valid TOML")) == 1
    assert running(root) == child.pid and child.poll() is None
    # repaired, with a new policy: it takes effect, and the edit made meanwhile is caught
    save_by_rename(root / "forest.toml", good + '\n[watch]\n"a.md" = "notify"\n')
    _until(root, lambda: watch_state(root).get("problem") == "" and open_kinds(root) == ["drifted"])
    assert _proposals(root) == []  # notify: the repaired config's policy, not the default
    assert kinds(root) == ["drifted"]
    assert len(_log_lines(root, "ok again")) == 1
    assert SECRET not in (local_state(root) / WATCH_LOG).read_text(encoding="utf-8")
    assert stop(root).startswith("stopped") and child.wait(TIMEOUT) == 0


# -- --notify ----------------------------------------------------------------------------


def _path_with_git_only(bin_dir: Path) -> str:
    """A PATH where git exists and notify-send does not."""
    bin_dir.mkdir(exist_ok=True)
    found = shutil.which("git")
    assert found is not None
    (bin_dir / "git").symlink_to(found)
    return str(bin_dir)


def test_watch_notify_one_notification_per_drift_no_text_accepted(
    root: Path, tmp_path: Path
) -> None:
    out = tmp_path / "notified.jsonl"
    fake_notify_send(tmp_path / "bin", out)
    env = {**os.environ, "PATH": f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}"}
    child = _start(root, "--notify", env=env)
    save_by_rename(root / "a.md", EDITED.replace("edited words", SECRET))
    _until(root, lambda: open_kinds(root) == ["drifted"])
    _touch_again(root)  # the same drift judged again: no second notification
    save_by_rename(root / "a.md", DOC)
    _until(root, lambda: open_kinds(root) == [])  # cleared: not a notification either
    calls = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(calls) == 1, calls
    (args,) = calls
    assert args[0] == "forest-files" and args[1].startswith("drifted a.md#Title/Keep")
    assert SECRET not in out.read_text(encoding="utf-8")
    assert stop(root).startswith("stopped") and child.wait(TIMEOUT) == 0


def test_watch_notify_without_notify_send_said_once_keeps_running_accepted(
    root: Path, tmp_path: Path
) -> None:
    env = {**os.environ, "PATH": _path_with_git_only(tmp_path / "bin")}
    child = _start(root, "--notify", env=env)
    for _ in range(2):  # two drifts, two clears: still one line about notify-send
        save_by_rename(root / "a.md", EDITED)
        _until(root, lambda: open_kinds(root) == ["drifted"])
        save_by_rename(root / "a.md", DOC)
        _until(root, lambda: open_kinds(root) == [])
    assert len(_log_lines(root, "notify-send is not on PATH")) == 1
    assert running(root) == child.pid and child.poll() is None
    assert stop(root).startswith("stopped") and child.wait(TIMEOUT) == 0


# -- a proposal that cannot be written; the repository deleted -------------------------
def test_watch_proposal_store_unwritable_said_edit_kept_keeps_running_recovers(
    tmp_path: Path,
) -> None:
    """A proposal that cannot be written (a full disk's stand-in: a directory where
    ``local.db`` belongs): the drift is still reported, the error is said,
    the user's edit is left exactly as saved, and the watcher goes on judging."""
    root = bound_repo(tmp_path)
    local = shared_state(root) / "local.db"
    for leftover in shared_state(root).glob("local.db*"):
        leftover.unlink()
    local.mkdir()
    with watching(root) as w:
        save_by_rename(root / "a.md", EDITED)
        wait_verdict(w, "drifted")
        assert until(lambda: bool(w.errors))
        assert (root / "a.md").read_text(encoding="utf-8") == EDITED
        assert SECRET not in " ".join(w.errors)
        save_by_rename(root / "a.md", DOC)
        wait_verdict(w, "clean", after=1)
        assert w._thread is not None and w._thread.is_alive()
    assert local.is_dir()  # nothing was put in its place


def test_watch_repository_deleted_while_watched_said_stops_cleanly_recovers(
    tmp_path: Path,
) -> None:
    """The whole working tree removed under a running watcher: it says so (an error,
    never a crash of its thread) and still stops cleanly."""
    root = bound_repo(tmp_path)
    with watching(root) as w:
        shutil.rmtree(root)
        assert until(lambda: bool(w.errors) or not w._thread or not w._thread.is_alive())
        assert w._thread is not None and w._thread.is_alive()
    assert not root.exists()


# -- events the kernel dropped -----------------------------------------------------------
def test_watch_events_lost_overflow_reconciles_everything_detected(tmp_path: Path) -> None:
    """An edit no event reports (written through a hard link in a directory nobody
    watches: inotify tells only the directory the write went through — what an
    overflowing queue does to a storm of saves), then watchdog's own record of an
    inotify queue overflow, logged as watchdog logs it: the watcher judges every
    binding at once and finds the drift (without waiting for the periodic
    reconcile, an hour away in these settings)."""
    import logging

    root = bound_repo(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    with watching(root) as w:
        settle(w, root)  # a rename: link the file that stands there now
        linked = len(w.journal.items("check"))
        os.link(root / "a.md", elsewhere / "same-inode.md")
        # a link-count change may be reported: let its check (of clean text) go by
        w.journal.wait_for(lambda rs: count("check")(rs) > linked, 1.0)
        with open(elsewhere / "same-inode.md", "r+", encoding="utf-8") as fh:
            fh.write(EDITED)
        assert (root / "a.md").read_text(encoding="utf-8") == EDITED
        unseen = len(w.journal.items("check"))
        assert not w.journal.wait_for(lambda rs: count("check")(rs) > unseen, 1.0)
        assert verdicts(w)[-1:] != ["drifted"]  # no event: nothing judged yet
        logging.getLogger("watchdog.observers.inotify_c").warning(
            "Inotify queue overflowed; filesystem events were lost"
        )
        wait_verdict(w, "drifted")
        assert any(r.kind == "lost" for r in w.journal.items())
    assert not any(isinstance(h, LostEvents) for h in logging.getLogger(LostEvents.LOGGER).handlers)
