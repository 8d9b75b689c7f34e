"""What replaying adopt acts hashes: each entry's content id once, each body once
(custody/apply_adopt.py).

An adopt's two entries are built by the store from the act's own records (``rows.adopt``)
and their content ids compared with the declared ones. Each record was then hashed a
second time (``recompute_id``) to prove its fields hash to its id — work the row's id
already did when every hashed field is the record's. ``forest ci`` on a fresh clone
replays every adopt of the ledger, so this was a fifth of the content-id hashing of a
rebuild. No timing is asserted: the content ids computed are counted. A record whose
field differs from the row's is still hashed and refused (its own test below).

Each adopted body was hashed twice too: once to check it against the act's
``body_hash`` as it was read (``ApplyRules.body``), once more to build its row
(``rows.adopt``); the row now takes the hash just checked. And each adopted entry's
meta (a file's path and selector) was judged twice: when its act was decoded
(``EntryRecord.parse``) and again by the row's check; an act the codec made is not
judged again, a hand-made one still is (its own test below). And every adoption
record of a batch, the same words by the same speaker, was judged by the row's check
one by one: it is judged once a batch (a record's check reads nothing else). And each
binding's rules were encoded to JSON for its row one by one (custody/bindings.py
``apply_binds``): each distinct rules value is encoded once an apply.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from forest_files import ForestStore
from forest_files.custody import apply_rules
from forest_files.custody.repository import Repository
from forest_files.kernel import bounds, hashing
from forest_files.ledger import record
from forest_files.ledger.acts import Act, LedgerError
from forest_files.ledger.kinds import EntryRecord
from forest_files.store import entryrow
from tests.helpers.custody import init_and_adopt
from tests.helpers.git import make_repo, write

BY = "t <t@example.org>"
N = 40
_ACT = Act(kind="adopt", deps=(), fields={}, id="a" * 64, payload=None)  # type: ignore[arg-type]


def _counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every ``entry_content_id`` the store's rows and the records' recomputation make."""
    calls: list[int] = []
    real: Callable[..., str] = hashing.entry_content_id

    def counting(**fields: Any) -> str:
        calls.append(1)
        return real(**fields)

    monkeypatch.setattr(entryrow, "entry_content_id", counting)
    monkeypatch.setattr(record, "entry_content_id", counting)
    return calls


def _adopted(tmp_path: Path) -> Path:
    root = make_repo(tmp_path / "r")
    with Repository.init(root, project_id="p") as repo:
        repo.adopt_many([f"body {i} of the batch\n" for i in range(N)], words="adopt", by=BY)
    return root


def test_adopt_replay_hashes_each_entry_once_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _adopted(tmp_path)
    calls = _counted(monkeypatch)
    with Repository(root) as repo:
        report = repo.rebuild()
    assert report.applied == N
    # Two entries an adopt (the import and its record), one content id each; the anchor
    # and what else a rebuild writes are a handful more. Before: four per adopt.
    assert 2 * N <= len(calls) <= 2 * N + 8, len(calls)


def test_adopt_replay_hashes_each_body_once_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _adopted(tmp_path)
    hashed: list[str] = []
    real: Callable[[str], str] = hashing.hash_body

    def counting(text: str) -> str:
        hashed.append(text)
        return real(text)

    monkeypatch.setattr(entryrow, "hash_body", counting)
    monkeypatch.setattr(apply_rules, "hash_body", counting)
    with Repository(root) as repo:
        report = repo.rebuild()
        rows = repo.store().conn.execute("SELECT body, body_hash FROM entries").fetchall()
    assert report.applied == N
    # Each body checked once as it is read, the one adopting text once. Before: twice each.
    bodies = [t for t in hashed if t.startswith("body ")]
    assert len(bodies) == N, len(bodies)
    assert len(hashed) <= N + 4, len(hashed)
    assert all(real(str(body)) == str(digest) for body, digest in rows)


