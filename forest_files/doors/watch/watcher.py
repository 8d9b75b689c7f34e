"""The watcher: observers note paths, one worker judges them through the check path.

Stores: nothing itself: what a batch's verdicts lead to (proposals, rebind
proposals, a ``restore`` policy's write, the audit log) is respond.py's. It
never roots, supersedes or rebinds: the index is brought in step by the check
path itself.
Refuses: nothing; an error is logged in one line (never a section's text; a
bug's traceback goes to a crash log, doors/crashlog.py, named in that line),
kept for ``status`` (``problem`` while it lasts; the same error again is not
logged again), and the loop goes on. A ``forest.toml`` that stops parsing
leaves the last good bindings, watches and policies in force; its edits
trigger a full reload, so the repaired file is picked up at once.
Returns: ``Watcher`` — ``start()``, ``stop()`` (idempotent, joins its thread
and the observer), ``journal`` (what it did), ``open_findings()``; ``alert``
(if given) is called once with each finding that newly failed (respond.py).

The worker, per batch: while git is mid-operation (gitstate.py) it only holds
the batch; when HEAD moved, the ledger changed or a watched directory moved
it reloads the bindings, re-aims the observer and checks everything; else it
checks only the bound paths the events named, after letting a deleted or
emptied file wait ``grace`` for the rename or write that usually follows (grace.py). A
verdict reached while git started (or HEAD moved) is thrown away and the
whole tree judged again once git is done. A full reconcile runs at start and
every ``reconcile`` seconds: events are hints, the periodic check is the truth.
Test: tests/doors/test_watch.py
"""

from __future__ import annotations

import collections
import logging
import os
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from forest_files.check.findings import Reported
from forest_files.doors.watch import judge
from forest_files.doors.watch.collector import Batch, Collector
from forest_files.doors.watch.events import BoundSet, Handler, required_dirs
from forest_files.doors.watch.gitstate import GitState
from forest_files.doors.watch.grace import Grace
from forest_files.doors.watch.journal import Journal
from forest_files.doors.watch.observe import LostEvents, ObserverFactory, Observers, default_factory
from forest_files.doors.watch.respond import Alert, Responder, Sink
from forest_files.doors.watch.settings import WatchSettings
from forest_files.doors.watch.unreadable import THEN, Unreadable
from forest_files.kernel.access import denied_line
from forest_files.kernel.errors import ForestError, StoreBusy
from forest_files.kernel.exits import one_line
from forest_files.kernel.paths import CONFIG_NAME, LEDGER_DIR, SEGMENTS

log = logging.getLogger("forest_files.doors.watch")
_RELOAD = frozenset({"custody", "config", "dirs", "full"})
_CACHE_WRITE_EVERY = 5.0  # seconds between writes of one local cache file
_LOST_WAIT = 1.0  # seconds from an inotify overflow to the reconcile it calls for


