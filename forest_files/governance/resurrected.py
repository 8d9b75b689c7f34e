"""Erased content that came back without being refused: an act made before it saw
the erase (another branch, merged later), or an older version the forget left.

Replay applies such an act (it never depended on the erase, so refusing it
would break every clone); this check finds it: every entry of the index whose
body is not erased and holds a line, or is the body, that some erase act
tombstoned.

Stores: nothing.
Refuses: nothing.
Returns: ``Resurrected`` values, sorted (content ids, act ids, bound paths —
never text).
Test: tests/custody/test_tombstone.py
"""

from __future__ import annotations

from dataclasses import dataclass

from forest_files.custody import applied as book
from forest_files.custody import bindings, tombstone
from forest_files.custody.apply import chain_of, project_of
from forest_files.store.forest import ForestStore

_TEXT_ENTRIES = (
    "SELECT id, content_id, body, body_hash FROM entries "
    "WHERE body != '[erased]' AND bucket NOT IN ('anchor', 'adoption_record', "
    "'sealing_record', 'unsealing_record')"
)


@dataclass(frozen=True)
class Resurrected:
    content_id: str  # the entry holding erased content
    act_id: str  # the act that brought it ("" for an entry no act made)
    erase_act: str  # the forget whose tombstone it hits (the smallest id, if several)
    paths: tuple[str, ...]  # bound paths of its chain


def erased_content(store: ForestStore) -> list[Resurrected]:
    """Every entry holding tombstoned content (see the module docstring)."""
    tombs = tombstone.load(store)
    if not tombs:
        return []
    project = project_of(store) or ""
    out: list[Resurrected] = []
    for entry_id, cid, body, body_hash in store.conn.execute(_TEXT_ENTRIES).fetchall():
        found = tombstone.hits(tombs, project, str(body), str(body_hash))
        if not found:
            continue
        paths = bindings.chain_paths(store, chain_of(store, int(entry_id)))
        act = book.creator_act(store, str(cid)) or ""
        out.append(Resurrected(str(cid), act, min(found), tuple(sorted(paths))))
    return sorted(out, key=lambda r: (r.erase_act, r.content_id))
