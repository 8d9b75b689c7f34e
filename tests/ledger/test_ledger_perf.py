"""Bulk adoption and incremental sync: one segment per command, sync reads only new segments."""

from __future__ import annotations

import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

import forest_files.custody.sync as sync_module
from forest_files.custody.repository import Repository
from forest_files.kernel.errors import ForestError
from forest_files.kernel.hashing import hash_body
from forest_files.ledger import (
    LedgerError,
    decode_line,
    encode_act,
    read_ledger,
    write_segment,
)
from forest_files.ledger.acts import build_act
from forest_files.ledger.segment_files import segment_paths
from tests.helpers.acts import entry_record, sample_act
from tests.helpers.git import commit_all, git, make_repo
from tests.helpers.state import local_state
from tests.helpers.template import reused

ADA = "Ada Lovelace <ada@example.org>"
WORDS = "I adopt this text as written"


def _build_origin(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path, "origin")
    Repository.init(repo).close()
    commit_all(repo, "forest init")
    return repo


@pytest.fixture
def origin(tmp_path: Path) -> Path:
    # A private copy of one built once per worker process (template.reused).
    return reused((__name__, "origin"), tmp_path / "origin", _build_origin)


def ledger(repo: Path) -> Path:
    return repo / ".forest" / "ledger"


def test_adopt_many_one_segment_and_rebuild_identical(origin: Path) -> None:
    bodies = [f"Bulk text number {i}." for i in range(25)]
    with Repository(origin) as r:
        ids = r.adopt_many(bodies, words=WORDS, by=ADA)
        ground = r.ground()
        assert len(ids) == len(set(ids)) == 25
        assert sorted(g.content_id for g in ground) == sorted(ids)
        assert {g.body_hash for g in ground} == {hash_body(b) for b in bodies}
        assert [e.kind for e in r.log()] == ["adopt"] * 25
        report = r.rebuild()
        assert (report.applied, report.rebuilt) == (25, True)
        assert r.ground() == ground
    [segment] = segment_paths(ledger(origin))
    assert len(segment.read_bytes().splitlines()) == 25
    assert r.adopt_many([], words=WORDS, by=ADA) == []
    assert len(segment_paths(ledger(origin))) == 1


def test_adopt_many_refused_records_nothing(origin: Path) -> None:
    with Repository(origin) as r:
        with pytest.raises(ForestError):
            r.adopt_many(["Fine text.", "   "], words=WORDS, by=ADA)
        assert r.ground() == []
    assert segment_paths(ledger(origin)) == []


