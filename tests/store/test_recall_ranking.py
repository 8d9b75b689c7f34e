"""Recall ranks in the FTS index first and filters only its best candidates: the
answer must be the one a single joined query gives, even when the best-ranked
matches are all filtered out (another jurisdiction, another bucket, sealed).

Test subject: forest_files/store/recall.py (``_ranked``), store/queries.py.
"""

from __future__ import annotations

from collections.abc import Callable

from forest_files import ForestStore
from tests.helpers.store import make_entry

# The reference: one query joining every match, ranked by bm25, as recall was first
# written. Recall's batches must give exactly its first LIMIT rows.
REFERENCE = """
SELECT e.id FROM entries_fts f JOIN entries e ON e.id = f.rowid
WHERE entries_fts MATCH ? AND e.scope = ? AND e.jurisdiction = ?
ORDER BY f.rank, e.id
"""


def _corpus(store: ForestStore, pair: Callable[..., int]) -> None:
    """60 wild notes that rank best (the word many times), then 30 home notes."""
    origin = pair()
    for i in range(60):
        make_entry(store, origin, "heron " * 12 + f"wild {i}", jurisdiction="wild")
    for i in range(30):
        make_entry(store, origin, f"home note {i} " + "filler " * i + "heron")


def test_recall_best_matches_all_filtered_still_fills_limit_accepted(store, pair):
    _corpus(store, pair)
    got = [s["id"] for s in store.recall_similar("heron", scope="home", limit=5)]
    want = [r[0] for r in store.conn.execute(REFERENCE, ('"heron"', store.scope, "home"))]
    assert got == want[:5]
    assert len(got) == 5


def test_recall_unbounded_limit_returns_every_kept_match_accepted(store, pair):
    _corpus(store, pair)
    got = [s["id"] for s in store.recall_similar("heron", scope="home", limit=None)]
    want = [r[0] for r in store.conn.execute(REFERENCE, ('"heron"', store.scope, "home"))]
    assert got == want and len(got) == 30


def test_recall_zero_limit_returns_nothing_accepted(store, pair):
    _corpus(store, pair)
    assert store.recall_similar("heron", scope="both", limit=0) == []
