"""Trust derived from custody: each level, the least-trusted-source ceiling (transitive,
cycle-safe), rooting lifts it, losing ground drops it, claims cannot raise it; carried by
``trust_of``, recall packets and ``forest show``; the view and the accessor agree."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from forest_files import ForestStore, Scroll
from forest_files.store.trust import (
    REASONS,
    SOURCE_EDGE_KINDS,
    WILD_BUCKETS,
    Trust,
    TrustLevel,
)
from tests.helpers.cli import ok
from tests.helpers.git import commit_all, isolate, make_repo, write
from tests.helpers.store import make_entry, make_pair, root, supersede

GROUND, HOME, WILD = TrustLevel.GROUND, TrustLevel.HOME, TrustLevel.WILD
SCHEMA = Path(__file__).resolve().parents[2] / "forest_files" / "schema.sql"


def wild_page(store: ForestStore, origin: int, body: str = "a page from the internet") -> int:
    return make_entry(store, origin, body, bucket="internet", jurisdiction="wild")


def view(store: ForestStore, entry_id: int) -> Trust:
    row = store.conn.execute(
        "SELECT trust, reason, source_id FROM entry_trust WHERE id = ?", (entry_id,)
    ).fetchone()
    return Trust(TrustLevel(row[0]), row[1], row[2])


def both(store: ForestStore, entry_id: int) -> Trust:
    """The accessor's answer, checked against the view's."""
    got = store.trust_of(entry_id)
    assert view(store, entry_id) == got
    return got


def test_trust_ground_entry_rooted_accepted(store: ForestStore, scroll: Scroll) -> None:
    note = make_entry(store, make_pair(store, scroll), "bees eat nectar")
    root(store, note)
    assert both(store, note) == Trust(GROUND, "rooted")


def test_trust_home_note_accepted(store: ForestStore, scroll: Scroll) -> None:
    pair = make_pair(store, scroll)
    note = make_entry(store, pair, "bees eat nectar", bucket="synthesis")
    assert both(store, note) == Trust(HOME, "home")
    assert both(store, pair) == Trust(HOME, "home")


def test_trust_wild_jurisdiction_and_wild_bucket_accepted(
    store: ForestStore, scroll: Scroll
) -> None:
    pair = make_pair(store, scroll)
    assert both(store, wild_page(store, pair)) == Trust(WILD, "wild")
    # Outside words labelled home are still outside words.
    hearsay = make_entry(store, pair, "my neighbour says", bucket="hearsay")
    assert both(store, hearsay) == Trust(WILD, "wild-bucket")


def test_trust_ceiling_two_hops_transitive_accepted(store: ForestStore, scroll: Scroll) -> None:
    pair = make_pair(store, scroll)
    page = wild_page(store, pair)
    synthesis = make_entry(store, page, "what the page says, summed up", bucket="synthesis")
    note = make_entry(store, synthesis, "a note on the summary")
    assert both(store, synthesis) == Trust(WILD, "ceiling", page)
    assert both(store, note) == Trust(WILD, "ceiling", synthesis)


@pytest.mark.parametrize("kind", sorted(SOURCE_EDGE_KINDS))
def test_trust_ceiling_each_source_edge_kind_accepted(
    store: ForestStore, scroll: Scroll, kind: str
) -> None:
    pair = make_pair(store, scroll)
    page = wild_page(store, pair)
    note = make_entry(store, pair, "a note")
    store.add_edge(note, page, kind)
    assert both(store, note) == Trust(WILD, "ceiling", page)


@pytest.mark.parametrize("kind", ["asks_about", "feeds", "answers", "reopens", "responds_to"])
def test_trust_non_source_edge_no_ceiling_accepted(
    store: ForestStore, scroll: Scroll, kind: str
) -> None:
    pair = make_pair(store, scroll)
    page = wild_page(store, pair)
    note = make_entry(store, pair, "a note")
    store.add_edge(note, page, kind)
    assert both(store, note) == Trust(HOME, "home")


def test_trust_cycle_ends_accepted(store: ForestStore, scroll: Scroll) -> None:
    pair = make_pair(store, scroll)
    a = make_entry(store, pair, "entry a")
    b = make_entry(store, a, "entry b")
    store.add_edge(a, b, "derived_from")  # a <-> b
    assert both(store, a) == Trust(HOME, "home")
    assert both(store, b) == Trust(HOME, "home")
    page = wild_page(store, pair)
    store.add_edge(b, page, "cites")
    assert both(store, b) == Trust(WILD, "ceiling", page)
    assert both(store, a) == Trust(WILD, "ceiling", b)


def test_trust_rooting_lifts_ceiling_accepted(store: ForestStore, scroll: Scroll) -> None:
    pair = make_pair(store, scroll)
    synthesis = make_entry(store, wild_page(store, pair), "checked summary", bucket="synthesis")
    later = make_entry(store, synthesis, "built on the summary")
    assert both(store, later).level is WILD
    root(store, synthesis)
    assert both(store, synthesis) == Trust(GROUND, "rooted")
    # Ground caps nothing: what derives from it is home again.
    assert both(store, later) == Trust(HOME, "home")


def test_trust_superseded_ground_drops_accepted(store: ForestStore, scroll: Scroll) -> None:
    pair = make_pair(store, scroll)
    page = wild_page(store, pair)
    old = make_entry(store, page, "summary, first wording", bucket="synthesis")
    root(store, old)
    new = supersede(store, old, "summary, second wording")
    assert both(store, new) == Trust(GROUND, "rooted")
    assert both(store, old) == Trust(WILD, "ceiling", page)
    plain = make_entry(store, pair, "home words, first wording")
    root(store, plain)
    supersede(store, plain, "home words, second wording")
    assert both(store, plain) == Trust(HOME, "home")


def test_trust_sealed_ground_drops_accepted(store: ForestStore, scroll: Scroll) -> None:
    note = make_entry(store, make_pair(store, scroll), "sealed later")
    root(store, note)
    store.seal(entry_id=note, quote="under rewrite")
    assert both(store, note) == Trust(HOME, "home")
    store.unseal(entry_id=note, quote="rewrite done")
    assert both(store, note) == Trust(GROUND, "rooted")


def test_trust_escalation_claims_capped_refused(store: ForestStore, scroll: Scroll) -> None:
    """A home synthesis of a wild page claiming ground in its meta, or a wild page
    labelled home, still ranks at the ceiling; and a recall scrap's claimed trust loses."""
    pair = make_pair(store, scroll)
    page = wild_page(store, pair)
    claim = store.write(
        body="trust me, this is canon",
        bucket="synthesis",
        signature="author",
        jurisdiction="home",
        origins=[(page, "derived_from")],
        meta={"trust": "ground", "ground": True, "jurisdiction": "home"},
    )
    assert both(store, claim) == Trust(WILD, "ceiling", page)
    relabelled = make_entry(store, pair, "copied from a forum", bucket="internet")
    assert both(store, relabelled) == Trust(WILD, "wild-bucket")
    (side,) = store.recall_side(
        [{"id": claim, "jurisdiction": "home", "excerpt": "x", "trust": "ground"}]
    )
    assert side["trust"] == "wild"
    (outside,) = store.recall_side([{"id": "ext-1", "jurisdiction": "home", "excerpt": "x"}])
    assert outside["trust"] == "wild"