def test_sync_reads_only_new_segments(
    origin: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Repository(origin) as r:
        old = r.adopt_many(["Old one.", "Old two."], words=WORDS, by=ADA)
    commit_all(origin, "old")
    other = tmp_path / "other"
    git(origin.parent, "clone", "-q", str(origin), str(other))
    with Repository(other) as r:
        new = r.supersede(
            old[0], "New one.", words=WORDS, by=ADA, expected_body_hash=hash_body("New one.")
        )
    commit_all(other, "new")
    git(origin, "pull", "-q", "--no-rebase", str(other), "main")
    read: list[str] = []
    real = sync_module.read_segment

    def spy(path: Path) -> object:
        read.append(Path(path).name)
        return real(path)

    monkeypatch.setattr(sync_module, "_RACY_NS", 0)
    monkeypatch.setattr(sync_module, "read_segment", spy)
    with Repository(origin) as r:
        report = r.sync()
        assert (report.applied, report.rebuilt) == (1, False)
        assert len(read) == 1
        assert sorted(g.content_id for g in r.ground()) == sorted([new, old[1]])
        assert r.sync().applied == 0 and len(read) == 1


def test_sync_rebuilds_when_a_segment_is_gone(origin: Path) -> None:
    with Repository(origin) as r:
        r.adopt_many(["Kept."], words=WORDS, by=ADA)
        r.adopt_many(["Gone."], words=WORDS, by=ADA)
    newest = max(segment_paths(ledger(origin)), key=lambda p: p.stat().st_mtime_ns)
    stash = newest.read_bytes()
    newest.unlink()
    with Repository(origin) as r:
        assert r.sync().rebuilt
        assert len(r.ground()) == 1
    newest.write_bytes(stash)
    with Repository(origin) as r:
        assert (r.sync().applied, len(r.ground())) == (1, 2)


def test_segment_edited_in_place_refused_by_sync(origin: Path) -> None:
    with Repository(origin) as r:
        r.adopt_many(["Honest."], words=WORDS, by=ADA)
    [segment] = segment_paths(ledger(origin))
    data = bytearray(segment.read_bytes())
    data[20] = ord("X") if data[20] != ord("X") else ord("Y")
    segment.write_bytes(bytes(data))
    with Repository(origin) as r, pytest.raises(LedgerError):
        r.sync()


def test_old_index_tables_rebuilt(origin: Path) -> None:
    with Repository(origin) as r:
        r.adopt_many(["Text."], words=WORDS, by=ADA)
    index = local_state(origin) / "woods.db"
    with closing(sqlite3.connect(index)) as db:
        db.executescript(
            "DROP TABLE ledger_applied;"
            "CREATE TABLE ledger_applied (act_id TEXT PRIMARY KEY, entry_ids TEXT);"
        )
    with Repository(origin) as r:
        report = r.sync()
        assert (report.applied, report.rebuilt) == (1, True)


def test_index_that_lost_a_cache_table_rebuilt_at_open(
    origin: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An index without one of the replay's tables (an older layout, or cut by hand) is
    no store of ours: dropped when opened and the ledger replayed into a new one."""
    with Repository(origin) as r:
        r.adopt_many(["Text."], words=WORDS, by=ADA)
    index = local_state(origin) / "woods.db"
    with closing(sqlite3.connect(index)) as db:
        db.executescript("DROP TABLE ledger_segments;")
    with Repository(origin) as r:
        report = r.sync()
        assert report.applied == 1 and len(r.ground()) == 1
    assert "lost its table(s) ledger_segments" in capsys.readouterr().err


def test_new_act_depending_on_deep_history_judged(origin: Path, tmp_path: Path) -> None:
    """A seal synced alone is judged against old acts read from the index, not the disk."""
    with Repository(origin) as r:
        [cid] = r.adopt_many(["Deep."], words=WORDS, by=ADA)
        for i in range(3):
            cid = r.supersede(
                cid, f"Deep {i}.", words=WORDS, by=ADA, expected_body_hash=hash_body(f"Deep {i}.")
            )
    commit_all(origin, "chain")
    copy = tmp_path / "copy"
    shutil.copytree(origin, copy)
    with Repository(copy) as r:
        r.seal(cid, words="seal it", by=ADA)
    before = {p.name for p in segment_paths(ledger(origin))}
    [added] = [p for p in segment_paths(ledger(copy)) if p.name not in before]
    shutil.copytree(ledger(copy) / "bodies", ledger(origin) / "bodies", dirs_exist_ok=True)
    shutil.copy(added, ledger(origin) / "segments" / added.name)
    with Repository(origin) as r:
        assert r.sync().applied == 1
        assert r.ground() == []
    assert len(read_ledger(ledger(origin)).acts) == 1 + 3 + 1


def test_forged_act_refused_by_incremental_sync(origin: Path, tmp_path: Path) -> None:
    """A supersession whose deps leave out the adopt of the text it supersedes is
    refused on sync as on rebuild: it is judged at its deps, where that text was
    never ground. Its id is valid and its scope is the repository's."""
    with Repository(origin) as r:
        [old] = r.adopt_many(["First."], words=WORDS, by=ADA)
        scope = r.config.project_id
    copy = tmp_path / "copy"
    shutil.copytree(origin, copy)
    with Repository(copy) as r:
        r.supersede(old, "Second.", words=WORDS, by=ADA, expected_body_hash=hash_body("Second."))
    adopt, sup = read_ledger(ledger(copy)).ordered()
    assert sup.deps == (adopt.id,)
    forged = build_act(sup.payload, [], scope=scope)
    shutil.copytree(ledger(copy) / "bodies", ledger(origin) / "bodies", dirs_exist_ok=True)
    write_segment(ledger(origin), [forged], {})
    with Repository(origin) as r, pytest.raises(LedgerError, match="not ground at its dep"):
        r.sync()


@pytest.mark.parametrize(
    "meta",
    [{}, {"a": 1, "x": {"id": "nested"}}, {"note": '"id":"quoted"'}, {"z": ["id", {"id": 1}]}],
)
def test_decode_cuts_the_id_member_exactly(meta: dict[str, object]) -> None:
    act = sample_act("write", entry=entry_record(meta=meta, signature='"id":"quoted"'))
    line = encode_act(act).encode("utf-8")
    assert decode_line(line, segment="s", lineno=1) == act
    forged = line.replace(act.id.encode(), ("0" * 64).encode())
    with pytest.raises(LedgerError, match="does not match"):
        decode_line(forged, segment="s", lineno=1)


def test_forged_act_of_another_project_refused_by_sync(origin: Path, tmp_path: Path) -> None:
    """A well-formed act with a valid id, copied in from another project, is refused
    by the applier for its scope."""
    with Repository(origin) as r:
        [old] = r.adopt_many(["First."], words=WORDS, by=ADA)
    copy = tmp_path / "copy"
    shutil.copytree(origin, copy)
    with Repository(copy) as r:
        r.supersede(old, "Second.", words=WORDS, by=ADA, expected_body_hash=hash_body("Second."))
    _adopt, sup = read_ledger(ledger(copy)).ordered()
    forged = build_act(sup.payload, sup.deps, scope="some-other-project")
    shutil.copytree(ledger(copy) / "bodies", ledger(origin) / "bodies", dirs_exist_ok=True)
    write_segment(ledger(origin), [forged], {})
    with Repository(origin) as r, pytest.raises(LedgerError, match="belongs to project") as info:
        r.sync()
    assert info.value.code == "scope"