class Watcher:
    def __init__(
        self,
        root: Path,
        settings: WatchSettings | None = None,
        *,
        sink: Sink | None = None,
        alert: Alert | None = None,
        factory: ObserverFactory = default_factory,
    ) -> None:
        from forest_files.custody.repository import find_root

        self.root = find_root(root)
        self.settings = settings or WatchSettings()
        self.journal = Journal()
        self.collector = Collector(self.settings.quiet, self.settings.ceiling)
        self.git = GitState(self.root)
        self.head: str | None = None
        self.bound = BoundSet()
        self.errors: collections.deque[str] = collections.deque(maxlen=20)
        self.problem = ""  # the error the last batch ended in; "" once one succeeds
        self._erred = False
        self.error_count = 0  # every error, repeats included
        self.on_batch: Callable[[], None] | None = None  # the daemon writes its state here
        self.held = ""  # the git marker the last batch waited on ("" once git was done)
        handler = Handler(str(self.root), self.collector, lambda: self.bound)
        s = self.settings
        self.observers = Observers(handler, poll=s.poll, interval=s.poll_interval, factory=factory)
        self.verdicts = judge.Verdicts(self.journal)
        self.unreadable = Unreadable(self.journal, self.errors)
        self.grace = Grace(self.root, self.settings.grace, self.journal, self.collector)
        self._stop = threading.Event()
        self._stopped = False
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._lost: LostEvents | None = None  # set by start(): watchdog's dropped-events log
        self._events_at_restart = 0
        self.respond = Responder(
            self.root,
            self.journal,
            self.verdicts,
            self.collector,
            sink=sink,
            alert=alert,
            error=self._error,
        )
        self.respond.retry_cap = self.settings.reconcile  # an unkept proposal's longest wait

    # -- life ------------------------------------------------------------------
    def start(self) -> None:
        from forest_files.custody import cachefile

        self._lost = LostEvents(self._events_lost).attach()
        # One process judging one save at a time: the local caches are written at
        # most every few seconds (and at stop), not whole after every save.
        cachefile.defer_writes(_CACHE_WRITE_EVERY)
        self._load()
        self.observers.start(self._dirs())
        self._thread = threading.Thread(target=self._run, name="forest-watch", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        with self._lock:
            if self._stopped:
                return
            self._stopped = True
        self._stop.set()
        self.collector.close()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=30)
        self.observers.stop()
        if self._lost is not None:
            self._lost.detach()
        from forest_files.custody import cachefile

        cachefile.flush_writes()
        cachefile.defer_writes(0)

    def _events_lost(self) -> None:
        """The kernel dropped events (an inotify queue overflow): judge everything,
        once the storm has had a moment (overflows come in runs: one reconcile per
        ``_LOST_WAIT`` seconds at most, not one for each)."""
        log.warning("events were lost (inotify queue overflow): reconciling every binding")
        self.journal.add("lost", detail="inotify queue overflow")
        self.collector.hold({}, frozenset({"full"}), time.monotonic() + _LOST_WAIT)

    def open_findings(self) -> list[Reported]:
        return self.verdicts.open_findings()

    # -- custody ---------------------------------------------------------------
    def _load(self) -> None:
        from forest_files.check.opening import open_custody
        from forest_files.custody.config import load_config

        config = load_config(self.root / CONFIG_NAME)
        self.respond.max_bytes = config.max_body_bytes
        self.respond.policies = config.watch
        with open_custody(self.root, "worktree") as custody:
            live = [b for b in custody.bindings if not b.retired]
        self.respond.excludes = {b.bind_act: b.excludes for b in live}
        self.respond.taken = frozenset(b.selector for b in live)
        self.bound = BoundSet.of((b.path for b in live), config.require)

    def _dirs(self) -> list[str]:
        root = str(self.root)
        dirs = {root, os.path.join(root, *LEDGER_DIR.split("/"), SEGMENTS)}
        dirs.update(os.path.join(root, *d.split("/")) for d in self.bound.dirs)
        dirs.update(required_dirs(self.root, [r.glob for r in self.bound.required]))
        return sorted(dirs)

    # -- the worker ------------------------------------------------------------
    def _run(self) -> None:
        due = time.monotonic()  # the start-up reconcile: edits made while stopped
        batch: Batch | None = Batch(flags=frozenset({"full"}))
        while batch is not None and not self._stop.is_set():
            self._erred = False
            checked = self.journal.counts.get("check", 0)
            try:
                if self._process(batch):
                    due = time.monotonic() + self.settings.reconcile
                if not self._erred and self.journal.counts.get("check", 0) > checked:
                    self._recovered()
            except StoreBusy as exc:
                self._error(exc)
                self.collector.hold(batch.paths, batch.flags, time.monotonic() + 1.0)
            except Exception as exc:  # one bad file or a bad forest.toml: log, go on
                self._error(exc)
            if self.on_batch is not None:
                self.on_batch()
            batch = self.collector.take(max(due, time.monotonic()))

    def _error(self, exc: BaseException) -> None:
        text = one_line(exc) if isinstance(exc, ForestError) else type(exc).__name__
        if isinstance(exc, OSError) and exc.filename:
            denied = denied_line(exc, THEN)  # a state file this user may not use: its fix
            text = denied or f"{type(exc).__name__} on {exc.filename}: {exc.strerror}"
        self._erred = True
        self.error_count += 1
        if text == self.problem:  # still failing the same way: said once already
            return
        self.problem = text
        log.warning("error: %s%s", text, self._crash_note(exc))
        self.errors.append(text)
        self.journal.add("error", detail=text)

    def _crash_note(self, exc: BaseException) -> str:
        """An error that is neither a refusal nor a file's (OSError) is a bug: its
        traceback goes to a crash log (doors/crashlog.py), named in the watch log."""
        if isinstance(exc, (ForestError, OSError)):
            return ""
        from forest_files.doors.crashlog import write_crash_log

        try:
            path = write_crash_log(exc, self.root, "watch", sys.argv)
        except Exception:  # no git directory any more: the line stands alone
            return " (no crash log written)"
        return f"; details in {path}"

    def _recovered(self) -> None:
        if self.problem:
            log.info("ok again (the last error was: %s)", self.problem)
            self.journal.add("recovered", detail=self.problem)
            self.problem = ""

    def _process(self, batch: Batch) -> bool:
        """Judge one batch; True when it was a full reconcile."""
        now = time.monotonic()
        busy = self.git.busy()
        self.held = busy or ""
        if busy is not None:
            self.journal.add("held", detail=busy)
            self.collector.hold(batch.paths, batch.flags, now + self.settings.git_retry)
            return False
        head = self.git.head()
        full = bool(batch.flags & (_RELOAD | {"periodic"})) or head != self.head
        if head != self.head:
            self.journal.add("head", detail=head or "")
            self.head = head
        if full:  # the bindings (and so the watched directories) may have changed
            self._reload(force="dirs" in batch.flags)
        if full:
            paths: tuple[str, ...] = ()
        else:
            paths = self.grace.ready(batch, now, self.bound)
            if not paths:
                return False
        read = judge.check_readable(self.root, paths, self._stop, self.bound)
        if self.git.busy() is not None or self.git.head() != self.head:
            # git started while we judged: these verdicts may mix two states
            self.collector.hold({}, frozenset({"full"}), now + self.settings.git_retry)
            return False
        standing = self.unreadable.take(read.denied, read.paths if read.judged else None)
        if standing:  # said once; the problem `status` shows while it lasts
            self._erred, self.problem = True, standing
        self.error_count += bool(read.denied)  # counted at each check it fails, as a repeat
        if read.judged:  # an unreadable file keeps its last verdict
            self._take(read.items, full, read.paths, tuple(read.denied))
        self.collector.follow(self.verdicts.searching(), since=now)
        self.journal.add("check", detail=str(len(paths)) if paths else "all")
        if full:
            self.journal.add("reconciled")
        return full

    def _reload(self, *, force: bool) -> None:
        before = self.observers.dirs
        self._load()
        events = self.collector.events
        stale = events - self._events_at_restart >= self.settings.restart_events
        if force or stale or frozenset(d for d in self._dirs() if os.path.isdir(d)) != before:
            self.observers.restart(self._dirs())
            self._events_at_restart = events

    def _take(
        self,
        items: list[Reported],
        full: bool,
        paths: tuple[str, ...] = (),
        unread: tuple[str, ...] = (),
    ) -> None:
        self.respond.take(items, full, paths, self.head, unread)
        self.grace.seen({r.finding.path for r in items})
