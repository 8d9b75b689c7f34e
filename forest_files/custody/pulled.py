"""A forget that arrives by sync (a pull, a merge, a checkout): every local copy lets go.

A sync or rebuild that applies erase acts this index did not hold before owes
the purge a local forget does (custody/purge.py): cached views, captures, cache
files, matching proposals, the index's free pages and log (``secure_delete``,
FTS ``optimize``, ``VACUUM``, ``wal_checkpoint``). It is owed through the same
marker a forget writes (``purge.mark_pending``: act id and body hash, never
text), so a purge that fails or is killed is finished by the next command, and
the command says what it purged in one stderr line. A rebuild of an index that held
no text (a fresh clone's first command) whose purge found no local copy says nothing:
no copy of the erased text was here to let go.

Stores: ``purge-pending`` markers (through purge.py).
Refuses: nothing (a purge that fails raises ``PurgePending`` in purge.py).
Returns: ``erasures``: the (erase act, body hash) pairs an index holds; ``held_text``:
whether it holds any entry's text; ``say`` writes the one line.
Test: tests/governance/test_forget_pulled.py
"""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path

from forest_files.custody import tombstone
from forest_files.custody.purge import Purged, mark_pending
from forest_files.store.forest import ForestStore

_HASHES = (
    "SELECT DISTINCT e.body_hash FROM erasures x JOIN entries e ON e.id = x.entry_id "
    "ORDER BY e.body_hash"
)
_MARKS = "SELECT fingerprint, act_id FROM tombstone_lines"
_ANY_TEXT = "SELECT 1 FROM entries WHERE bucket != 'anchor' LIMIT 1"

Pairs = frozenset[tuple[str, str]]


def erasures(store: ForestStore) -> Pairs:
    """Every (erase act, body hash) the index holds (none for a fresh index)."""
    try:
        hashes = [str(r[0]) for r in store.conn.execute(_HASHES)]
        if not hashes:
            return frozenset()
        marks = {str(fp): str(act) for fp, act in store.conn.execute(_MARKS)}
    except sqlite3.OperationalError:  # a fresh index: its tables are made by the replay
        return frozenset()
    from forest_files.custody.apply import project_of

    project = project_of(store) or ""
    pairs = set()
    for body_hash in hashes:
        act = marks.get(tombstone.body_mark(project, body_hash))
        if act is not None:
            pairs.add((act, body_hash))
    return frozenset(pairs)


def held_text(store: ForestStore) -> bool:
    """Whether the index holds any entry's text (a fresh index, or one holding only its
    anchor, holds none: no erased text can linger in its pages)."""
    try:
        return store.conn.execute(_ANY_TEXT).fetchone() is not None
    except sqlite3.OperationalError:  # a fresh index: its tables are made by the replay
        return False


def owe_purges(root: Path, store: ForestStore, project: str, before: Pairs) -> int:
    """Mark the purge of every erase the index holds now and did not before; how many."""
    del project  # the pairs carry what the purge matches by
    new = sorted(erasures(store) - before)
    for act_id, body_hash in new:
        mark_pending(root, act_id, body_hash)
    return len(new)


def say(done: Sequence[tuple[str, Purged]], *, index_held_text: bool = True) -> None:
    """The one stderr line naming what a finished purge removed (counts, never text);
    nothing when the index never held text (``index_held_text`` False: a rebuild from
    nothing) and the purge found no file that held it."""
    if not done:
        return
    acts = ", ".join(a[:12] for a, _ in done)
    views = sum(p.views for _, p in done)
    files = sum(p.cache_files for _, p in done)
    proposals = sum(len(p.proposals) for _, p in done)
    bodies = sum(p.bodies for _, p in done)
    if not index_held_text and not (views or files or proposals or bodies):
        return
    sys.stderr.write(
        f"forest: erase act(s) {acts} (forest forget): purged every local copy of the "
        f"erased text — {views} cached view file(s), {files} capture/cache file(s), "
        f"{proposals} proposal(s), the index's free pages and log\n"
    )
