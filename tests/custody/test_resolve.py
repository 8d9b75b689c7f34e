"""Resolve: contested ground (merged sibling supersessions) ends only by an authority act."""

from __future__ import annotations

from pathlib import Path

import pytest

from forest_files.custody.bindings import Binding
from forest_files.custody.ground import ground_map, ground_of
from forest_files.custody.repository import Repository
from forest_files.kernel.errors import ForestError
from forest_files.kernel.hashing import hash_body
from tests.helpers.git import commit_all, git, make_repo

ADA = "Ada Lovelace <ada@example.org>"
WORDS = "I adopt this text as written"


def _supersede(repo: Path, old: str, text: str) -> str:
    with Repository(repo) as r:
        return r.supersede(old, text, words=WORDS, by=ADA, expected_body_hash=hash_body(text))


@pytest.fixture
def contest(tmp_path: Path) -> tuple[Path, Path, str, str, str]:
    """A repo ``b`` holding a merged contest: x superseded by y (branch b) and z (branch c)."""
    origin = make_repo(tmp_path, "origin")
    Repository.init(origin).close()
    with Repository(origin) as r:
        x = r.adopt_text("The shared ground.", words=WORDS, by=ADA)
    commit_all(origin, "ground")
    b, c = tmp_path / "b", tmp_path / "c"
    git(tmp_path, "clone", "-q", str(origin), str(b))
    git(tmp_path, "clone", "-q", str(origin), str(c))
    y = _supersede(b, x, "B's version.")
    commit_all(b, "b")
    z = _supersede(c, x, "C's version.")
    commit_all(c, "c")
    git(b, "pull", "-q", "--no-rebase", "--no-edit", str(c), "main")
    return b, c, x, y, z


def test_resolve_contest_picks_one_text_accepted(contest: tuple[Path, Path, str, str, str]) -> None:
    b, _, _, y, z = contest
    with Repository(b) as r:
        new = r.resolve(y, pick=z, words="C's wording is canon", by=ADA)
        (ground,) = r.ground()
        assert ground.content_id == new
        assert ground.body_hash == hash_body("C's version.")
        assert r.contested() == []
        r.rebuild()
        assert [g.content_id for g in r.ground()] == [new]


def test_resolve_travels_to_other_clone_rebuilt(contest: tuple[Path, Path, str, str, str]) -> None:
    b, c, _, y, z = contest
    with Repository(b) as r:
        new = r.resolve(z, pick=y, words="B's wording is canon", by=ADA)
    commit_all(b, "resolve")
    git(c, "pull", "-q", "--no-rebase", "--no-edit", str(b), "main")
    with Repository(c) as r:
        assert [g.content_id for g in r.ground()] == [new]
        assert r.contested() == []


def test_resolve_uncontested_refused(contest: tuple[Path, Path, str, str, str]) -> None:
    _, c, _, _, z = contest
    with Repository(c) as r, pytest.raises(ForestError, match="not contested"):
        r.resolve(z, pick=z, words="just pick it", by=ADA)


def test_resolve_pick_outside_contest_refused(contest: tuple[Path, Path, str, str, str]) -> None:
    b, _, x, y, _ = contest
    with Repository(b) as r, pytest.raises(ForestError, match="not a live head"):
        r.resolve(y, pick=x, words="the old text again", by=ADA)
    with Repository(b) as r:
        assert len(r.contested()) == 2


def test_resolve_praise_only_words_refused(contest: tuple[Path, Path, str, str, str]) -> None:
    b, _, _, y, z = contest
    with Repository(b) as r, pytest.raises(ForestError, match="enthusiasm"):
        r.resolve(y, pick=z, words="lovely!", by=ADA)


def test_cli_log_names_contested_and_resolve_clears_it_detected(
    contest: tuple[Path, Path, str, str, str],
) -> None:
    import json

    from typer.testing import CliRunner

    from forest_files.doors.cli import app

    b, _, _, y, z = contest
    runner = CliRunner()
    out = runner.invoke(app, ["log", "--repo", str(b), "--json"])
    assert out.exit_code == 0
    assert sorted(json.loads(out.stdout)["contested"]) == sorted([y, z])
    text = runner.invoke(app, ["log", "--repo", str(b)]).stdout
    # One route per head, from the one route builder (check/routes.py), as check's.
    assert all(f"forest resolve {min(y, z)} --pick {h} --words" in text for h in (y, z))
    # Each head with who adopted it, as check's; the words too where log shows words.
    assert all(f"head {h} adopted by {ADA}: \u201c{WORDS}\u201d" in text for h in (y, z))
    assert "candidates:" not in text
    plain = runner.invoke(app, ["verify", "--repo", str(b)]).stdout
    assert all(f"head {h} adopted by {ADA}\n" in plain for h in (y, z))
    assert WORDS not in plain  # verify runs in CI, whose logs are often public
    verified = runner.invoke(app, ["verify", "--repo", str(b), "--json"])
    assert verified.exit_code == 1  # a finding, not corruption
    assert sorted(json.loads(verified.stdout)["contested"]) == sorted([y, z])
    (found,) = json.loads(verified.stdout)["findings"]
    assert found["kind"] == "contested" and found["candidates"] == sorted([y, z])
    assert [r["argv"][0][:3] for r in found["routes"]] == [["forest", "resolve", min(y, z)]] * 2
    done = runner.invoke(
        app, ["resolve", y, "--pick", z, "--words", "C is canon", "--repo", str(b), "--json"]
    )
    assert done.exit_code == 0, done.stderr
    new = json.loads(done.stdout)["ground"]
    after = json.loads(runner.invoke(app, ["log", "--repo", str(b), "--json"]).stdout)
    assert after["contested"] == []
    assert after["acts"][-1]["kind"] == "resolve"
    with Repository(b) as r:
        (ground,) = r.ground()
        assert ground.content_id == new
        assert ground.adopted_by == "Test Author <author@example.org>"  # git identity


