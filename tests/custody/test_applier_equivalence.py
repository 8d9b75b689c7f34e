"""The live applier and replay leave the same index, act kind by act kind.

One history records at least one act of every kind a command can make (adopt of
sections and of unbound text, supersede of both, resolve, rebind, a rebind
carrying a supersession, retire, seal, unseal) through the public APIs, plus
two hand-written erase acts: one of a superseded body whose file is deleted,
one of a sealed body whose file stays; then ``forest forget`` through the
library (an erase carrying a tombstone) and an adopt that depends on it. After each
step the live index of the repository that recorded it is dumped by content id
(local row ids translated) and compared, table by table, with the index
``Repository.rebuild()`` makes from a copy of the same working tree and with
the index a fresh clone's first sync makes.
"""

from __future__ import annotations

import re
import shutil
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from forest_files.custody.bindings import all_bindings
from forest_files.custody.lookup import find_binding
from forest_files.custody.record import rebind_section
from forest_files.custody.repository import Repository
from forest_files.custody.targets import read_section
from forest_files.governance.forget import forget
from forest_files.kernel.hashing import hash_body
from forest_files.ledger import make_act, read_ledger, write_segment
from forest_files.ledger.acts import KINDS
from forest_files.ledger.kinds import bound_path_refs
from forest_files.ledger.segments import body_path
from tests.helpers.custody import BY, MAX, init_and_adopt, retire, supersede_as_it_stands
from tests.helpers.git import commit_all, git, isolate, make_repo, write
from tests.helpers.state import local_state

WORDS = "I adopt this text as written"
DOC = "# Title\n\n## Keep\n\nharbor kept words\n\n## Other\n\nharbor other words\n"
UNBOUND = "The harbor closes at dusk."
SEALED = "The harbor pilot's private number."
RADIO = "The harbor radio code is 7741-alpha."
LEDGER = Path(".forest") / "ledger"

Dump = dict[str, list[Any]]


def _fts_words(conn: sqlite3.Connection) -> list[str]:
    """Every word of every stored body, and the erasure marker's word."""
    words = {"erased", "harbor"}
    for (body,) in conn.execute("SELECT body FROM entries"):
        words |= {w.lower() for w in re.findall(r"[A-Za-z0-9]+", str(body))}
    return sorted(words)


def index_dump(db: Path) -> Dump:
    """Every custody table of ``db`` by content (local ids as content ids).

    Left out: row ids and ``binding_events.seq`` (insertion order), the segment
    bookkeeping (file mtimes). ``erasures.created_at`` is dumped apart and left
    out of the table-by-table comparison (see
    ``test_erasure_tombstone_time_after_rebuild_and_clone_equal_accepted``).
    """
    with closing(sqlite3.connect(db)) as conn:
        cid = {int(i): str(c) for i, c in conn.execute("SELECT id, content_id FROM entries")}

        def c(local: object) -> str | None:
            return None if local is None else cid[int(str(local))]

        entries = sorted(
            (r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], c(r[11]))
            for r in conn.execute(
                "SELECT content_id, created_at, jurisdiction, bucket, source, signature, body, "
                "body_hash, meta_json, scope, nonce, chain_root FROM entries"
            )
        )
        edges = sorted(
            (c(f), c(t), k, at)
            for f, t, k, at in conn.execute("SELECT from_id, to_id, kind, created_at FROM edges")
        )
        binds = sorted(
            (*r[:9], c(r[9]), r[10], r[11])
            for r in conn.execute(
                "SELECT act_id, bind_act, kind, path, selector, excludes_json, normalisation, "
                "hash_algo, section_hash, entry_id, by_sig, at FROM binding_events"
            )
        )
        applied = sorted(conn.execute("SELECT act_id, entry_ids, deps, depth FROM ledger_applied"))
        produced = sorted(conn.execute("SELECT content_id, act_id FROM ledger_entry_acts"))
        paths = sorted(conn.execute("SELECT act_id, path FROM ledger_act_paths"))
        erasures = sorted(
            (c(e), s, why)
            for e, s, why in conn.execute("SELECT entry_id, signature, reason FROM erasures")
        )
        tombstone_times = sorted(
            (c(e), at) for e, at in conn.execute("SELECT entry_id, created_at FROM erasures")
        )
        permits = sorted(c(r[0]) for r in conn.execute("SELECT entry_id FROM erasure_permits"))
        tombs = sorted(conn.execute("SELECT fingerprint, act_id FROM tombstone_lines"))
        fts = sorted(
            (word, c(r[0]))
            for word in _fts_words(conn)
            for r in conn.execute(
                "SELECT rowid FROM entries_fts WHERE entries_fts MATCH ?", (f'"{word}"',)
            )
        )
        views = {
            view: sorted(c(r[0]) for r in conn.execute(f"SELECT id FROM {view}"))
            for view in ("current_ground", "contested_entries", "sealed_entries", "erased_entries")
        }
    return {
        "entries": entries,
        "edges": edges,
        "binding_events": binds,
        "ledger_applied": applied,
        "ledger_entry_acts": produced,
        "ledger_act_paths": paths,
        "erasures": erasures,
        "erasures.created_at": tombstone_times,
        "erasure_permits": permits,
        "tombstone_lines": tombs,
        "entries_fts": fts,
        **{f"view {k}": v for k, v in views.items()},
    }


