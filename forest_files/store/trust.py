"""Trust of one entry, derived from its custody: ground > home > wild, with a ceiling.

Stores: nothing (trust is never a column; nothing an entry says about itself,
its meta included, changes it).
Refuses: unknown ids (``require``).
Returns: ``Trust`` (level, reason, the limiting source's local id). The rule,
the same as the ``entry_trust`` view in schema.sql (tests/store/test_trust.py checks
they agree on every entry):

* ``ground``, reason ``rooted``: current ground (a live adopted head, not
  contested). A ceremony vouches for the text, so its sources do not cap it.
* otherwise ``wild`` when the entry itself is outside words: jurisdiction
  ``wild`` (reason ``wild``) or a bucket of outside words, ``internet``,
  ``hearsay``, ``visitor_words``, whatever its label (reason ``wild-bucket``);
* otherwise ``wild``, reason ``ceiling``, when a source is wild: the entry's
  text is taken from its ``derived_from``, ``cites``, ``nests`` and
  ``spoken_in`` targets, transitively, stopping at ground. ``source_id`` is the
  direct source the ceiling comes through (a wild one first, then the lowest id;
  ``forest show`` of it shows the next step);
* otherwise ``home``: attributed text of this store.

Superseded, sealed and contested entries are not ground, so they fall back to
the rule: a ceremony vouched for them once, not now. Ceremony edges (adopts,
supersedes, seals, unseals) and conversation threading (responds_to) are not
sources; mycelium edges (asks_about, feeds, answers, reopens) relate a
question to evidence and carry no text either.
Test: tests/store/test_trust.py
"""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from dataclasses import dataclass
from enum import StrEnum

from forest_files.store import queries
from forest_files.store.base import StoreBase


class TrustLevel(StrEnum):
    GROUND = "ground"
    HOME = "home"
    WILD = "wild"

    @property
    def rank(self) -> int:
        """Higher is more trusted (wild 0, home 1, ground 2)."""
        return _RANK[self]


_RANK = {TrustLevel.WILD: 0, TrustLevel.HOME: 1, TrustLevel.GROUND: 2}
# Buckets that hold outside words: wild whatever their jurisdiction label says.
WILD_BUCKETS: frozenset[str] = frozenset({"internet", "hearsay", "visitor_words"})
# Edge kinds whose target an entry's text is taken from (the ceiling follows them).
SOURCE_EDGE_KINDS: frozenset[str] = frozenset({"derived_from", "cites", "nests", "spoken_in"})
REASONS: frozenset[str] = frozenset({"rooted", "home", "wild", "wild-bucket", "ceiling"})


@dataclass(frozen=True)
class Trust:
    """How far an entry may be trusted, and why."""

    level: TrustLevel
    reason: str
    source_id: int | None = None  # the direct source a ceiling comes through


def own_wild_reason(jurisdiction: str, bucket: str) -> str | None:
    """``wild`` or ``wild-bucket`` when the entry itself is outside words, else None."""
    if jurisdiction == "wild":
        return "wild"
    if bucket in WILD_BUCKETS:
        return "wild-bucket"
    return None


def trust_of(store: StoreBase, entry_id: int) -> Trust:
    """The derived trust of ``entry_id`` (see the module header)."""
    return TrustReader(store).of(entry_id)


class TrustReader:
    """Trust of several entries read together (a recall packet): what one entry's walk
    learns (ground status, sources) is reused by the next, never kept past the reader."""

    def __init__(self, store: StoreBase) -> None:
        self.store = store
        self._ground: dict[int, bool] = {}
        self._sources: dict[int, list[tuple[int, str, str]]] = {}

    def is_ground(self, node: int) -> bool:
        if node not in self._ground:
            self._ground[node] = self.store.is_ground(node)
        return self._ground[node]

    def sources(self, node: int) -> list[tuple[int, str, str]]:
        if node not in self._sources:
            rows = self.store.conn.execute(queries.TRUST_SOURCES, (node,)).fetchall()
            self._sources[node] = [(int(r[0]), str(r[1]), str(r[2])) for r in rows]
        return self._sources[node]

    def of(self, entry_id: int, row: sqlite3.Row | None = None) -> Trust:
        """The trust of ``entry_id`` (``row``: its entries row, when the caller has it)."""
        if row is None:
            row = self.store.require(entry_id, "trust_of")
        if self.is_ground(entry_id):
            return Trust(TrustLevel.GROUND, "rooted")
        own = own_wild_reason(row["jurisdiction"], row["bucket"])
        if own is not None:
            return Trust(TrustLevel.WILD, own)
        sources, wild = self._walk(entry_id)
        capped = _reaching(sources, wild)
        if entry_id not in capped:
            return Trust(TrustLevel.HOME, "home")
        direct = sources[entry_id]
        via = min((s for s in direct if s in wild), default=None)
        if via is None:
            via = min(s for s in direct if s in capped)
        return Trust(TrustLevel.WILD, "ceiling", via)

    def _walk(self, start: int) -> tuple[dict[int, list[int]], set[int]]:
        """The non-ground sources of every entry reached from ``start`` (each entry
        once, so a cycle ends), and which of them are wild themselves (not walked
        further: nothing beyond a wild entry can lower anything)."""
        sources: dict[int, list[int]] = {}
        wild: set[int] = set()
        seen, todo = {start}, [start]
        while todo:
            node = todo.pop()
            outs: list[int] = []
            for to, jurisdiction, bucket in self.sources(node):
                if self.is_ground(to):
                    continue  # ground caps nothing
                outs.append(to)
                if to in seen:
                    continue
                seen.add(to)
                if own_wild_reason(jurisdiction, bucket) is not None:
                    wild.add(to)
                else:
                    todo.append(to)
            sources[node] = outs
        return sources, wild


def _reaching(sources: dict[int, list[int]], wild: set[int]) -> set[int]:
    """Every walked entry with a path to a wild one (the wild ones included)."""
    users: dict[int, list[int]] = defaultdict(list)
    for node, outs in sources.items():
        for to in outs:
            users[to].append(node)
    capped, todo = set(wild), list(wild)
    while todo:
        for user in users.get(todo.pop(), ()):
            if user not in capped:
                capped.add(user)
                todo.append(user)
    return capped
