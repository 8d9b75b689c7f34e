"""commit_turn: a scroll record and its pair land together, or neither does."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forest_files import ForestError, ForestStore, Scroll, commit_turn, hash_body


def test_commit_turn_pointer_matches_scroll_record_accepted(
    store: ForestStore, scroll: Scroll
) -> None:
    pair = commit_turn(store, scroll, "Her brother's name is Elias.", "Noted.")
    ptr = json.loads(store.get(pair)["meta_json"])["scroll_ptr"]
    record = scroll.record_at(ptr["offset"])
    assert record["payload"] == "USER: Her brother's name is Elias.\nASSISTANT: Noted."
    assert ptr["hash"] == hash_body(record["payload"])
    assert scroll.verify_pointer(ptr)


def test_commit_turn_scrub_empties_body_refused_scroll_untouched(
    store: ForestStore, scroll: Scroll
) -> None:
    before = scroll.size()
    with pytest.raises(ForestError, match="empty body"):
        commit_turn(store, scroll, "x", scrub=lambda _t: "   ")
    assert scroll.size() == before
    assert store.conn.execute("SELECT COUNT(*) FROM entries").fetchone()[0] == 0


def test_commit_turn_db_failure_leaves_no_orphan_record_recovers(
    store: ForestStore, scroll: Scroll
) -> None:
    first = commit_turn(store, scroll, "first")
    size = scroll.size()
    with pytest.raises(ForestError, match="not a pair"):
        commit_turn(
            store,
            scroll,
            "second",
            previous_pair_id=store.write(
                body="a note", bucket="note", signature="me", origins=[(first, "derived_from")]
            ),
        )
    assert scroll.size() == size  # the record was truncated away
    assert scroll.record_count() == 1
    again = commit_turn(store, scroll, "second", previous_pair_id=first)
    assert scroll.record_count() == 2
    assert store.get(again)["bucket"] == "pair"


def test_commit_turn_closed_store_refused_scroll_untouched(tmp_path: Path) -> None:
    s = ForestStore(tmp_path / "w.db")
    s.init_schema()
    scroll = Scroll(tmp_path / "s.scroll")
    s.close()
    with pytest.raises(ForestError, match="closed"):
        commit_turn(s, scroll, "hello")
    assert scroll.size() == 0
