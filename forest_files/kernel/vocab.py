"""Closed vocabularies of the custody store, defined once.

Stores: nothing.
Refuses: nothing; the store and the schema CHECKs use these lists.
Returns: enums and frozensets. tests/kernel/test_vocab.py proves schema.sql's CHECK
lists are exactly these.
Test: tests/kernel/test_vocab.py
"""

from __future__ import annotations

from enum import StrEnum


class Jurisdiction(StrEnum):
    HOME = "home"
    WILD = "wild"


class Bucket(StrEnum):
    PAIR = "pair"
    DRAFT = "draft"
    VISITOR_WORDS = "visitor_words"
    NOTE = "note"
    JOURNAL = "journal"
    HEARSAY = "hearsay"
    SYNTHESIS = "synthesis"
    INFERENCE = "inference"
    QUESTION = "question"
    INTERNET = "internet"
    IMPORT = "import"
    ANCHOR = "anchor"
    ADOPTION_RECORD = "adoption_record"
    SEALING_RECORD = "sealing_record"
    UNSEALING_RECORD = "unsealing_record"


class EdgeKind(StrEnum):
    SPOKEN_IN = "spoken_in"
    RESPONDS_TO = "responds_to"
    DERIVED_FROM = "derived_from"
    ADOPTS = "adopts"
    SUPERSEDES = "supersedes"
    CITES = "cites"
    SEALS = "seals"
    UNSEALS = "unseals"
    ASKS_ABOUT = "asks_about"
    FEEDS = "feeds"
    ANSWERS = "answers"
    REOPENS = "reopens"
    NESTS = "nests"


BUCKETS: frozenset[str] = frozenset(b.value for b in Bucket)
EDGE_KINDS: frozenset[str] = frozenset(k.value for k in EdgeKind)
JURISDICTIONS: frozenset[str] = frozenset(j.value for j in Jurisdiction)

CEREMONY_BUCKETS: frozenset[str] = frozenset(
    {Bucket.ADOPTION_RECORD, Bucket.SEALING_RECORD, Bucket.UNSEALING_RECORD}
)
CEREMONY_EDGE_KINDS: frozenset[str] = frozenset(
    {EdgeKind.ADOPTS, EdgeKind.SUPERSEDES, EdgeKind.SEALS, EdgeKind.UNSEALS}
)
# Buckets a caller may never write through ``write``: ceremony records, and the
# repository anchor, which only a repository derives from its project id.
RESERVED_BUCKETS: frozenset[str] = CEREMONY_BUCKETS | {Bucket.ANCHOR}
ROOT_BUCKET = Bucket.PAIR.value
SCROLL_DIRECTIONS: frozenset[str] = frozenset({"in", "out", "next", "prev"})
