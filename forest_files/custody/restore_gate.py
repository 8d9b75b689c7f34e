"""What a write from custody decided on (ground, place), seen again under the write lock.

Stores: nothing; holds the index's write lock (``BEGIN IMMEDIATE``: the lock every
recording takes, custody/recording.py) from just before a restore's first rename
until after its last, so no act can be recorded between that look and the renames.
A supersede reads its files under that same lock (``again`` in record_rebind.py),
so the two meet in one order: the supersede first (the restore leaves the file),
or the restore first (the supersede sees the restored text and is refused). Every
door that writes a bound file's text from custody enters it: ``forest restore``
(restore_commit.py), the watcher's ``restore`` policy (doors/watch/route.py, through
restore_files.py ``replace_file``) and ``forest proposals adopt``, which also
records inside it (proposals/adopt.py).
Refuses: nothing; it names the files to leave as they are: those holding a section
whose ground is no longer the one decided on (another command superseded, retired
or contested it meanwhile), or whose binding no longer stands where it was decided
on (rebound, even without words: the ground is the same, the place is not).
Returns: ``grounds_held``, the gate ``write_all`` and ``replace_file`` enter.
Test: tests/custody/test_restore_race.py, tests/proposals/test_adopt_race.py,
tests/doors/test_watch_policy.py
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

from forest_files.custody.bindings import all_bindings
from forest_files.custody.record_ground import ground_body

if TYPE_CHECKING:
    from forest_files.custody.bindings import Binding
    from forest_files.custody.restore_files import Gate
    from forest_files.store.forest import ForestStore


def grounds_held(store: ForestStore, decided: Sequence[tuple[Binding, str]]) -> Gate:
    """The gate of a write that decided on ground ``content id`` for each binding:
    entered, it holds the write lock and yields the paths whose ground moved on or
    whose binding moved (or ended) since."""

    @contextmanager
    def gate() -> Iterator[frozenset[str]]:
        with store.atomic():
            now = {b.bind_act: b for b in all_bindings(store, paths={b.path for b, _ in decided})}
            yield frozenset(
                b.path
                for b, cid in decided
                if not _stands(now.get(b.bind_act), b) or _ground_now(store, b) != cid
            )

    return gate


def _stands(now: Binding | None, decided: Binding) -> bool:
    """The binding still live where it was decided on (a rebind without words keeps
    the ground but moves the place a write must go)."""
    place = (decided.path, decided.selector, decided.excludes)
    return now is not None and (now.path, now.selector, now.excludes) == place


def _ground_now(store: ForestStore, binding: Binding) -> str | None:
    head, _state = ground_body(store, binding)
    return None if head is None else store.content_id(head)
