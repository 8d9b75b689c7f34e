"""Repository mode with real git: init, sync, rebuild, clones, merges, forged acts."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from forest_files.custody.config import ConfigError
from forest_files.custody.repository import Repository
from forest_files.kernel.errors import ForestError
from forest_files.kernel.hashing import hash_body
from forest_files.kernel.paths import GITATTRIBUTES_LINE as LINE
from forest_files.ledger import LedgerError, make_act, read_ledger, write_segment
from forest_files.ledger.segment_files import segment_paths
from forest_files.ledger.segment_write import write_bodies
from forest_files.ledger.segments import body_path
from tests.helpers.git import commit_all, git, make_repo, write
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


def clone(src: Path, dest: Path) -> Path:
    git(src.parent, "clone", "-q", str(src), str(dest))
    return dest


def ground_ids(repo: Path) -> list[str]:
    with Repository(repo) as r:
        return [g.content_id for g in r.ground()]


def adopt(repo: Path, body: str) -> str:
    with Repository(repo) as r:
        return r.adopt_text(body, words=WORDS, by=ADA)


def test_init_creates_layout(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    with Repository.init(repo, project_id="p1") as r:
        assert r.config.project_id == "p1"
        assert r.ground() == []
    assert (repo / "forest.toml").is_file()
    assert (repo / ".forest" / "ledger").is_dir()
    assert (local_state(repo) / "woods.db").is_file()
    assert (repo / ".forest" / ".gitignore").read_text().splitlines() == [
        "woods.db*",
        "cache/",
        "local.db*",
        "audit.db*",
    ]
    assert LINE in (repo / ".gitattributes").read_text().splitlines()
    status = git(repo, "status", "--porcelain", "--untracked-files=all")
    assert "woods.db" not in status
    assert "forest.toml" in status


def test_init_keeps_existing_gitattributes(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    write(repo, ".gitattributes", "*.png binary")
    Repository.init(repo).close()
    lines = (repo / ".gitattributes").read_text().splitlines()
    assert lines == ["*.png binary", LINE]


def test_init_ledger_safe_from_a_broader_filter_rule_refused(tmp_path: Path) -> None:
    """A rule above forest init's line that filters every ``.txt`` (git LFS, a clean
    filter) would store ledger bodies rewritten, and every clone's ledger would fail
    its hashes: init's line unsets the filter too, so git stores the bytes."""
    repo = make_repo(tmp_path)
    write(repo, ".gitattributes", "*.txt filter=shout")
    git(repo, "config", "filter.shout.clean", "tr a-z A-Z")
    git(repo, "config", "filter.shout.smudge", "cat")
    Repository.init(repo).close()
    with Repository(repo) as r:
        r.adopt_text("quiet words, kept as written", words="The canon line", by="Ada <a@x>")
    commit_all(repo, "ground")
    bodies = sorted((repo / ".forest" / "ledger" / "bodies").rglob("*.txt"))
    stored = [git(repo, "show", f"HEAD:{b.relative_to(repo).as_posix()}") for b in bodies]
    assert stored == [b.read_text(encoding="utf-8").rstrip("\n") for b in bodies]
    assert any("quiet words" in text for text in stored)


def test_init_twice_refused(origin: Path) -> None:
    with pytest.raises(ConfigError, match="already initialised"):
        Repository.init(origin)


