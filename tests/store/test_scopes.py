"""Scopes fail closed: two scopes on one store file never see each other's entries.

Every op that takes an entry id refuses another scope's id (``ScopeMismatch``)
and an id that exists nowhere (``NotFound``), writing nothing; every listing,
search and walk stays inside the store's scope; edges across scopes are refused;
two processes with different scopes on one file see nothing of each other.
"""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from forest_files import (
    CeremonyRefusal,
    ForestError,
    ForestStore,
    InvalidTransition,
    NotFound,
    Refusal,
    ScopeMismatch,
    Scroll,
    check_file_drift,
    commit_turn,
    feed_question,
    fruits_near,
    is_open,
    plant_question,
    root_to_ground,
)
from forest_files.custody.views import latest_record, list_view
from forest_files.kernel.exits import EXIT_REFUSED, exit_code
from forest_files.store.lookup import MAX_SCOPE
from tests.helpers.store import (
    ADOPTING_WORDS,
    AUTHOR,
    assert_refused,
    body_hash_of,
    make_entry,
    make_pair,
    root,
    unchanged,
)

UNKNOWN = 10**6
SECRET = "zq-sentinel-body-text"  # appears in bodies; must never appear in an error


@dataclass
class Side:
    """One scope's store and the entries it holds (ids local to the shared file)."""

    store: ForestStore
    scroll: Scroll
    pair: int
    note: int  # current ground
    record: int  # the note's adoption record
    sealed: int  # a sealed note
    question: int
    word: str  # a word only this side's bodies hold


def _side(db: Path, tmp: Path, scope: str, word: str) -> Side:
    store = ForestStore(db, scope=scope)
    store.init_schema()
    scroll = Scroll(tmp / f"{scope}.scroll")
    pair = make_pair(store, scroll, f"tell me about {word}", f"{word} {SECRET}")
    note = make_entry(store, pair, f"{word} is ground {SECRET}")
    root(store, note)
    sealed = make_entry(store, pair, f"{word} sealed text {SECRET}")
    store.seal(entry_id=sealed, quote="sealed for review")
    question = plant_question(store, body=f"why {word}?", about_ids=[note])
    return Side(
        store, scroll, pair, note, latest_record(store, note, "adopts"), sealed, question, word
    )


@pytest.fixture
def sides(tmp_path: Path) -> Iterator[tuple[Side, Side]]:
    db = tmp_path / "shared.db"
    a = _side(db, tmp_path, "alpha", "aardvark")
    b = _side(db, tmp_path, "beta", "bumblebee")
    try:
        yield a, b
    finally:
        a.store.close()
        b.store.close()


def _directions(sides: tuple[Side, Side]) -> list[tuple[Side, Side]]:
    a, b = sides
    return [(a, b), (b, a)]