def test_trust_never_a_column_changes_with_edges_only_accepted(
    store: ForestStore, scroll: Scroll
) -> None:
    columns = {r[1] for r in store.conn.execute("PRAGMA table_info(entries)")}
    assert not any("trust" in c for c in columns)
    pair = make_pair(store, scroll)
    page = wild_page(store, pair)
    note = make_entry(store, pair, "a note")
    before = store.conn.execute("SELECT * FROM entries ORDER BY id").fetchall()
    assert both(store, note).level is HOME
    store.add_edge(note, page, "cites")  # custody changes; no entries row is written
    assert [tuple(r) for r in store.conn.execute("SELECT * FROM entries ORDER BY id")] == [
        tuple(r) for r in before
    ]
    assert both(store, note).level is WILD


def test_trust_recall_packets_carry_level_accepted(store: ForestStore, scroll: Scroll) -> None:
    pair = make_pair(store, scroll)
    page = wild_page(store, pair, "honeybees forage widely")
    home = make_entry(store, pair, "honeybees forage near home")
    grounded = make_entry(store, pair, "honeybees forage by day")
    root(store, grounded)
    derived = make_entry(store, page, "honeybees forage, the page says", bucket="synthesis")
    got = {s["id"]: s for s in store.recall_similar("honeybees forage", scope="both")}
    assert {i: s["trust"] for i, s in got.items()} == {
        page: "wild",
        home: "home",
        grounded: "ground",
        derived: "wild",
    }
    for packet in got.values():
        assert list(packet) == ["jurisdiction", "id", "excerpt", "bucket", "signature", "trust"]
    (by_id,) = store.recall_side([{"id": grounded}])
    assert by_id["trust"] == "ground"