def _judged(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Every file's meta ``bounds.check_meta`` judges (the decoder's and the row's)."""
    judged: list[object] = []
    real = bounds.check_meta

    def counting(value: object, field: str = "meta") -> Any:
        if isinstance(value, dict) and "path" in value:
            judged.append(value)
        return real(value, field)

    monkeypatch.setattr(bounds, "check_meta", counting)
    return judged


def test_adopt_replay_judges_each_meta_once_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_repo(tmp_path / "r")
    for i in range(N):
        write(root, f"docs/d{i:02d}.md", f"# D{i}\n\nbound text {i}\n")
    init_and_adopt(root, [f"docs/d{i:02d}.md" for i in range(N)])
    judged = _judged(monkeypatch)
    with Repository(root) as repo:
        report = repo.rebuild()
        metas = (
            repo.store()
            .conn.execute("SELECT meta_json FROM entries WHERE bucket = 'import'")
            .fetchall()
        )
    assert report.applied == N
    assert len(metas) == N and all(m[0] != "{}" for m in metas)
    # Once each, as its act is decoded. Before: again as its row was built (2 * N).
    assert len(judged) == N, len(judged)


def test_adopt_replay_judges_one_batch_words_once_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _adopted(tmp_path)
    records: list[str] = []
    real: Callable[..., None] = entryrow.check

    def counting(**row: Any) -> None:
        if row["bucket"] == "adoption_record":
            records.append(str(row["body"]))
        real(**row)

    monkeypatch.setattr(entryrow, "check", counting)
    with Repository(root) as repo:
        report = repo.rebuild()
        held = (
            repo.store()
            .conn.execute("SELECT count(*) FROM entries WHERE bucket = 'adoption_record'")
            .fetchone()[0]
        )
    assert report.applied == N and held == N
    # One batch, one text, one speaker: judged once. Before: once per record (N).
    assert records == ["adopt"], records


def test_adopt_batch_second_speaker_over_bound_refused(store: ForestStore) -> None:
    """Records of one batch judged once per (words, speaker): a second speaker's record
    is still judged, and one over the bound refused (nothing written)."""
    from forest_files.kernel.errors import CeremonyRefusal, ForestError
    from forest_files.store.bulk import Adoption

    store.ensure_anchor("p")
    anchor = int(store.conn.execute("SELECT id FROM entries").fetchone()[0])
    stamp = ("2024-01-01T00:00:00.000Z", "n")
    plans = [
        Adoption(f"body {i}\n", {}, anchor, BY, "adopt", who, (stamp[0], f"e{i}"),
                 (stamp[0], f"r{i}"))
        for i, who in enumerate((BY, BY, "x" * (bounds.MAX_SIGNATURE_CHARS + 1)))
    ]  # fmt: skip
    before = store.conn.execute("SELECT count(*) FROM entries").fetchone()[0]
    with pytest.raises((ForestError, CeremonyRefusal), match="signature"):
        store.insert_adoptions(plans)
    assert store.conn.execute("SELECT count(*) FROM entries").fetchone()[0] == before


def test_hand_made_adopt_meta_over_bound_refused(store: ForestStore) -> None:
    """An act not made by the codec (no line: its records never parsed) still has its
    meta judged by the row's check: a meta over the bound is refused, nothing written."""
    from forest_files.custody.apply import Applier
    from forest_files.custody.plan import record_of
    from forest_files.ledger.kinds import AdoptAct

    store.ensure_anchor("p")
    anchor = str(store.conn.execute("SELECT content_id FROM entries").fetchone()[0])
    words, body = "adopt", "a body\n"
    meta = {"path": "x" * (bounds.MAX_META_BYTES + 1)}
    entry = entryrow.entry_row(
        scope=store.scope, stamp=("2024-01-01T00:00:00.000Z", "n1"), jurisdiction="home",
        bucket="import", source=None, signature=BY, body=body, meta=meta,
        links=(entryrow.Link(None, anchor, "derived_from"),),
    )  # fmt: skip
    rec = entryrow.entry_row(
        scope=store.scope, stamp=("2024-01-01T00:00:00.000Z", "n2"), jurisdiction="home",
        bucket="adoption_record", source=None, signature=BY, body=words,
        links=(entryrow.Link(None, entry.content_id, "adopts"),),
    )  # fmt: skip
    payload = AdoptAct(record_of(entry), record_of(rec), None)
    act = Act(kind="adopt", deps=(), fields={}, id="b" * 64, payload=payload, scope="p")
    texts = {entry.body_hash: body, rec.body_hash: words}
    before = store.conn.execute("SELECT count(*) FROM entries").fetchone()[0]
    with pytest.raises(LedgerError, match="meta"), store.atomic():
        Applier(store, texts.get).apply_many([act])
    assert store.conn.execute("SELECT count(*) FROM entries").fetchone()[0] == before


def test_adopt_record_field_not_the_rows_still_hashed_refused(store: ForestStore) -> None:
    """A record with a hashed field the row has not (its content id kept) is not taken
    on the row's id: it is hashed and refused, as ``same`` refused it before."""
    row = entryrow.entry_row(
        scope="s", stamp=("2024-01-01T00:00:00.000Z", "n1"), jurisdiction="home",
        bucket="adoption_record", source=None, signature=BY, body="adopt", links=(),
    )  # fmt: skip
    rec = EntryRecord(
        content_id=row.content_id, scope="s", created_at=row.created_at, jurisdiction="home",
        bucket="adoption_record", source=None, signature=BY, body_hash=row.body_hash,
        meta={}, nonce="n1", origins=(),
    )  # fmt: skip
    rules = apply_rules.ApplyRules(store, lambda _: None)
    assert rules.same_row(_ACT, row, rec) == row.content_id
    for field, value in (("signature", BY + " "), ("meta", {"k": 1}), ("source", "x")):
        forged = dataclasses.replace(rec, **{field: value})
        with pytest.raises(LedgerError, match="its own fields do not hash"):
            rules.same_row(_ACT, row, forged)


def test_adopt_replay_encodes_each_rules_value_once_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A batch's bindings share two rules values (none, an exclusion): each is encoded
    to its row's JSON once per apply, not once per binding; every row as before."""
    import json
    import sys

    from forest_files.custody.record import adopt_sections
    from forest_files.custody.targets import read_section

    root = make_repo(tmp_path / "r")
    for i in range(N):
        write(root, f"docs/d{i:02d}.md", f"# D{i}\n\nbound text {i}\n\n## Status\n\nopen\n")
    with Repository.init(root, project_id="p") as repo:
        specs = [(f"docs/d{i:02d}.md", ("#Status",) if i % 2 else ()) for i in range(N)]
        sections = [read_section(root, t, ex, max_bytes=1 << 20) for t, ex in specs]
        adopt_sections(repo, sections, words="adopt", by=BY)
    encoded: list[object] = []
    real: Callable[..., str] = json.dumps

    def counting(obj: object, *args: Any, **kwargs: Any) -> str:
        if sys._getframe(1).f_globals.get("__name__") == "forest_files.custody.bindings":
            encoded.append(obj)
        return real(obj, *args, **kwargs)

    monkeypatch.setattr(json, "dumps", counting)
    with Repository(root) as repo:
        report = repo.rebuild()
        rows = repo.store().conn.execute("SELECT path, excludes_json FROM binding_events")
        held = dict(rows.fetchall())
    assert report.applied == N
    # Before: once per binding (N).
    assert sorted(map(str, encoded)) == ["['#Status']", "[]"], encoded
    for i in range(N):
        assert held[f"docs/d{i:02d}.md"] == ('["#Status"]' if i % 2 else "[]")
