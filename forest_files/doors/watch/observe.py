"""The watchdog observer: non-recursive watches on the directories that matter.

Stores: nothing.
Refuses: nothing; when the native observer runs out of inotify watches or
instances (``OSError`` ENOSPC or EMFILE, at schedule or start) it switches to
``PollingObserver`` by itself and records why in ``fallback``.
Returns: ``Observers`` with ``start(dirs)``, ``restart(dirs)`` (also how the
memory watchdog retains in a long run is let go) and ``stop()`` (idempotent);
``LostEvents``, which tells the watcher when the kernel dropped events.

watchdog never hands an inotify queue overflow (``IN_Q_OVERFLOW``) to an event
handler: it only logs "Inotify queue overflowed; filesystem events were lost"
(watchdog 7) and goes on. Edits made in that storm would go unseen until the
periodic reconcile, so ``LostEvents`` listens on watchdog's logger for that
record and the watcher reconciles every binding at once.
Test: tests/doors/test_watch.py, tests/doors/test_watch_unreadable_folder.py
"""

from __future__ import annotations

import errno
import logging
import os
from collections.abc import Callable, Iterable

import watchdog.events
from watchdog.events import (
    DirCreatedEvent,
    DirDeletedEvent,
    DirMovedEvent,
    FileClosedEvent,
    FileCreatedEvent,
    FileDeletedEvent,
    FileModifiedEvent,
    FileMovedEvent,
    FileSystemEvent,
    FileSystemEventHandler,
)
from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver
from watchdog.observers.polling import PollingObserver

ObserverFactory = Callable[[bool, float], BaseObserver]
_LIMITS = {errno.ENOSPC: "inotify watch limit reached", errno.EMFILE: "too many open files"}
log = logging.getLogger("forest_files.doors.watch")
# What can change a bound file or the directories above it; a directory's own
# "modified" (every write inside it) and opens/reads never reach the handler.
EVENTS: list[type[FileSystemEvent]] = [
    FileCreatedEvent,
    FileModifiedEvent,
    FileDeletedEvent,
    FileMovedEvent,
    FileClosedEvent,
    DirCreatedEvent,
    DirDeletedEvent,
    DirMovedEvent,
]
# A chmod (a bound file made unreadable, or readable again) changes the verdict.
# watchdog 5+ reports it as its own event type, which the filter must name; older
# versions report it as "modified".
_ATTRIB: type[FileSystemEvent] | None = getattr(watchdog.events, "FileAttribEvent", None)
if _ATTRIB is not None:
    EVENTS.append(_ATTRIB)
# A folder holding bound files made readable again (the ``chmod`` the watcher told):
# its own watch could not be set while it was not, so only its parent's watch sees the
# change; the handler then re-aims the observer and judges the files below it.
_DIR_ATTRIB: type[FileSystemEvent] | None = getattr(watchdog.events, "DirAttribEvent", None)
if _DIR_ATTRIB is not None:
    EVENTS.append(_DIR_ATTRIB)


class LostEvents(logging.Handler):
    """Calls ``on_lost`` when watchdog logs that the kernel dropped events."""

    LOGGER = "watchdog.observers"  # inotify_c and inotify log below it

    def __init__(self, on_lost: Callable[[], None]) -> None:
        super().__init__(logging.WARNING)
        self.on_lost = on_lost

    def emit(self, record: logging.LogRecord) -> None:
        try:
            text = record.getMessage().lower()
        except Exception:  # a malformed record is not ours to judge
            return
        if "overflow" in text or "events were lost" in text:
            self.on_lost()

    def attach(self) -> LostEvents:
        logging.getLogger(self.LOGGER).addHandler(self)
        return self

    def detach(self) -> None:
        logging.getLogger(self.LOGGER).removeHandler(self)


def default_factory(poll: bool, interval: float) -> BaseObserver:
    return PollingObserver(timeout=interval) if poll else Observer()


class Observers:
    def __init__(
        self,
        handler: FileSystemEventHandler,
        *,
        poll: bool,
        interval: float,
        factory: ObserverFactory = default_factory,
    ) -> None:
        self.handler, self.poll, self.interval, self.factory = handler, poll, interval, factory
        self.fallback = ""  # why we poll although events were asked for
        self._observer: BaseObserver | None = None
        self.dirs: frozenset[str] = frozenset()

    @property
    def mode(self) -> str:
        return "polling" if self.poll else "events"

    def start(self, dirs: Iterable[str]) -> None:
        self.dirs = frozenset(d for d in dirs if os.path.isdir(d))
        try:
            self._observer = self._launch(self.poll)
        except OSError as exc:
            if self.poll or exc.errno not in _LIMITS:
                raise
            self.fallback = f"{_LIMITS[exc.errno]} ({errno.errorcode[exc.errno]}); polling instead"
            log.warning("observer: %s", self.fallback)
            self.poll = True
            self._observer = self._launch(True)

    def _launch(self, poll: bool) -> BaseObserver:
        observer = self.factory(poll, self.interval)
        observer.daemon = True
        try:
            for path in sorted(self.dirs):
                observer.schedule(self.handler, path, recursive=False, event_filter=EVENTS)
            observer.start()
        except BaseException:
            _halt(observer)
            raise
        return observer

    def restart(self, dirs: Iterable[str]) -> None:
        self.stop()
        self.start(dirs)

    def alive(self) -> bool:
        return self._observer is not None and self._observer.is_alive()

    def stop(self) -> None:
        observer, self._observer = self._observer, None
        if observer is not None:
            _halt(observer)


def _halt(observer: BaseObserver) -> None:
    observer.stop()
    if observer.is_alive():
        observer.join(timeout=10)