# Every op that names an entry, called by ``me`` on an id ``x`` (the id of another
# scope's entry, or one that exists nowhere). ``m`` holds my own entries.
Op = Callable[[Side, int], Any]
OPS: dict[str, Op] = {
    "content_id": lambda m, x: m.store.content_id(x),
    "open": lambda m, x: m.store.open(x),
    "authority_report": lambda m, x: m.store.authority_report(x, adopting_signature="audit"),
    "walk_back": lambda m, x: m.store.walk_back(x, adopting_signature="audit"),
    "seal": lambda m, x: m.store.seal(entry_id=x, quote="seal it"),
    "unseal": lambda m, x: m.store.unseal(entry_id=x, quote="unseal it"),
    "supersede": lambda m, x: m.store.supersede(
        old_id=x, new_body="new text", adopting_words=ADOPTING_WORDS
    ),
    "supersede_beside": lambda m, x: m.store.supersede_beside(
        old_id=x,
        new_body="new text",
        adopting_words=ADOPTING_WORDS,
        adopting_signature=AUTHOR,
        signature=AUTHOR,
        bucket=None,
        stamp=("2024-01-01T00:00:00.000Z", "0" * 16),
    ),
    "seal_beside": lambda m, x: m.store.seal_beside(
        entry_id=x,
        quote="seal it",
        signature=AUTHOR,
        stamp=("2024-01-01T00:00:00.000Z", "0" * 16),
        sealing=True,
    ),
    "root": lambda m, x: m.store._root(
        entry_id=x, quote=ADOPTING_WORDS, adopting_signature=AUTHOR, expected_body_hash="0" * 64
    ),
    "resolve": lambda m, x: m.store.resolve(
        contested_id=x, pick_id=x, adopting_words=ADOPTING_WORDS, adopting_signature=AUTHOR
    ),
    "contest_heads": lambda m, x: m.store.contest_heads(x),
    "erase": lambda m, x: m.store.erase_body(x, signature=AUTHOR, reason="test"),
    "cite_origin": lambda m, x: m.store.write(
        body="a citing note", bucket="note", signature=AUTHOR, origins=[(x, "cites")]
    ),
    "edge_from": lambda m, x: m.store.add_edge(x, m.note, "cites"),
    "edge_to": lambda m, x: m.store.add_edge(m.note, x, "cites"),
    "previous_pair": lambda m, x: m.store.write_pair(
        "u", "a", scroll_ptr={"path": "s", "offset": 0}, previous_pair_id=x
    ),
    "recall_side": lambda m, x: m.store.recall_side([{"id": x}]),
    "plant_question": lambda m, x: plant_question(m.store, body="why?", about_ids=[x]),
    "feed_question": lambda m, x: feed_question(m.store, question_id=x, entry_id=m.note),
    "feed_with": lambda m, x: feed_question(m.store, question_id=m.question, entry_id=x),
    "is_open": lambda m, x: is_open(m.store, x),
    "move_neighbor": lambda m, x: m.store.move(m.store.open(m.note), neighbor_id=x),
    "import_and_root": lambda m, x: m.store.import_and_root(
        [("imported text", {})],
        origin=x,
        signature=AUTHOR,
        adopting_words=ADOPTING_WORDS,
        adopting_signature=AUTHOR,
    ),
}
# Ops whose target in the other scope is a particular entry of it.
TARGET = {
    "unseal": "sealed",
    "feed_question": "question",
    "is_open": "question",
    "previous_pair": "pair",
    "walk_back": "note",
}


@pytest.mark.parametrize("name", sorted(OPS))
def test_scope_other_scopes_id_refused_both_ways(sides: tuple[Side, Side], name: str) -> None:
    for me, other in _directions(sides):
        target = getattr(other, TARGET.get(name, "note"))
        call = functools.partial(OPS[name], me, target)
        err = assert_refused(me.store, call, exc=ScopeMismatch)
        assert "scope mismatch" in str(err)
        assert SECRET not in str(err) and other.word not in str(err)
        assert other.store.scope not in str(err)  # never names the other scope


@pytest.mark.parametrize("name", sorted(set(OPS) - {"is_open"}))
def test_scope_unknown_id_refused_not_found(sides: tuple[Side, Side], name: str) -> None:
    me, _ = sides
    err = assert_refused(me.store, lambda: OPS[name](me, UNKNOWN), exc=NotFound)
    assert str(UNKNOWN) in str(err) and "scope" not in str(err)


def test_scope_get_other_scope_refused_unknown_none(sides: tuple[Side, Side]) -> None:
    for me, other in _directions(sides):
        with unchanged(me.store), pytest.raises(ScopeMismatch):
            me.store.get(other.note)
        assert me.store.get(UNKNOWN) is None  # Forest's contract for an unknown id
        assert me.store.get(me.note) is not None


def test_scope_status_questions_of_other_scope_refused(sides: tuple[Side, Side]) -> None:
    for me, other in _directions(sides):
        for question in (me.store.is_ground, me.store.is_sealed, me.store.is_contested):
            assert_refused(me.store, functools.partial(question, other.note), exc=ScopeMismatch)
            assert question(UNKNOWN) is False
        assert me.store.is_ground(me.note) and me.store.is_sealed(me.sealed)


