"""Which places of a binding rebound twice hold text other than its ground.

A rebind to such a place adopts that text as well, and ``forest rebind`` refuses it
without words (custody/record_rebind.py): the contest's rebind route there takes
``--words '…'`` (route_contest.py ``rebound_routes``), at every door that prints it.

Stores: nothing.
Refuses: nothing (a place whose file cannot be read or parsed, or whose section is
not found, is not said: no words make that rebind work; a binding with no single
live ground is not looked at: its rebind is refused for that).
Returns: ``unlike_ground``: each binding rebound twice (a ``contested`` finding, reason
``rebound-twice``) with its places whose text in the working tree (where the pasted
rebind reads it) is not its ground's. Three queries and a read of each place's file
per such binding, no git call; nothing asked without one.
Test: tests/check/test_rebound_twice_words.py
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from forest_files.check.finding import has_reason, places_of
from forest_files.kernel.errors import ForestError

if TYPE_CHECKING:
    import sqlite3

    from forest_files.check.engine import Finding

ReadFile = Callable[[str], "bytes | None"]

# The binding's latest event: its exclusions and an entry of its chain.
_LATEST = """
SELECT excludes_json, entry_id FROM binding_events
WHERE bind_act = ? AND kind != 'retire' ORDER BY seq DESC LIMIT 1
"""


def unlike_ground(
    conn: sqlite3.Connection | None, findings: Sequence[Finding], root: Path
) -> dict[Finding, frozenset[str]]:
    """Each binding rebound twice among ``findings`` -> its places (selectors) whose
    section holds text other than the binding's ground in ``root``'s working tree:
    ``forest rebind`` reads the place there, whichever text the door judged (the
    index, a commit), so that is where its words are needed. No git call."""
    twice = [f for f in findings if f.kind == "contested" and has_reason(f, "rebound-twice")]
    if conn is None or not twice:
        return {}
    import sqlite3

    out: dict[Finding, frozenset[str]] = {}
    from forest_files.custody.content import WorktreeSource

    read = WorktreeSource(root, use_stat_cache=False).read
    for f in twice:
        try:
            ground = _ground(conn, f.binding)
        except sqlite3.Error:
            ground = None
        if ground is not None:
            excludes, body_hash = ground
            out[f] = frozenset(
                sel
                for path, sel in places_of(f)
                if _hash_at(read, path, sel, excludes) not in (None, body_hash)
            )
    return out


def _ground(conn: sqlite3.Connection, bind_act: str) -> tuple[tuple[str, ...], str] | None:
    """(exclusions, ground body hash) of a binding; None without one live head."""
    import json  # here: a clean check's explain never loads it (test_cold_check.py)

    from forest_files.custody.ground import HEAD_COLUMNS
    from forest_files.store.queries import CHAIN_OF

    row = conn.execute(_LATEST, (bind_act,)).fetchone()
    if row is None or row[1] is None:
        return None
    chain = conn.execute(CHAIN_OF, (int(row[1]),)).fetchone()
    if chain is None:
        return None
    sql = HEAD_COLUMNS + "  AND COALESCE(e.chain_root, e.id) = ?"
    heads = {str(r[2]) for r in conn.execute(sql, (int(chain[0]),))}
    if len(heads) != 1:
        return None
    excludes = tuple(str(e) for e in json.loads(row[0] or "[]"))
    return excludes, heads.pop()


def _hash_at(read: ReadFile, path: str, selector: str, excludes: tuple[str, ...]) -> str | None:
    """The body hash of the section ``selector`` names, read with ``excludes`` as a
    rebind reads it (custody/targets.py); None when it cannot be found."""
    from forest_files.kernel.hashing import hash_body
    from forest_files.text.extract import Document, extract
    from forest_files.text.normalise import decode_bytes
    from forest_files.text.selector import parse_selector

    try:
        data = read(path)
        if data is None:
            return None
        doc = Document(decode_bytes(data, path))
        return hash_body(extract(doc, parse_selector(selector), excludes).text)
    except ForestError:
        return None