def test_open_before_init_refused(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    with pytest.raises(ConfigError, match="run `forest init`"):
        Repository(repo)


def test_open_outside_git_refused(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    with pytest.raises(ForestError, match="not inside a git working tree"):
        Repository(plain)


def test_adopt_text_is_ground_and_one_segment(origin: Path) -> None:
    cid = adopt(origin, "The river floods in spring.")
    with Repository(origin) as r:
        [entry] = r.ground()
        assert entry.content_id == cid
        assert entry.body_hash == hash_body("The river floods in spring.")
        assert (entry.adopted_by, entry.words) == (ADA, WORDS)
        assert [e.kind for e in r.log()] == ["adopt"]
    assert len(segment_paths(origin / ".forest" / "ledger")) == 1


def test_refused_record_leaves_no_segment(origin: Path) -> None:
    with Repository(origin) as r, pytest.raises(ForestError, match="enthusiasm"):
        r.adopt_text("Some text.", words="lovely!", by=ADA)
    assert segment_paths(origin / ".forest" / "ledger") == []


def test_authority_for_path_refused(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    Repository.init(repo, project_id="p").close()
    write(repo, "forest.toml", f'[project]\nid = "p"\n\n[authority]\n"docs/**" = ["{ADA}"]\n')
    with Repository(repo) as r:
        with pytest.raises(ForestError, match="holds no authority") as info:
            r.adopt_text("x", words=WORDS, by="Bob <bob@example.org>", path="docs/a.md")
        assert f"ask a listed holder ({ADA}) to record this" in str(info.value)
        assert r.ground() == []
        r.adopt_text("x", words=WORDS, by=ADA, path="docs/a.md")
        assert len(r.ground()) == 1


def test_authority_refusal_names_at_most_three_holders_refused(tmp_path: Path) -> None:
    """The refusal said "ask a listed holder" and named none: the one refused had to
    read forest.toml's globs to learn whom (the last matching rule's holders)."""
    repo = make_repo(tmp_path)
    Repository.init(repo, project_id="p").close()
    many = ", ".join(f'"<h{n}@example.org>"' for n in range(1, 5))
    write(
        repo,
        "forest.toml",
        f'[project]\nid = "p"\n\n[authority]\n"**" = ["{ADA}"]\n"docs/**" = [{many}]\n',
    )
    with Repository(repo) as r, pytest.raises(ForestError) as info:
        r.adopt_text("x", words=WORDS, by=ADA, path="docs/a.md")
    got = str(info.value)
    assert "holder (<h1@example.org>, <h2@example.org>, <h3@example.org> and 1 more)" in got
    assert "h4@" not in got and ADA not in got.partition(";")[2]


def test_supersede_seal_unseal_rebuilt_identical(origin: Path) -> None:
    old = adopt(origin, "Version one.")
    with Repository(origin) as r:
        new = r.supersede(
            old, "Version two.", words=WORDS, by=ADA, expected_body_hash=hash_body("Version two.")
        )
        r.seal(new, words="seal it for now", by=ADA)
        assert r.ground() == []
        r.unseal(new, words="open again", by=ADA)
        before = r.ground()
        assert [g.content_id for g in before] == [new]
        report = r.rebuild()
        assert report.rebuilt and report.applied == 4
        assert r.ground() == before


def test_clone_without_index_rebuilt(origin: Path, tmp_path: Path) -> None:
    cid = adopt(origin, "Shared text.")
    commit_all(origin, "adopt")
    copy = clone(origin, tmp_path / "copy")
    assert not (local_state(copy) / "woods.db").exists()
    assert ground_ids(copy) == [cid]


def test_two_clones_merge_sync_identical(origin: Path, tmp_path: Path) -> None:
    b = clone(origin, tmp_path / "b")
    c = clone(origin, tmp_path / "c")
    x = adopt(b, "Written on b.")
    commit_all(b, "b")
    y = adopt(c, "Written on c.")
    commit_all(c, "c")
    git(b, "pull", "-q", "--no-rebase", "--no-edit", str(c), "main")
    git(c, "pull", "-q", "--no-rebase", "--no-edit", str(b), "main")
    with Repository(b) as r:
        report = r.sync()
        assert (report.applied, report.rebuilt) == (1, False)
    assert ground_ids(b) == ground_ids(c) == sorted([x, y])


def test_branch_switch_rebuilt(origin: Path) -> None:
    git(origin, "checkout", "-q", "-b", "feature")
    x = adopt(origin, "Only on the feature branch.")
    commit_all(origin, "feature")
    git(origin, "checkout", "-q", "main")
    with Repository(origin) as r:
        assert r.sync().rebuilt
        assert r.ground() == []
    git(origin, "checkout", "-q", "feature")
    with Repository(origin) as r:
        report = r.sync()
        assert (report.applied, report.rebuilt) == (1, False)
    assert ground_ids(origin) == [x]


def _replace_ledger(repo: Path, acts: list[Any], bodies: dict[str, str]) -> None:
    ledger = repo / ".forest" / "ledger"
    for path in segment_paths(ledger):
        path.unlink()
    write_segment(ledger, acts, bodies)


def _forged(act: Any, **record_changes: Any) -> Any:
    fields = dict(act.fields)
    fields["record"] = {**fields["record"], **record_changes}
    return make_act(act.kind, act.deps, fields, scope=act.scope)


@pytest.mark.parametrize("lie", ["content_id", "body_hash"])
def test_forged_root_refused(origin: Path, lie: str) -> None:
    adopt(origin, "Honest text.")
    ledger = origin / ".forest" / "ledger"
    [adopt_act] = read_ledger(ledger).ordered()
    other = "I adopt some other words"
    change = {"content_id": "0" * 64} if lie == "content_id" else {"body_hash": hash_body(other)}
    forged = _forged(adopt_act, **change)
    _replace_ledger(origin, [forged], {hash_body(other): other})
    with Repository(origin) as r, pytest.raises(LedgerError, match=forged.id):
        r.rebuild()


def test_supersede_of_unadopted_entry_refused(origin: Path) -> None:
    old = adopt(origin, "First.")
    with Repository(origin) as r:
        r.supersede(old, "Second.", words=WORDS, by=ADA, expected_body_hash=hash_body("Second."))
    ledger = origin / ".forest" / "ledger"
    adopt_act, sup = read_ledger(ledger).ordered()
    # A write of the same entry (never adopted) in place of the adopt: the
    # supersession then supersedes something that was never ground.
    write_act = make_act("write", [], {"entry": adopt_act.fields["entry"]}, scope=adopt_act.scope)
    forged = make_act("supersede", [write_act.id], dict(sup.fields), scope=sup.scope)
    _replace_ledger(origin, [write_act, forged], {})
    with Repository(origin) as r, pytest.raises(LedgerError, match="not ground at its dep"):
        r.rebuild()


def test_write_of_ceremony_bucket_refused(origin: Path) -> None:
    adopt(origin, "Text.")
    [adopt_act] = read_ledger(origin / ".forest" / "ledger").ordered()
    entry = {**adopt_act.fields["entry"], "bucket": "adoption_record"}
    forged = make_act("write", [], {"entry": entry}, scope=adopt_act.scope)
    _replace_ledger(origin, [forged], {})
    with Repository(origin) as r, pytest.raises(LedgerError, match="never written by a write"):
        r.rebuild()


def test_sibling_supersessions_merged_contested(origin: Path, tmp_path: Path) -> None:
    x = adopt(origin, "The shared ground.")
    commit_all(origin, "ground")
    b = clone(origin, tmp_path / "b")
    c = clone(origin, tmp_path / "c")
    with Repository(b) as r:
        y = r.supersede(
            x, "B's version.", words=WORDS, by=ADA, expected_body_hash=hash_body("B's version.")
        )
    commit_all(b, "b")
    with Repository(c) as r:
        z = r.supersede(
            x, "C's version.", words=WORDS, by=ADA, expected_body_hash=hash_body("C's version.")
        )
    commit_all(c, "c")
    git(b, "pull", "-q", "--no-rebase", "--no-edit", str(c), "main")
    with Repository(b) as r:
        assert r.ground() == []
        assert sorted(e.content_id for e in r.contested()) == sorted([y, z])
        r.rebuild()
        assert sorted(e.content_id for e in r.contested()) == sorted([y, z])
        with pytest.raises(ForestError, match="not current ground"):
            r.supersede(y, "again", words=WORDS, by=ADA, expected_body_hash=hash_body("again"))


def test_failed_commit_segment_removed_and_crash_recovers(
    origin: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import forest_files.custody.recording as recording

    index = local_state(origin) / "woods.db"
    # A deferred foreign-key violation makes the index's COMMIT fail, after the
    # segment was written: the moment between the two that recording must clean up.
    with closing(sqlite3.connect(index)) as db:
        db.executescript(
            "CREATE TABLE crash_parent (id INTEGER PRIMARY KEY);"
            "CREATE TABLE crash_child (pid INTEGER REFERENCES crash_parent(id)"
            " DEFERRABLE INITIALLY DEFERRED);"
            "CREATE TRIGGER crash AFTER INSERT ON ledger_applied"
            " BEGIN INSERT INTO crash_child VALUES (42); END;"
        )
    kept: list[Path] = []
    texts: dict[str, str] = {}
    original = recording.write_segment

    def write_and_keep(
        ledger: Path, acts: Any, bodies: dict[str, str], created: list[Path] | None = None
    ) -> Any:
        ref = original(ledger, acts, bodies, created)
        kept.append(tmp_path / ref.path.name)
        kept[-1].write_bytes(ref.path.read_bytes())
        texts.update(bodies)
        return ref

    monkeypatch.setattr(recording, "write_segment", write_and_keep)
    with Repository(origin) as r, pytest.raises(ForestError, match="FOREIGN KEY"):
        r.adopt_text("Lost or kept?", words=WORDS, by=ADA)
    ledger = origin / ".forest" / "ledger"
    assert kept and segment_paths(ledger) == []  # written, then removed again
    assert texts and not any(body_path(ledger, h).exists() for h in texts)  # its bodies too
    with closing(sqlite3.connect(index)) as db:
        db.execute("DROP TRIGGER crash")
    assert ground_ids(origin) == []
    # A crash (no chance to delete) leaves the segment and its bodies; the next sync
    # replays it.
    write_bodies(ledger, texts)
    (ledger / "segments" / kept[0].name).write_bytes(kept[0].read_bytes())
    with Repository(origin) as r:
        assert r.sync().applied == 1
        assert [g.body_hash for g in r.ground()] == [hash_body("Lost or kept?")]
