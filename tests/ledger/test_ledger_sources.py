"""Ground from any tree: the working tree, the git index and any commit each
answer from their own ledger, and the working tree's index db is never touched."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from forest_files.custody.config import ConfigError
from forest_files.custody.repository import GroundEntry, Repository
from forest_files.custody.sources import (
    GroundView,
    config_from,
    ground_from,
    read_ledger_from,
)
from forest_files.gitio import UnknownRef
from forest_files.kernel.hashing import hash_body
from forest_files.ledger import LedgerError, read_ledger
from forest_files.ledger.segments import body_path
from tests.helpers.git import commit_all, git, make_repo, write
from tests.helpers.state import local_state

ADA = "Ada Lovelace <ada@example.org>"
WORDS = "I adopt this text as written"


def supersede(repo: Path, old: str, body: str) -> str:
    with Repository(repo) as r:
        return r.supersede(old, body, words=WORDS, by=ADA, expected_body_hash=hash_body(body))


@pytest.fixture
def three(tmp_path: Path) -> tuple[Path, list[str]]:
    """v1 committed, v2 staged, v3 only in the working tree."""
    repo = make_repo(tmp_path)
    Repository.init(repo, project_id="p-sources").close()
    with Repository(repo) as r:
        v1 = r.adopt_text("Version one.", words=WORDS, by=ADA)
    commit_all(repo, "v1")
    v2 = supersede(repo, v1, "Version two.")
    git(repo, "add", "-A")
    v3 = supersede(repo, v2, "Version three.")
    return repo, [v1, v2, v3]


def ids(view: GroundView) -> list[str]:
    return [g.content_id for g in view.ground]


def test_three_sources_three_answers(three: tuple[Path, list[str]]) -> None:
    repo, (v1, v2, v3) = three
    assert ids(ground_from(repo, "worktree")) == [v3]
    assert ids(ground_from(repo, "index")) == [v2]
    assert ids(ground_from(repo, "HEAD")) == [v1]
    head = git(repo, "rev-parse", "HEAD")
    assert ids(ground_from(repo, head)) == [v1]
    with Repository(repo) as r:
        assert [g.content_id for g in r.ground()] == [v3]


def test_ground_entry_matches_repository(three: tuple[Path, list[str]]) -> None:
    repo, _ = three
    view = ground_from(repo, "index")
    [entry] = view.ground
    assert isinstance(entry, GroundEntry)
    assert (entry.body_hash, entry.adopted_by, entry.words) == (
        hash_body("Version two."),
        ADA,
        WORDS,
    )
    assert view.contested == ()


def test_snapshots_agree_with_read_ledger(three: tuple[Path, list[str]]) -> None:
    repo, _ = three
    on_disk = read_ledger(repo / ".forest" / "ledger")
    worktree, _ = read_ledger_from(repo, "worktree")
    staged, read_staged = read_ledger_from(repo, "index")
    committed, _ = read_ledger_from(repo, "HEAD")
    assert worktree.acts.keys() == on_disk.acts.keys()
    assert len(committed.acts) == 1 < len(staged.acts) == 2 < len(worktree.acts) == 3
    assert set(committed.segments) < set(staged.segments) < set(worktree.segments)
    assert read_staged(hash_body("Version two.")) == "Version two."
    assert read_staged(hash_body("Version three.")) is None  # not staged


def test_index_db_untouched(three: tuple[Path, list[str]]) -> None:
    repo, _ = three
    forest_dir = local_state(repo)
    db = forest_dir / "woods.db"
    before = (db.stat().st_mtime_ns, db.read_bytes(), sorted(os.listdir(forest_dir)))
    for source in ("worktree", "index", "HEAD"):
        ground_from(repo, source)
    after = (db.stat().st_mtime_ns, db.read_bytes(), sorted(os.listdir(forest_dir)))
    assert after == before


def test_config_from_each_source(three: tuple[Path, list[str]]) -> None:
    repo, _ = three
    text = f'[project]\nid = "p-sources"\n\n[authority]\n"docs/**" = ["{ADA}"]\n'
    write(repo, "forest.toml", text)
    assert config_from(repo, "worktree").authority[0].glob == "docs/**"
    assert config_from(repo, "index").authority == ()
    git(repo, "add", "forest.toml")
    assert config_from(repo, "index").authority[0].holders == (ADA,)
    assert config_from(repo, "HEAD").authority == ()
    assert config_from(repo, "HEAD").project_id == "p-sources"


def test_missing_config_and_unknown_ref(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    write(repo, "README", "no forest here")
    commit_all(repo, "plain")
    with pytest.raises(ConfigError, match=r"forest\.toml at HEAD: missing"):
        config_from(repo, "HEAD")
    with pytest.raises(UnknownRef):
        ground_from(repo, "no-such-branch")


def test_body_that_lies_refused(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    Repository.init(repo, project_id="p").close()
    with Repository(repo) as r:
        r.adopt_text("Honest text.", words=WORDS, by=ADA)
    path = body_path(repo / ".forest" / "ledger", hash_body("Honest text."))
    path.write_text("Dishonest text.", encoding="utf-8")
    commit_all(repo, "tampered")
    with pytest.raises(LedgerError, match="does not hash to its name"):
        ground_from(repo, "HEAD")
    with pytest.raises(LedgerError, match="does not hash to its name"):
        ground_from(repo, "index")


def test_staged_supersession_without_commit_and_deleted_segment(
    three: tuple[Path, list[str]],
) -> None:
    """A segment removed from the git index (but still on disk) drops its acts there."""
    repo, (v1, _v2, v3) = three
    staged, _ = read_ledger_from(repo, "index")
    committed, _ = read_ledger_from(repo, "HEAD")
    [new_segment] = set(staged.segments) - set(committed.segments)
    git(repo, "rm", "-q", "--cached", f".forest/ledger/segments/{new_segment}.jsonl")
    assert ids(ground_from(repo, "index")) == [v1]
    assert ids(ground_from(repo, "worktree")) == [v3]