def test_scope_root_to_ground_of_other_scope_refused(sides: tuple[Side, Side]) -> None:
    a, b = sides
    fresh = make_entry(b.store, b.pair, "not yet rooted")
    call = lambda: root_to_ground(  # noqa: E731
        a.store,
        entry_id=fresh,
        adopting_words=ADOPTING_WORDS,
        adopting_signature=AUTHOR,
        expected_body_hash=body_hash_of(b.store, fresh),
    )
    assert_refused(a.store, call, exc=ScopeMismatch)
    assert_refused(
        a.store,
        lambda: root_to_ground(
            a.store,
            entry_id=UNKNOWN,
            adopting_words=ADOPTING_WORDS,
            adopting_signature=AUTHOR,
            expected_body_hash="0" * 64,
        ),
        match="unknown entry",
        exc=CeremonyRefusal,
    )
    assert not b.store.is_ground(fresh)


def test_scope_content_ids_of_other_scope_refused(sides: tuple[Side, Side]) -> None:
    for me, other in _directions(sides):
        cid = other.store.content_id(other.note)
        for call in (
            functools.partial(me.store.id_for_content, cid),
            functools.partial(me.store.local_id, cid),
            functools.partial(me.store.local_id, cid[:12]),
        ):
            assert_refused(me.store, call, exc=ScopeMismatch)
        assert me.store.id_for_content("f" * 64) is None
        assert_refused(me.store, functools.partial(me.store.local_id, "f" * 12), exc=NotFound)
        assert me.store.local_id(me.store.content_id(me.note)[:12]) == me.note


def test_scope_drift_check_of_other_scopes_record_refused(
    sides: tuple[Side, Side], tmp_path: Path
) -> None:
    a, b = sides
    file = tmp_path / "ground.md"
    file.write_text(str(b.store.get(b.note)["body"]), encoding="utf-8")  # type: ignore[index]
    assert check_file_drift(file, b.store, b.record) == []
    assert_refused(a.store, lambda: check_file_drift(file, a.store, b.record), exc=ScopeMismatch)


def test_scope_commit_turn_previous_pair_of_other_scope_refused(sides: tuple[Side, Side]) -> None:
    a, b = sides
    before = a.scroll.path.read_bytes()
    assert_refused(
        a.store,
        lambda: commit_turn(a.store, a.scroll, "hello", "there", previous_pair_id=b.pair),
        exc=ScopeMismatch,
    )
    assert a.scroll.path.read_bytes() == before  # the scroll record was taken back


def test_scope_insert_declaring_another_scope_refused(sides: tuple[Side, Side]) -> None:
    """The insert the ledger applier uses (``insert_entry``): a row declaring another scope."""
    a, _ = sides

    def smuggle() -> int:
        with a.store.atomic():
            return a.store.insert_entry(
                body="smuggled",
                jurisdiction="home",
                bucket="note",
                signature=AUTHOR,
                origins=[(a.pair, "derived_from")],
                scope_of="beta",
            )

    assert_refused(a.store, smuggle, exc=ScopeMismatch)


# --- edges ---------------------------------------------------------------------------
def test_scope_edge_across_scopes_refused(sides: tuple[Side, Side]) -> None:
    a, b = sides
    for me, other in ((a, b), (b, a)):
        for kind in ("cites", "derived_from", "feeds"):
            call = functools.partial(me.store.add_edge, me.note, other.note, kind)
            assert_refused(me.store, call, exc=ScopeMismatch)
    edges = a.store.conn.execute(
        "SELECT COUNT(*) FROM edges x JOIN entries f ON f.id = x.from_id "
        "JOIN entries t ON t.id = x.to_id WHERE f.scope != t.scope"
    ).fetchone()[0]
    assert edges == 0


def test_scope_edge_within_scope_accepted(sides: tuple[Side, Side]) -> None:
    a, _ = sides
    other_note = make_entry(a.store, a.pair, "a second note")
    a.store.add_edge(other_note, a.note, "cites")
    assert a.store.conn.execute(
        "SELECT 1 FROM edges WHERE from_id = ? AND to_id = ? AND kind = 'cites'",
        (other_note, a.note),
    ).fetchone()