@dataclass(frozen=True)
class Step:
    name: str
    live: Dump
    rebuilt: Dump
    cloned: Dump
    kinds: frozenset[str]  # kinds of the acts the step's repository holds
    act_paths: frozenset[str]  # every path its acts bind (kinds.bound_path_refs)
    event_paths: frozenset[str]  # every path its live index's binding events name


class _History:
    """Records the history step by step, snapshotting three indexes after each."""

    def __init__(self, base: Path) -> None:
        self.base = base
        self.steps: list[Step] = []

    def snap(self, name: str, root: Path) -> None:
        commit_all(root, name)
        live = index_dump(local_state(root) / "woods.db")
        copy = self.base / "rebuilt" / name
        shutil.copytree(root, copy)
        with Repository(copy) as r:
            r.rebuild()
        clone = self.base / "cloned" / name
        git(self.base, "clone", "-q", str(root), str(clone))
        assert not (local_state(clone) / "woods.db").exists()
        with Repository(clone) as r:
            r.sync()
        acts = read_ledger(root / LEDGER).acts.values()
        kinds = frozenset(a.kind for a in acts)
        named = frozenset(p for a in acts for p in bound_path_refs(a.payload))
        with closing(sqlite3.connect(local_state(root) / "woods.db")) as db:
            query = "SELECT DISTINCT path FROM binding_events WHERE path IS NOT NULL"
            events = frozenset(str(row[0]) for row in db.execute(query))
        cloned = index_dump(local_state(clone) / "woods.db")
        copied = index_dump(local_state(copy) / "woods.db")
        self.steps.append(Step(name, live, copied, cloned, kinds, named, events))


def _supersede_text(root: Path, old: str, text: str) -> str:
    with Repository(root) as r:
        return r.supersede(old, text, words=WORDS, by=BY, expected_body_hash=hash_body(text))


def _acts(root: Path, kind: str) -> list[Any]:
    return [a for a in read_ledger(root / LEDGER).ordered() if a.kind == kind]


def _build(base: Path) -> list[Step]:
    h = _History(base)
    origin = make_repo(base, "origin")
    write(origin, "docs/a.md", DOC)
    init_and_adopt(origin, ["docs/a.md#Keep", "docs/a.md#Other"], words=WORDS)
    h.snap("adopt-sections", origin)
    with Repository(origin) as r:
        unbound = r.adopt_text(UNBOUND, words=WORDS, by=BY)
    h.snap("adopt-unbound", origin)

    b, c = base / "b", base / "c"
    git(base, "clone", "-q", str(origin), str(b))
    git(base, "clone", "-q", str(origin), str(c))
    theirs = _supersede_text(c, unbound, "The harbor closes at nine.")
    h.snap("supersede-unbound-c", c)
    ours = _supersede_text(b, unbound, "The harbor closes at ten.")
    h.snap("supersede-unbound-b", b)
    git(b, "pull", "-q", "--no-rebase", "--no-edit", str(c), "main")
    with Repository(b) as r:
        assert {g.content_id for g in r.contested()} == {ours, theirs}
        resolved = r.resolve(ours, pick=theirs, words="nine is right", by=BY)
    h.snap("resolve", b)

    write(b, "docs/a.md", DOC.replace("harbor kept words", "harbor kept words, amended"))
    supersede_as_it_stands(b, "docs/a.md#Keep", words=WORDS)
    h.snap("supersede-section", b)

    moved = DOC.replace("harbor kept words", "harbor kept words, amended")
    write(b, "docs/b.md", moved.replace("harbor other words", "unbound words"))
    with Repository(b) as r:
        binding = find_binding(all_bindings(r.synced()), "docs/a.md#Keep")
        section = read_section(b, "docs/b.md#Keep", (), max_bytes=MAX)
        rebind_section(r, binding, section, by=BY)
    h.snap("rebind", b)

    kept = "## Keep\n\nharbor kept words, amended"
    renamed = moved.replace(kept, "## Kept\n\nharbor kept, moved")
    write(b, "docs/b.md", renamed.replace("harbor other words", "unbound words"))
    with Repository(b) as r:  # renamed and edited: a rebind carrying a supersession
        binding = find_binding(all_bindings(r.synced()), "docs/b.md#Keep")
        section = read_section(b, "docs/b.md#Kept", (), max_bytes=MAX)
        rebind_section(r, binding, section, by=BY, words=WORDS)
    h.snap("rebind-supersede", b)

    retire(b, "docs/a.md#Other", words="the Other section is going away")
    h.snap("retire", b)

    with Repository(b) as r:
        r.seal(resolved, words="held back for review", by=BY)
    h.snap("seal", b)
    with Repository(b) as r:
        r.unseal(resolved, words="released again", by=BY)
    h.snap("unseal", b)

    with Repository(b) as r:
        secret = r.adopt_text(SEALED, words=WORDS, by=BY)
        r.seal(secret, words="never to be shown", by=BY)
        project = r.config.project_id
    h.snap("adopt-and-seal", b)

    ledger = b / LEDGER
    (resolve_act,) = _acts(b, "resolve")
    seal_of_secret = next(a for a in _acts(b, "seal") if a.payload.target == secret)
    erase_superseded = make_act(
        "erase",
        [resolve_act.id],
        {"body_hash": hash_body(UNBOUND), "by": BY, "reason": "a pasted secret", "at": "x"},
        scope=project,
    )
    erase_sealed = make_act(
        "erase",
        [seal_of_secret.id],
        {"body_hash": hash_body(SEALED), "by": BY, "reason": "private number", "at": "y"},
        scope=project,
    )
    write_segment(ledger, [erase_superseded, erase_sealed], {})
    body_path(ledger, hash_body(UNBOUND)).unlink()  # its file goes; the sealed one's stays
    with Repository(b) as r:
        r.sync()
    h.snap("erase", b)

    with Repository(b) as r:  # the public ceremony: a superseded body forgotten
        radio = r.adopt_text(RADIO, words=WORDS, by=BY)
        changed = "The harbor radio code changed."
        r.supersede(radio, changed, words=WORDS, by=BY, expected_body_hash=hash_body(changed))
        forget(r, radio, words="the code was pasted by mistake", by=BY)
    h.snap("forget", b)
    with Repository(b) as r:  # depends on the forget's erase act
        r.adopt_text("The harbor opens at dawn again.", words=WORDS, by=BY)
    h.snap("adopt-after-forget", b)
    return h.steps


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Step]]:
    with pytest.MonkeyPatch.context() as mp:
        isolate(mp)
        steps = _build(tmp_path_factory.mktemp("applier-equivalence"))
        yield {s.name: s for s in steps}


