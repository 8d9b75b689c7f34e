"""Property tests of the custody store: random histories never break its laws.

A hypothesis state machine drives random sequences of write, root, supersede,
seal, unseal, recall, recall_side, around and audits (refusals allowed) and
checks after every step: entries and edges stay append-only; no supersession
chain has two live grounds; ``is_ground`` agrees with the ``current_ground``
view; no packet ever carries text of a sealed body. Every body holds a unique
token, so a leak is a plain substring search.
"""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    RuleBasedStateMachine,
    initialize,
    invariant,
    multiple,
    rule,
)

from forest_files import ForestError, ForestStore, Scroll, commit_turn, root_to_ground
from forest_files.kernel.vocab import EDGE_KINDS

SETTINGS = settings(
    max_examples=40,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
MAX_EXCERPT = 4096
CONTENT_BUCKETS = ["note", "draft", "journal", "hearsay", "synthesis", "inference", "internet"]
WALKABLE_KINDS = ["derived_from", "cites", "nests", "spoken_in"]


class StoreLaws(RuleBasedStateMachine):
    entries = Bundle("entries")

    def __init__(self) -> None:
        super().__init__()
        self._dir = tempfile.TemporaryDirectory(prefix="ff-props-")
        base = Path(self._dir.name)
        self.store = ForestStore(base / "woods.db")
        self.store.init_schema()
        self.scroll = Scroll(base / "session.scroll")
        self.tokens: dict[int, str] = {}
        self.counter = 0

    def teardown(self) -> None:
        self.store.close()
        self._dir.cleanup()

    # -- helpers ------------------------------------------------------------------

    def _token(self) -> str:
        # Fixed width and a closing letter: one token is never a substring of another.
        self.counter += 1
        return f"tok{self.counter:05d}q"

    def _sealed_tokens(self) -> list[str]:
        rows = self.store.conn.execute("SELECT id FROM sealed_entries").fetchall()
        return [self.tokens[r[0]] for r in rows if r[0] in self.tokens]

    def _assert_no_sealed_text(self, packet: Any) -> None:
        text = str(packet)
        for token in self._sealed_tokens():
            assert token not in text, f"sealed token {token} leaked: {text[:300]}"

    def _pair(self) -> int:
        token = self._token()
        pair_id = commit_turn(self.store, self.scroll, f"tell me about bees {token}", "they hum")
        self.tokens[pair_id] = token
        return pair_id

    # -- writes and ceremonies ----------------------------------------------------

    @initialize(target=entries)
    def first_pair(self) -> int:
        return self._pair()

    @rule(target=entries)
    def new_pair(self) -> int:
        return self._pair()

    @rule(
        target=entries,
        origin=entries,
        bucket=st.sampled_from(CONTENT_BUCKETS),
        kind=st.sampled_from(WALKABLE_KINDS),
        wild=st.booleans(),
    )
    def write(self, origin: int, bucket: str, kind: str, wild: bool) -> Any:
        token = self._token()
        try:
            new = self.store.write(
                body=f"{bucket} about bees {token}",
                bucket=bucket,
                signature="author",
                jurisdiction="wild" if wild else "home",
                origins=[(origin, kind)],
            )
        except ForestError:
            return multiple()
        self.tokens[new] = token
        return new

    @rule(origin=entries, kind=st.text(min_size=1, max_size=12))
    def write_unknown_kind(self, origin: int, kind: str) -> None:
        if kind in EDGE_KINDS:
            return
        before = self.store.conn.execute("SELECT COUNT(*) FROM entries").fetchone()[0]
        with pytest.raises(ForestError):
            self.store.write(
                body="never stored", bucket="note", signature="author", origins=[(origin, kind)]
            )
        assert self.store.conn.execute("SELECT COUNT(*) FROM entries").fetchone()[0] == before

    @rule(entry=entries)
    def root(self, entry: int) -> None:
        row = self.store.get(entry)
        rootable = not (
            self.store.is_ground(entry)
            or self.store.is_sealed(entry)
            or self.store._is_superseded(entry)
        )
        try:
            root_to_ground(
                self.store,
                entry_id=entry,
                adopting_words="I have read this and adopt it",
                adopting_signature="author",
                expected_body_hash=row["body_hash"],
            )
        except ForestError:
            assert not rootable, f"entry {entry} could be rooted but was refused"
            return
        assert rootable, f"entry {entry} was rooted although ground, sealed or superseded"
        assert self.store.is_ground(entry)

    @rule(target=entries, entry=entries)
    def supersede(self, entry: int) -> Any:
        token = self._token()
        was_ground = self.store.is_ground(entry)
        try:
            new = self.store.supersede(
                old_id=entry,
                new_body=f"corrected bees {token}",
                adopting_words="this replaces the earlier wording",
            )
        except ForestError:
            assert not was_ground, "ground refused supersession"
            return multiple()
        assert was_ground
        assert self.store.is_ground(new)
        assert not self.store.is_ground(entry)
        self.tokens[new] = token
        return new

    @rule(entry=entries)
    def seal(self, entry: int) -> None:
        was_sealed = self.store.is_sealed(entry)
        try:
            self.store.seal(entry_id=entry, quote="withdrawn", signature="author")
        except ForestError:
            assert was_sealed
            return
        assert not was_sealed
        assert self.store.is_sealed(entry)
        assert not self.store.is_ground(entry)

    @rule(entry=entries)
    def unseal(self, entry: int) -> None:
        was_sealed = self.store.is_sealed(entry)
        try:
            self.store.unseal(entry_id=entry, quote="restored", signature="author")
        except ForestError:
            assert not was_sealed
            return
        assert was_sealed
        assert not self.store.is_sealed(entry)

    # -- reads: every packet is searched for sealed text -------------------------

    @rule(entry=entries, own_token=st.booleans(), excerpt_len=st.integers(1, MAX_EXCERPT))
    def recall_similar(self, entry: int, own_token: bool, excerpt_len: int) -> None:
        query = self.tokens[entry] if own_token else "bees"
        logged = self.store.conn.execute("SELECT COUNT(*) FROM retrieval_log").fetchone()[0]
        packet = self.store.recall_similar(query, scope="both", excerpt_len=excerpt_len, limit=None)
        after = self.store.conn.execute("SELECT COUNT(*) FROM retrieval_log").fetchone()[0]
        assert after == logged + 1
        assert all(next(iter(s)) == "jurisdiction" for s in packet)
        assert all(len(s["excerpt"]) <= excerpt_len + 1 for s in packet)
        self._assert_no_sealed_text(packet)

    @rule(entry=entries)
    def recall_side(self, entry: int) -> None:
        try:
            packet = self.store.recall_side([{"id": entry}], excerpt_len=MAX_EXCERPT)
        except ForestError:
            assert self.store.is_sealed(entry)
            return
        self._assert_no_sealed_text(packet)

    @rule(entry=entries)
    def around(self, entry: int) -> None:
        try:
            trail = self.store.open(entry)
        except ForestError:
            assert self.store.is_sealed(entry)
            return
        packet = self.store.around(trail, excerpt_len=MAX_EXCERPT)
        self._assert_no_sealed_text(packet)

    @rule(entry=entries)
    def audit(self, entry: int) -> None:
        report = self.store.authority_report(
            entry, adopting_signature="auditor", excerpt_len=MAX_EXCERPT
        )
        self._assert_no_sealed_text(report)
        if self.store.is_ground(entry):
            self._assert_no_sealed_text(self.store.walk_back(entry, adopting_signature="auditor"))

    # -- laws ---------------------------------------------------------------------

    @invariant()
    def append_only(self) -> None:
        conn = self.store.conn
        counts = [conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in TABLES]
        for table, n in zip(TABLES, counts, strict=True):
            if n == 0:
                continue
            for sql in (f"UPDATE {table} SET created_at = created_at", f"DELETE FROM {table}"):
                with pytest.raises(sqlite3.IntegrityError, match="append-only"):
                    conn.execute(sql)
        assert [conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in TABLES] == counts
        assert not conn.in_transaction

    @invariant()
    def one_ground_per_chain(self) -> None:
        rows = self.store.conn.execute(
            "SELECT COALESCE(chain_root, id) AS chain, COUNT(*) FROM current_ground "
            "GROUP BY chain HAVING COUNT(*) > 1"
        ).fetchall()
        assert rows == [], f"chains with several grounds: {[tuple(r) for r in rows]}"

    @invariant()
    def is_ground_matches_view(self) -> None:
        conn = self.store.conn
        ground = {r[0] for r in conn.execute("SELECT id FROM current_ground")}
        for (entry_id,) in conn.execute("SELECT id FROM entries").fetchall():
            assert self.store.is_ground(entry_id) == (entry_id in ground), entry_id

    @invariant()
    def sealed_text_unfindable(self) -> None:
        for token in self._sealed_tokens():
            hits = self.store.conn.execute(
                "SELECT rowid FROM entries_fts WHERE entries_fts MATCH ?", (f'"{token}"',)
            ).fetchall()
            assert hits == [], f"sealed token {token} still indexed"
            packet = self.store.recall_similar(token, scope="both", excerpt_len=MAX_EXCERPT)
            self._assert_no_sealed_text(packet)


TABLES = ("entries", "edges")

TestStoreLaws = StoreLaws.TestCase
TestStoreLaws.settings = SETTINGS


# --- single-call properties -------------------------------------------------------------


def _scratch_store(tmp: str) -> ForestStore:
    store = ForestStore(Path(tmp) / "woods.db")
    store.init_schema()
    scroll = Scroll(Path(tmp) / "session.scroll")
    pair = commit_turn(store, scroll, "what do bees eat", "nectar and pollen")
    store.write(
        body="bees eat nectar " * 400,
        bucket="note",
        signature="author",
        origins=[(pair, "derived_from")],
    )
    return store


QUERY_TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=0, max_size=40)