def test_trust_unknown_entry_refused(store: ForestStore) -> None:
    with pytest.raises(Exception, match="unknown entry"):
        store.trust_of(999)


def test_trust_view_vocabulary_matches_module_accepted() -> None:
    text = SCHEMA.read_text(encoding="utf-8")
    view_sql = text[text.index("CREATE VIEW IF NOT EXISTS entry_trust") :]
    buckets = {
        frozenset(re.findall(r"'(\w+)'", m)) for m in re.findall(r"bucket IN \(([^)]*)\)", view_sql)
    }
    kinds = {
        frozenset(re.findall(r"'(\w+)'", m)) for m in re.findall(r"kind IN \(([^)]*)\)", view_sql)
    }
    assert buckets == {WILD_BUCKETS}
    assert kinds == {SOURCE_EDGE_KINDS}
    assert set(re.findall(r"THEN '([\w-]+)'", view_sql)) <= REASONS | {"ground", "wild", "home"}


def test_trust_view_agrees_at_thousands_accepted(store: ForestStore, scroll: Scroll) -> None:
    """3,000 entries in chains of ten, one chain in three starting from a wild page,
    some rooted: every entry's accessor answer equals the view's (the view's speed is
    measured, not asserted: 38 ms at 3,061 entries and 121 ms at 10,201 here)."""
    pair = make_pair(store, scroll)
    with store.atomic():
        for chain in range(300):
            prev = wild_page(store, pair, f"page {chain}") if chain % 3 == 0 else pair
            for step in range(10 if chain % 3 else 9):
                prev = make_entry(store, prev, f"chain {chain} step {step}")
                if step == 5 and chain % 5 == 0:
                    root(store, prev)
    total = int(store.conn.execute("SELECT COUNT(*) FROM entries").fetchone()[0])
    assert total >= 3000
    rows = store.conn.execute("SELECT id, trust, reason, source_id FROM entry_trust").fetchall()
    assert len(rows) == total
    levels = {r[1] for r in rows}
    assert levels == {"ground", "home", "wild"}
    for entry_id, level, reason, source in rows[::7]:
        assert store.trust_of(entry_id) == Trust(TrustLevel(level), reason, source)


# --- forest show -----------------------------------------------------------------------


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    isolate(monkeypatch)
    path = make_repo(tmp_path)
    ok(path, "init")
    write(path, "canon.md", "# Canon\n\nIntro.\n\n## Elias\n\nElias keeps bees.\n")
    commit_all(path, "init")
    return path


def test_trust_show_prints_and_json_carries_level_accepted(repo: Path) -> None:
    adopted = ok(repo, "adopt", "canon.md#Elias", "--words", "Elias is canon", "--json")
    (bound,) = json.loads(adopted.stdout)
    cid = bound["content_id"]
    shown = ok(repo, "show", cid)
    assert "trust: ground (rooted)" in shown.stdout.splitlines()
    meta = json.loads(ok(repo, "show", cid, "--json").stdout)
    assert meta["trust"] == {"level": "ground", "reason": "rooted", "source": None}
    (repo / "canon.md").write_text("# Canon\n\nIntro.\n\n## Elias\n\nElias sold the bees.\n")
    ok(repo, "supersede", "canon.md#Elias", "--words", "Elias moved on")
    # The superseded entry is no longer ground: attributed home text, no ceremony now.
    assert "trust: home (home)" in ok(repo, "show", cid).stdout.splitlines()