def test_cli_resolve_commit_step_pasted_accepted(contest: tuple[Path, Path, str, str, str]) -> None:
    """The text form ends with a command that works pasted (it said "commit
    .forest/ledger"): the resolve act is committed and the contest is over."""
    from typer.testing import CliRunner

    from forest_files.doors.cli import app
    from tests.helpers.git import pasted

    b, _, _, y, z = contest
    done = CliRunner().invoke(
        app, ["resolve", y, "--pick", z, "--words", "C is canon", "--repo", str(b)]
    )
    assert done.exit_code == 0, done.stderr
    (line,) = [ln for ln in done.stdout.splitlines() if ln.startswith("commit it: ")]
    assert line == "commit it: git add -- .forest/ledger && git commit"
    committed = pasted(b, line.removeprefix("commit it: ") + " -q -m resolved")
    assert committed.returncode == 0, committed.stderr
    assert git(b, "status", "--porcelain", "--", ".forest") == ""


def test_resolve_merged_with_branch_that_superseded_a_head_contested(
    contest: tuple[Path, Path, str, str, str],
) -> None:
    """A resolve of {y, z} merged with a branch that superseded z again (w): both
    branches are valid alone, so the merged ledger replays to a new contest (the
    resolve's text against w), as two merged supersedes do, never a damaged ledger
    that stops every command."""
    b, c, _, y, z = contest
    w = _supersede(c, z, "C's second version.")
    commit_all(c, "c again")
    with Repository(b) as r:
        resolved = r.resolve(y, pick=z, words="C's wording is canon", by=ADA)
    commit_all(b, "resolve")
    git(c, "pull", "-q", "--no-rebase", "--no-edit", str(b), "main")
    with Repository(c) as r:
        assert sorted(e.content_id for e in r.contested()) == sorted([resolved, w])
        assert r.ground() == []
        after = r.resolve(w, pick=resolved, words="The resolve stands", by=ADA)
        assert [g.content_id for g in r.ground()] == [after]


def test_cli_resolve_during_a_conflicted_merge_stage_step_pasted_accepted(
    contest: tuple[Path, Path, str, str, str],
) -> None:
    """A resolve while a merge still has a file in conflict: git refuses any commit
    then, so the door offers the staging alone (it printed ``git add … && git
    commit``, which failed pasted) and says what is left."""
    from typer.testing import CliRunner

    from forest_files.doors.cli import app
    from tests.helpers.git import conflicted_merge, pasted

    b, _, _, y, z = contest
    conflicted_merge(b)
    done = CliRunner().invoke(
        app, ["resolve", y, "--pick", z, "--words", "C is canon", "--repo", str(b)]
    )
    assert done.exit_code == 0, done.stderr
    assert "git commit" not in done.stdout
    (line,) = [ln for ln in done.stdout.splitlines() if ln.startswith("stage it: ")]
    assert "the 1 file(s) still in conflict, `forest check` names them" in line
    staged = pasted(b, line.removeprefix("stage it: ").split("  (")[0])
    assert staged.returncode == 0, staged.stderr
    assert ".forest/ledger/segments/" in git(b, "diff", "--cached", "--name-only")


def test_ground_of_a_contest_lists_its_heads_as_ground_map_does_accepted(
    contest: tuple[Path, Path, str, str, str],
) -> None:
    """A contest's candidates in one order whichever way a door asks (the whole map, or
    one binding: check/binding_check.py): sorted content ids, so the resolve routes and
    review's keys are numbered alike. In the two clones the heads were recorded in
    opposite orders."""
    b, c, _, y, z = contest
    git(c, "pull", "-q", "--no-rebase", "--no-edit", str(b), "main")
    for root in (b, c):
        with Repository(root) as r:
            store = r.synced()
            (entry,) = store.conn.execute("SELECT id FROM entries WHERE content_id = ?", (y,))
            bound = Binding(
                "act", "x.md", "x.md", (), "none", "sha256", "h", int(entry[0]), ADA, False
            )
            one = ground_of(store, bound)
            whole = ground_map(store, [bound])[bound.entry_id]
        assert one == whole == (None, None, tuple(sorted([y, z]))), root.name