def test_scope_walk_never_discloses_a_neighbour_of_another_scope(
    sides: tuple[Side, Side],
) -> None:
    """An edge into another scope (made behind the store's back, as a store written
    before scopes were enforced may hold) leads nowhere: around hides it, and the
    parent of an entry whose origin is elsewhere is refused."""
    a, b = sides
    a.store.conn.execute(
        "INSERT INTO edges (from_id, to_id, kind) VALUES (?, ?, 'cites')", (a.note, b.note)
    )
    trail = a.store.open(a.note)
    seen = {s["id"] for s in a.store.around(trail)}
    assert b.note not in seen and a.pair in seen
    assert all(b.word not in json.dumps(s) for s in a.store.around(trail))
    packet = a.store.authority_report(a.note, adopting_signature="audit")
    assert b.note not in {o["id"] for o in packet["origins"]}


# --- isolation of listings -------------------------------------------------------------
def test_scope_recall_finds_only_own_scope(sides: tuple[Side, Side]) -> None:
    for me, other in _directions(sides):
        for jurisdiction in ("home", "wild", "both"):
            assert me.store.recall_similar(other.word, scope=jurisdiction) == []
        mine = me.store.recall_similar(me.word, scope="both")
        assert mine and {s["id"] for s in mine} <= _ids_of(me.store)


def test_scope_recall_of_shared_word_returns_own_entries_only(sides: tuple[Side, Side]) -> None:
    for me, _ in _directions(sides):
        found = me.store.recall_similar("ground", scope="both")
        assert found and {s["id"] for s in found} <= _ids_of(me.store)


def test_scope_ground_listing_and_status_views_own_scope_only(sides: tuple[Side, Side]) -> None:
    for me, other in _directions(sides):
        ground = {g.content_id for g in list_view(me.store, "current_ground")}
        assert ground == {me.store.content_id(me.note)}
        assert list_view(me.store, "contested_entries") == []
        assert other.store.content_id(other.note) not in ground


def test_scope_fruits_near_own_scope_only(sides: tuple[Side, Side]) -> None:
    a, b = sides
    # A question of beta planted (behind the store) on alpha's note is not alpha's fruit.
    a.store.conn.execute(
        "INSERT INTO edges (from_id, to_id, kind) VALUES (?, ?, 'asks_about')",
        (b.question, a.note),
    )
    fruits = fruits_near(a.store, [a.note])
    assert [f["question"]["id"] for f in fruits] == [a.question]
    assert all(n in _ids_of(a.store) for f in fruits for n in f["next_to"])


def test_scope_writes_stamp_the_stores_scope(sides: tuple[Side, Side]) -> None:
    a, b = sides
    trail = a.store.open(a.note)
    a.store.move(trail, deeper=(0, 4))  # a nested extract entry
    new = a.store.supersede(old_id=a.note, new_body="corrected", adopting_words=ADOPTING_WORDS)
    a.store.seal(entry_id=new, quote="pause")
    a.store.unseal(entry_id=new, quote="resume")
    a.store.ensure_anchor("project-a")
    b.store.ensure_anchor("project-a")  # the same project id in another scope: its own anchor
    scopes = dict(
        a.store.conn.execute("SELECT scope, COUNT(*) FROM entries GROUP BY scope").fetchall()
    )
    assert set(scopes) == {"alpha", "beta"}
    anchors = a.store.conn.execute(
        "SELECT scope FROM entries WHERE bucket = 'anchor' ORDER BY scope"
    ).fetchall()
    assert [r[0] for r in anchors] == ["alpha", "beta"]


def _ids_of(store: ForestStore) -> set[int]:
    rows = store.conn.execute("SELECT id FROM entries WHERE scope = ?", (store.scope,))
    return {int(r[0]) for r in rows}


# --- two processes ------------------------------------------------------------------
_CHILD = r"""
import json, sys
from forest_files import ForestStore, ScopeMismatch, Scroll, commit_turn, root_to_ground
from forest_files.custody.views import list_view

db, scroll_path, foreign = sys.argv[1], sys.argv[2], int(sys.argv[3])
with ForestStore(db, scope="beta") as s:
    s.init_schema()
    pair = commit_turn(s, Scroll(scroll_path), "tell me of bumblebee", "bumblebee hums")
    note = s.write(body="bumblebee ground", bucket="note", signature="b",
                   origins=[(pair, "derived_from")])
    root_to_ground(s, entry_id=note, adopting_words="I adopt this as true",
                   adopting_signature="b", expected_body_hash=s.get(note)["body_hash"])
    try:
        s.get(foreign)
        refused = False
    except ScopeMismatch:
        refused = True
    print(json.dumps({
        "note": note,
        "refused": refused,
        "recall": s.recall_similar("aardvark", scope="both"),
        "ground": [g.content_id for g in list_view(s, "current_ground")],
        "mine": s.content_id(note),
    }))
"""


