"""The grounds a restore decided on, looked at again under the index's write lock.

Stores: nothing; holds the index's write lock (``BEGIN IMMEDIATE``: the lock every
recording takes, custody/recording.py) from just before a restore's first rename
until after its last, so no act can be recorded between that look and the renames.
A supersede reads its files under that same lock (``again`` in record_rebind.py),
so the two meet in one order: the supersede first (the restore leaves the file),
or the restore first (the supersede sees the restored text and is refused).
Refuses: nothing; it names the files to leave as they are: those holding a section
whose ground is no longer the one the restore decided on (another command
superseded, retired or contested it meanwhile).
Returns: ``grounds_held``, the gate restore_commit.py's ``write_all`` enters.
Test: tests/custody/test_restore_race.py
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

from forest_files.custody.record_ground import ground_body

if TYPE_CHECKING:
    from forest_files.custody.bindings import Binding
    from forest_files.custody.restore_commit import Gate
    from forest_files.store.forest import ForestStore


def grounds_held(store: ForestStore, decided: Sequence[tuple[Binding, str]]) -> Gate:
    """The gate of a restore that decided on ground ``content id`` for each binding:
    entered, it holds the write lock and yields the paths whose ground moved on."""

    @contextmanager
    def gate() -> Iterator[frozenset[str]]:
        with store.atomic():
            yield frozenset(b.path for b, cid in decided if _ground_now(store, b) != cid)

    return gate


def _ground_now(store: ForestStore, binding: Binding) -> str | None:
    head, _state = ground_body(store, binding)
    return None if head is None else store.content_id(head)