STEPS = (
    "adopt-sections",
    "adopt-unbound",
    "supersede-unbound-c",
    "supersede-unbound-b",
    "resolve",
    "supersede-section",
    "rebind",
    "rebind-supersede",
    "retire",
    "seal",
    "unseal",
    "adopt-and-seal",
    "erase",
    "forget",
    "adopt-after-forget",
)


# Compared on its own: the store stamps a tombstone with the clock of the apply.
APART = frozenset({"erasures.created_at"})


def _assert_tables_equal(left: Dump, right: Dump, what: str) -> None:
    assert left.keys() == right.keys()
    for table in sorted(left.keys() - APART):
        assert left[table] == right[table], f"{what}: table {table} differs"


def test_history_every_kind_but_write_recorded_accepted(history: dict[str, Step]) -> None:
    assert list(history) == list(STEPS)
    assert history["erase"].kinds == KINDS - {"write"}
    assert len(history["erase"].live["erasures"]) == 2
    final = history["adopt-after-forget"].live
    assert len(final["erasures"]) == 3 and len(final["tombstone_lines"]) == 4
    assert final["binding_events"] and final["view contested_entries"] == []
    assert ("erased", None) not in final["entries_fts"]


@pytest.mark.parametrize("step", STEPS)
def test_paths_acts_bind_equal_binding_events_accepted(history: dict[str, Step], step: str) -> None:
    """What the hook's first run after a clone reads from the acts alone (check/staged.py)
    is exactly what a replay's binding events name."""
    s = history[step]
    assert s.act_paths == s.event_paths


@pytest.mark.parametrize("step", STEPS)
def test_live_index_after_act_equals_rebuild_rebuilt(history: dict[str, Step], step: str) -> None:
    s = history[step]
    _assert_tables_equal(s.live, s.rebuilt, f"after {step}, live vs rebuild()")


@pytest.mark.parametrize("step", STEPS)
def test_live_index_after_act_equals_fresh_clone_sync_rebuilt(
    history: dict[str, Step], step: str
) -> None:
    s = history[step]
    _assert_tables_equal(s.live, s.cloned, f"after {step}, live vs a fresh clone's first sync")


def test_erased_bodies_after_erase_gone_from_every_index_accepted(
    history: dict[str, Step],
) -> None:
    s = history["erase"]
    for dump in (s.live, s.rebuilt, s.cloned):
        bodies = {row[0]: row[6] for row in dump["entries"]}
        erased = {row[0] for row in dump["erasures"]}
        assert all(bodies[e] == "[erased]" for e in erased)
        assert UNBOUND not in bodies.values() and SEALED not in bodies.values()
        assert not any(cid in erased for _, cid in dump["entries_fts"])


def test_erasure_tombstone_time_after_rebuild_and_clone_equal_accepted(
    history: dict[str, Step],
) -> None:
    """The index is a function of the ledger: the tombstone's time must come from the
    erase act (its ``at``), not from the clock of whichever process applied it."""
    s = history["erase"]
    assert len(s.live["erasures.created_at"]) == 2
    assert s.live["erasures.created_at"] == s.rebuilt["erasures.created_at"]
    assert s.live["erasures.created_at"] == s.cloned["erasures.created_at"]
