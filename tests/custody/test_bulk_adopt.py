"""Bulk adoption: ``ForestStore.import_and_root`` and the batched ``adopt_sections``.

The batch writes rows with ``executemany`` instead of calling ``write`` and
``root_to_ground`` per section. These tests hold it to the per-call path: the
index it leaves equals the index a rebuild makes by replaying its segment
through every store gate, its entries describe themselves exactly, and every
refusal happens before anything is written.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from forest_files import ForestError, ForestStore
from forest_files.custody.bindings import all_bindings
from forest_files.custody.record import adopt_sections
from forest_files.custody.repository import Repository
from forest_files.custody.targets import read_sections
from forest_files.ledger.record import EntryRecord, describe
from tests.helpers.git import commit_all, make_repo, write
from tests.helpers.state import local_state
from tests.helpers.store import assert_refused

BY = "t <t@example.org>"
WORDS = "I adopt these sections as written"


def _import(store: ForestStore, bodies: list[str], **kw: object) -> Callable[[], object]:
    origin = store.ensure_anchor("p")
    args: dict[str, object] = {
        "origin": origin,
        "signature": BY,
        "adopting_words": WORDS,
        "adopting_signature": BY,
    }
    args.update(kw)
    return lambda: store.import_and_root([(b, {"n": i}) for i, b in enumerate(bodies)], **args)  # type: ignore[arg-type]


def _record_of(row: Any) -> EntryRecord:
    """The record of an inserted row, field by field (what an act would carry)."""
    return EntryRecord(
        content_id=row.content_id,
        scope=row.scope,
        created_at=row.created_at,
        jurisdiction=row.jurisdiction,
        bucket=row.bucket,
        source=row.source,
        signature=row.signature,
        body_hash=row.body_hash,
        meta=row.meta,
        nonce=row.nonce,
        origins=row.origins,
    )


def test_import_and_root_entries_are_ground_and_describe_exactly_accepted(
    store: ForestStore,
) -> None:
    made = _import(store, ["harbor one", "harbor two", "harbor three"])()
    assert isinstance(made, list) and len(made) == 3
    for new in made:
        assert store.is_ground(new.entry_id)
        assert not store.is_ground(new.record_id)
        # The record the act carries is the one the index would describe.
        assert describe(store, new.entry_id) == _record_of(new.entry)
        assert describe(store, new.record_id) == _record_of(new.record)
    hits = store.conn.execute(
        "SELECT COUNT(*) FROM entries_fts WHERE entries_fts MATCH 'harbor'"
    ).fetchone()[0]
    assert hits == 3


@pytest.mark.parametrize(
    ("kw", "bodies", "match"),
    [
        ({"adopting_words": "  "}, ["a body"], "missing adopting words"),
        ({"adopting_words": "love it!"}, ["a body"], "enthusiasm is not root"),
        ({"adopting_signature": ""}, ["a body"], "speaker signature"),
        ({"signature": " "}, ["a body"], "unsigned insert refused"),
        ({}, ["fine body", "   ", "another"], "empty body refused"),
        ({"origin": 9999}, ["a body"], "unknown entry 9999"),
    ],
)
def test_import_and_root_bad_input_refused(
    store: ForestStore, kw: dict[str, object], bodies: list[str], match: str
) -> None:
    call = _import(store, bodies, **kw)
    assert_refused(store, call, match=match, exc=ForestError)


def _corpus(tmp_path: Path) -> tuple[Path, list[str]]:
    root = make_repo(tmp_path)
    targets = []
    for i in range(12):
        doc = f"# Doc {i}\n\n## Keep\n\nharbor words {i}\n\n### Status\n\nopen\n\n## Rest\n\nx\n"
        write(root, f"docs/d{i}.md", doc)
        targets.append(f"docs/d{i}.md#Keep")
    for i in range(4):
        code = f"def f{i}(x):\n    return x + {i}\n\n\ndef g(x):\n    return x\n"
        write(root, f"src/m{i}.py", code)
        targets.append(f"src/m{i}.py::f{i}")
    commit_all(root, "corpus")
    return root, targets


def _index_dump(db: Path) -> dict[str, list[Any]]:
    """Every custody table by content (local ids translated to content ids)."""
    with closing(sqlite3.connect(db)) as conn:
        cid = dict(conn.execute("SELECT id, content_id FROM entries"))
        entries = sorted(
            (r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], cid.get(r[9]))
            for r in conn.execute(
                "SELECT content_id, created_at, bucket, signature, body, body_hash, meta_json, "
                "scope, nonce, chain_root FROM entries"
            )
        )
        edges = sorted(
            (cid[f], cid[t], k, c)
            for f, t, k, c in conn.execute("SELECT from_id, to_id, kind, created_at FROM edges")
        )
        binds = sorted(
            (*r[:-1], cid[r[-1]])
            for r in conn.execute(
                "SELECT act_id, bind_act, kind, path, selector, excludes_json, normalisation, "
                "hash_algo, section_hash, by_sig, at, entry_id FROM binding_events"
            )
        )
        applied = sorted(conn.execute("SELECT act_id, entry_ids, deps, depth FROM ledger_applied"))
        produced = sorted(conn.execute("SELECT content_id, act_id FROM ledger_entry_acts"))
        fts = sorted(
            cid[r[0]]
            for r in conn.execute("SELECT rowid FROM entries_fts WHERE entries_fts MATCH 'harbor'")
        )
    return {
        "entries": entries,
        "edges": edges,
        "binds": binds,
        "applied": applied,
        "produced": produced,
        "fts": fts,
    }


def test_batched_adoption_equals_replay_through_the_gates_accepted(tmp_path: Path) -> None:
    root, targets = _corpus(tmp_path)
    with Repository.init(root, project_id="p") as repo:
        docs, code = targets[:12], targets[12:]
        sections = read_sections(root, docs, ("#Status",), max_bytes=1 << 20)
        sections += read_sections(root, code, (), max_bytes=1 << 20)
        bound = adopt_sections(repo, sections, words=WORDS, by=BY)
        assert len(bound) == len(targets)
    live = _index_dump(local_state(root) / "woods.db")
    with Repository(root) as repo:
        report = repo.rebuild()  # every act replayed through write / root_to_ground / bind
        assert report.applied == len(targets)
    rebuilt = _index_dump(local_state(root) / "woods.db")
    assert live == rebuilt
    assert len(live["binds"]) == len(targets) and len(live["fts"]) == 12


def test_same_section_named_twice_adopted_once_accepted(tmp_path: Path) -> None:
    root, _ = _corpus(tmp_path)
    with Repository.init(root, project_id="p") as repo:
        sections = read_sections(
            root, ["docs/d1.md#Keep", "docs/d1.md#Doc 1/Keep", "docs/d2.md"], (), max_bytes=1 << 20
        )
        bound = adopt_sections(repo, sections, words=WORDS, by=BY)
        assert [b.selector for b in bound] == ["docs/d1.md#Doc 1/Keep", "docs/d2.md"]
        assert len(all_bindings(repo.store())) == 2
