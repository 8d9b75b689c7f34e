"""What a migration reports: the tally of what it met, its notes, and the views it compared.

Stores: nothing; reads the source and the finished copy to compare their views.
Refuses: a copy whose sealed entries differ from the source's, or whose current
ground differs by more than a contested fork (two live heads of one chain).
Returns: ``MigrationReport``; ``Tally`` (filled by the copy); the notes on every
translation made; ``ids`` (a short, sorted list of entry ids for a message).
Test: tests/face/test_migrate.py (through ``forest_files.migrate``)
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field

from forest_files.kernel.errors import ForestError
from forest_files.store.migrate_source import SourceVersion

MIGRATION_SCOPE = "default"


@dataclass(frozen=True)
class MigrationReport:
    """What a migration copied, and every translation it had to make."""

    source_version: SourceVersion
    entries: int
    edges: int
    retrieval_log: int
    notes: tuple[str, ...] = ()


@dataclass
class Tally:
    entries: int = 0
    tampered: list[int] = field(default_factory=list)
    bad_meta: list[int] = field(default_factory=list)
    bad_bucket: list[int] = field(default_factory=list)
    canon: list[int] = field(default_factory=list)
    pairs_03: list[int] = field(default_factory=list)

    def refused(self) -> bool:
        return bool(self.tampered or self.bad_meta or self.bad_bucket)


def translation_notes(version: SourceVersion, tally: Tally) -> list[str]:
    notes = [
        f"content ids computed in scope {MIGRATION_SCOPE!r} with nonce 'migrated:<old id>'; "
        "ids, timestamps, bodies, hashes, signatures and meta are verbatim"
    ]
    if version == "0.3":
        notes.append("0.3 column forest became jurisdiction; source is NULL for every entry")
    if tally.canon:
        notes.append(
            f"canon entries {ids(tally.canon)} became bucket 'note': canon was 0.3's minted "
            "ground, and their ground status is kept by their adoption edges, not the bucket"
        )
    if tally.pairs_03:
        notes.append(
            f"session_pair entries {ids(tally.pairs_03)} became bucket 'pair' with their meta "
            "kept; they lack scroll evidence (0.3 pairs had no scroll pointer)"
        )
    return notes


def compare_views(src: sqlite3.Connection, dst: sqlite3.Connection) -> list[str]:
    """Ground and sealed sets must survive; the only allowed drift is a contested fork."""
    if _id_set(src, "sealed_entries") != _id_set(dst, "sealed_entries"):
        raise ForestError("sealed entries differ after migration; nothing was migrated")
    lost = _id_set(src, "current_ground") - _id_set(dst, "current_ground")
    gained = _id_set(dst, "current_ground") - _id_set(src, "current_ground")
    unexplained = lost - _id_set(dst, "contested_entries")
    if gained or unexplained:
        raise ForestError(
            f"current ground differs after migration (lost {ids(lost)}, gained {ids(gained)}); "
            "nothing was migrated"
        )
    if not lost:
        return []
    return [
        f"entries {ids(lost)} were ground in the source but are contested here: two live "
        "heads share one supersession chain; supersede or seal one of them to settle it"
    ]


def _id_set(conn: sqlite3.Connection, view: str) -> set[int]:
    return {int(r[0]) for r in conn.execute(f"SELECT id FROM {view}")}


def ids(ids: Iterable[int], limit: int = 20) -> str:
    ordered = sorted(ids)
    if len(ordered) <= limit:
        return str(ordered)
    return f"{ordered[:limit]} and {len(ordered) - limit} more"