def test_scope_two_processes_share_a_file_see_nothing_of_each_other(tmp_path: Path) -> None:
    db = tmp_path / "shared.db"
    with ForestStore(db, scope="alpha") as a:
        a.init_schema()
        pair = make_pair(a, Scroll(tmp_path / "a.scroll"), "tell me of aardvark", "aardvark digs")
        note = make_entry(a, pair, "aardvark ground")
        root(a, note)
        mine = a.content_id(note)
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, str(db), str(tmp_path / "b.scroll"), str(note)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    child = json.loads(out.stdout)
    assert child["refused"] and child["recall"] == []
    assert child["ground"] == [child["mine"]] and mine not in child["ground"]
    with ForestStore(db, scope="alpha") as a:
        assert a.recall_similar("bumblebee", scope="both") == []
        assert [g.content_id for g in list_view(a, "current_ground")] == [mine]
        with pytest.raises(ScopeMismatch):
            a.get(child["note"])


# --- the scope string ----------------------------------------------------------------
@pytest.mark.parametrize(
    "bad",
    ["", "   ", "x" * (MAX_SCOPE + 1), "tab\there", "nl\n", "del\x7f", "c1\x85", None, 7],
)
def test_scope_bad_scope_string_refused(tmp_path: Path, bad: Any) -> None:
    db = tmp_path / "s.db"
    with pytest.raises(ForestError, match="scope") as info:
        ForestStore(db, scope=bad)
    if isinstance(bad, str) and bad.strip():
        assert bad not in str(info.value)  # the value is never echoed
    assert not db.exists() or db.stat().st_size == 0


def test_scope_bound_at_max_accepted(tmp_path: Path) -> None:
    name = "é" * MAX_SCOPE  # counted in characters, not bytes
    with ForestStore(tmp_path / "s.db", scope=name) as s:
        s.init_schema()
        assert s.ensure_anchor("p") and s.scope == name


# --- invalid transitions ----------------------------------------------------------------
def test_seal_twice_invalid_transition_refused(sides: tuple[Side, Side]) -> None:
    a, _ = sides
    err = assert_refused(
        a.store,
        lambda: a.store.seal(entry_id=a.sealed, quote="again"),
        match="already sealed",
        exc=InvalidTransition,
    )
    assert isinstance(err, Refusal) and exit_code(err) == EXIT_REFUSED


def test_unseal_of_unsealed_invalid_transition_refused(sides: tuple[Side, Side]) -> None:
    a, _ = sides
    assert_refused(
        a.store,
        lambda: a.store.unseal(entry_id=a.note, quote="nothing to unseal"),
        match="not sealed",
        exc=InvalidTransition,
    )


def test_root_and_supersede_wrong_state_invalid_transition_refused(
    sides: tuple[Side, Side],
) -> None:
    a, _ = sides
    assert_refused(a.store, lambda: root(a.store, a.note), match="already", exc=InvalidTransition)
    assert_refused(a.store, lambda: root(a.store, a.sealed), match="sealed", exc=InvalidTransition)
    newer = a.store.supersede(old_id=a.note, new_body="newer", adopting_words=ADOPTING_WORDS)
    assert_refused(
        a.store,
        lambda: a.store.supersede(old_id=a.note, new_body="x", adopting_words=ADOPTING_WORDS),
        match="not current ground",
        exc=InvalidTransition,
    )
    assert_refused(
        a.store, lambda: root(a.store, a.note), match="superseded", exc=InvalidTransition
    )
    assert a.store.is_ground(newer)