def test_recall_similar_any_query_text_accepted():
    with tempfile.TemporaryDirectory(prefix="ff-props-") as tmp:
        store = _scratch_store(tmp)
        try:

            @SETTINGS
            @given(query=QUERY_TEXT)
            def check(query: str) -> None:
                try:
                    packet = store.recall_similar(query)
                except ForestError as err:
                    assert "empty query" in str(err), f"{query!r}: {err}"
                else:
                    assert isinstance(packet, list)

            check()
        finally:
            store.close()


def test_excerpt_len_bound_accepted():
    with tempfile.TemporaryDirectory(prefix="ff-props-") as tmp:
        store = _scratch_store(tmp)
        try:

            @SETTINGS
            @given(excerpt_len=st.integers(-5, MAX_EXCERPT + 5) | st.integers(-(10**12), 10**12))
            def check(excerpt_len: int) -> None:
                if 1 <= excerpt_len <= MAX_EXCERPT:
                    packet = store.recall_similar("nectar", excerpt_len=excerpt_len)
                    assert packet
                    assert all(len(s["excerpt"]) <= excerpt_len + 1 for s in packet)
                else:
                    with pytest.raises(ForestError, match="excerpt_len"):
                        store.recall_similar("nectar", excerpt_len=excerpt_len)

            check()
        finally:
            store.close()