def test_resolve_of_uncontested_invalid_transition_refused(sides: tuple[Side, Side]) -> None:
    a, _ = sides
    call = lambda: a.store.resolve(  # noqa: E731
        contested_id=a.note, pick_id=a.note, adopting_words=ADOPTING_WORDS, adopting_signature="x"
    )
    assert_refused(a.store, call, match="not contested", exc=InvalidTransition)


def test_typed_refusals_are_forest_errors_exit_1() -> None:
    for cls in (NotFound, ScopeMismatch, InvalidTransition, CeremonyRefusal):
        assert issubclass(cls, Refusal) and issubclass(cls, ForestError)
        assert exit_code(cls("x")) == EXIT_REFUSED


# --- repository mode ----------------------------------------------------------------
def test_scope_repository_act_declaring_another_scope_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hand-written write act of this project whose entry declares another scope
    (its content id computed to match) is refused on replay; before scopes were
    enforced it put an entry of that scope into the index."""
    from forest_files.custody.repository import Repository
    from forest_files.kernel.hashing import hash_body
    from forest_files.ledger import LedgerError, make_act, write_segment
    from tests.helpers.acts import entry_record
    from tests.helpers.git import isolate, make_repo

    isolate(monkeypatch)
    repo = make_repo(tmp_path)
    with Repository.init(repo, project_id="p-scoped") as r:
        store = r.store()
        anchor = store.content_id(store.ensure_anchor("p-scoped"))
        index_scope = store.scope
    body = "a smuggled note"
    entry = entry_record(
        scope="elsewhere", body=body, origins=((anchor, "derived_from"),), nonce="01"
    )
    act = make_act("write", [], {"entry": entry.to_fields()}, scope="p-scoped")
    write_segment(repo / ".forest" / "ledger", [act], {hash_body(body): body})
    with Repository(repo) as r, pytest.raises(LedgerError, match="scope"):
        r.rebuild()
    with Repository(repo) as r:
        scopes = {str(s[0]) for s in r.store().conn.execute("SELECT DISTINCT scope FROM entries")}
    assert scopes == {index_scope}


def test_scope_repository_index_of_one_scope_acts_of_the_project_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Index, cached view and throwaway ground store hold entries of one scope, the
    store's ``default`` (an index belongs to one project; entry content ids stay what
    every earlier ledger recorded), while every act in the ledger names the project
    id, which the applier checks against forest.toml."""
    import sqlite3

    from forest_files.custody.record import adopt_sections
    from forest_files.custody.repository import Repository
    from forest_files.custody.sources import ground_from
    from forest_files.custody.targets import read_section
    from forest_files.custody.viewbuild import build_view
    from forest_files.kernel.hashing import hash_body
    from forest_files.ledger import read_ledger
    from tests.helpers.git import commit_all, isolate, make_repo, write

    isolate(monkeypatch)
    repo = make_repo(tmp_path)
    write(repo, "doc.md", "# Doc\n\n## Keep\n\nKeep this.\n")
    with Repository.init(repo, project_id="p-scoped") as r:
        section = read_section(repo, "doc.md#Keep", (), max_bytes=1 << 20)
        adopt_sections(r, [section], words=ADOPTING_WORDS, by=AUTHOR)
        first = r.adopt_text("a free text", words=ADOPTING_WORDS, by=AUTHOR)
        r.supersede(
            first, "a corrected text", words=ADOPTING_WORDS, by=AUTHOR,
            expected_body_hash=hash_body("a corrected text"),
        )  # fmt: skip
        index = r.index_path
        index_scope = r.store().scope
    commit_all(repo, "custody")
    view = tmp_path / "view.db"
    build_view(repo, "index", True, view)
    for db in (index, view):
        conn = sqlite3.connect(db)
        try:
            scopes = {str(s[0]) for s in conn.execute("SELECT DISTINCT scope FROM entries")}
            count = conn.execute("SELECT COUNT(*) FROM entries").fetchone()[0]
        finally:
            conn.close()
        assert scopes == {index_scope} and count >= 7
    acts = read_ledger(repo / ".forest" / "ledger").ordered()
    assert acts and {a.scope for a in acts} == {"p-scoped"}
    assert len(ground_from(repo, "HEAD").ground) == 2
