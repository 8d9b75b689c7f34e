"""``verify --base``: the ledger only grows in a range, and the acts a range adds
are judged by the authority map as it stood at the merge-base."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from forest_files.custody.applied import act_paths
from forest_files.custody.record import adopt_sections
from forest_files.custody.repository import Repository
from forest_files.custody.sources import ground_from
from forest_files.custody.targets import read_section
from forest_files.doors.cli import app
from forest_files.gate.range import check_range
from forest_files.gitio import ShallowClone, UnknownRef
from forest_files.kernel.hashing import hash_body
from forest_files.ledger import make_act, read_ledger, write_segment
from forest_files.ledger.segment_files import segment_paths
from forest_files.ledger.segments import body_path
from tests.helpers.git import commit_all, git, make_repo, write
from tests.helpers.ledger import delete_body
from tests.helpers.template import reused

ADA = "Ada Lovelace <ada@example.org>"
MALLORY = "Mallory <mallory@example.org>"
AUTHOR = "Test Author <author@example.org>"  # who commits in these repositories
WORDS = "I adopt this text as written"
runner = CliRunner()


def forest(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def config_text(*holders: str, everything: str = AUTHOR) -> str:
    listed = ", ".join(f'"{h}"' for h in holders)
    return (
        f'[project]\nid = "p-range"\n\n[authority]\n"**" = ["{everything}"]\n'
        f'"docs/**" = [{listed}]\n'
    )


def _build_repo(tmp_path: Path) -> Path:
    path = make_repo(tmp_path)
    Repository.init(path, project_id="p-range").close()
    write(path, "forest.toml", config_text(ADA))
    adopt(path, "Base ground.", path="docs/base.md")
    commit_all(path, "base")
    git(path, "checkout", "-q", "-b", "feature")
    return path


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """main: forest.toml governing docs/** by Ada (and ``**`` by the committer), one
    adopted file; HEAD on ``feature``."""
    # A private copy of one built once per worker process (template.reused).
    return reused((__name__, "repo"), tmp_path / "repo", _build_repo)


def adopt(repo: Path, body: str, by: str = ADA, path: str | None = None) -> str:
    """Adopt ``body``: bound as the whole file ``path`` when given, else unbound."""
    with Repository(repo) as r:
        if path is None:
            return r.adopt_text(body, words=WORDS, by=by)
        write(repo, path, body + "\n")
        section = read_section(repo, path, (), max_bytes=1 << 20)
        return adopt_sections(r, [section], words=WORDS, by=by)[0].content_id


def codes(repo: Path) -> list[str]:
    return [f.code for f in check_range(repo, "main").faults]


def test_clean_range_ok(repo: Path) -> None:
    adopt(repo, "Feature ground.", path="docs/feature.md")
    commit_all(repo, "feature")
    report = check_range(repo, "main")
    assert report.ok and report.faults == ()
    assert report.merge_base == git(repo, "rev-parse", "main")
    code, out, _ = forest("verify", "--repo", str(repo), "--base", "main", "--json")
    assert code == 0, out
    obj = json.loads(out)
    assert obj["ok"] is True and obj["merge_base"] == report.merge_base


def test_paths_derived_on_replay_not_declared(repo: Path) -> None:
    [act] = read_ledger(repo / ".forest" / "ledger").ordered()
    assert "path" not in act.fields  # the act declares no path about itself
    with Repository(repo) as r:
        assert r.rebuild().applied == 1
        assert len(r.ground()) == 1
        assert act_paths(r.store(), [act.id]) == {act.id: frozenset({"docs/base.md"})}
    assert len(ground_from(repo, "HEAD").ground) == 1


def test_deleted_segment_is_a_fault(repo: Path) -> None:
    [segment] = segment_paths(repo / ".forest" / "ledger")
    git(repo, "rm", "-q", str(segment.relative_to(repo)))
    commit_all(repo, "drop the newest act")
    report = check_range(repo, "main")
    assert [f.code for f in report.faults] == ["ledger-deleted"]
    assert report.faults[0].segment == segment.name
    code, out, _ = forest("verify", "--repo", str(repo), "--base", "main")
    assert code == 3
    assert "ledger-deleted" in out and segment.name in out and "Base ground" not in out


def test_rewritten_segment_is_a_fault(repo: Path) -> None:
    [segment] = segment_paths(repo / ".forest" / "ledger")
    segment.write_bytes(segment.read_bytes() * 2)  # new bytes in a file that keeps its name
    commit_all(repo, "rewrite")
    assert codes(repo) == ["ledger-rewritten"]
    code, out, _ = forest("verify", "--repo", str(repo), "--base", "main", "--json")
    assert code == 3
    assert "ledger-rewritten" in {f["code"] for f in json.loads(out)["faults"]}


def test_erased_body_is_not_a_fault(repo: Path) -> None:
    ledger = repo / ".forest" / "ledger"
    body_hash = hash_body("Base ground.\n")
    with Repository(repo) as r:
        [ground] = r.ground()
        r.seal(ground.content_id, words="sealed before its erasure", by=ADA)
    sealed = next(a.id for a in read_ledger(ledger).acts.values() if a.kind == "seal")
    fields = {"body_hash": body_hash, "by": ADA, "reason": "pasted by mistake", "at": "2026"}
    erase = make_act("erase", [sealed], fields, scope="p-range")
    write_segment(ledger, [erase], {})
    delete_body(ledger, body_hash)
    commit_all(repo, "erase")
    assert check_range(repo, "main").faults == ()
    code, out, _ = forest("verify", "--repo", str(repo), "--base", "main")
    assert code == 0, out


def test_deleted_body_without_erasure_is_a_fault(repo: Path) -> None:
    body_path(repo / ".forest" / "ledger", hash_body("Base ground.\n")).unlink()
    commit_all(repo, "lose a body")
    assert codes(repo) == ["ledger-deleted"]


def test_new_holder_cannot_act_in_same_range(repo: Path) -> None:
    write(repo, "forest.toml", config_text(ADA, MALLORY))
    adopt(repo, "Mallory's text.", by=MALLORY, path="docs/x.md")  # allowed live: today's map
    commit_all(repo, "add myself and act")
    report = check_range(repo, "main")
    [fault] = report.faults
    assert fault.code == "authority" and fault.act_id is not None
    assert fault.detail == (
        f"{MALLORY} holds no authority over docs/x.md at merge-base {report.merge_base[:12]} "
        "(adopt act); a holder there must make it instead"
    )
    code, out, _ = forest("verify", "--repo", str(repo), "--base", "main")
    assert code == 1 and "authority" in out and "Mallory's text" not in out


def test_config_change_by_non_holder_of_everything_refused(repo: Path) -> None:
    """forest.toml is governed: a committer who does not hold '**' at the merge-base
    cannot change the authority map, even without recording any act."""
    write(repo, "forest.toml", config_text(ADA, everything=ADA))
    commit_all(repo, "take over")
    git(repo, "checkout", "-q", "main")
    write(repo, "forest.toml", config_text(ADA, everything=ADA))
    commit_all(repo, "hand ** to Ada")
    git(repo, "checkout", "-q", "-b", "later")
    write(repo, "forest.toml", config_text(ADA, MALLORY, everything=ADA))
    commit_all(repo, "add Mallory")
    [fault] = check_range(repo, "main").faults
    assert fault.code == "config-governance" and AUTHOR in fault.detail
    code, out, _ = forest("verify", "--repo", str(repo), "--base", "main")
    assert code == 1 and "config-governance" in out


def test_project_id_change_refused(repo: Path) -> None:
    write(repo, "forest.toml", config_text(ADA).replace("p-range", "p-other"))
    commit_all(repo, "new id")
    assert "config-governance" in codes(repo)


def test_holder_at_merge_base_may_act(repo: Path) -> None:
    adopt(repo, "Ada's text.", by=ADA, path="docs/x.md")
    adopt(repo, "Unbound text is judged as a path only '**' matches.", by=AUTHOR)
    commit_all(repo, "ada acts")
    assert check_range(repo, "main").faults == ()


def test_acts_already_at_merge_base_not_rejudged(repo: Path) -> None:
    """Removing Ada later does not fault the act she recorded before the range."""
    write(repo, "forest.toml", config_text(MALLORY))
    commit_all(repo, "hand over")
    assert check_range(repo, "main").faults == ()


def test_unknown_base_refused(repo: Path) -> None:
    with pytest.raises(UnknownRef, match="no-such-branch"):
        check_range(repo, "no-such-branch")
    code, _, err = forest("verify", "--repo", str(repo), "--base", "no-such-branch")
    assert code == 1 and "no-such-branch" in err


def test_shallow_clone_names_the_fix(repo: Path, tmp_path: Path) -> None:
    adopt(repo, "On the feature branch.", by=AUTHOR)
    commit_all(repo, "feature work")
    git(repo, "checkout", "-q", "main")
    adopt(repo, "Later on main.", by=AUTHOR)
    commit_all(repo, "main moves on")
    copy = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", "--no-single-branch", f"file://{repo}", str(copy))
    git(copy, "checkout", "-q", "feature")
    with pytest.raises(ShallowClone, match="fetch-depth: 0"):
        check_range(copy, "origin/main")
    code, _, err = forest("verify", "--repo", str(copy), "--base", "origin/main")
    assert code != 0 and "fetch-depth: 0" in err


def test_body_over_the_merge_bases_policy_refused(repo: Path) -> None:
    """Raising max_body_bytes in the pull request that needs it does not let a body
    over the merge-base's limit through (judged by the gate, never by replay)."""
    small = config_text(ADA) + "\n[policy]\nmax_body_bytes = 64\n"
    git(repo, "checkout", "-q", "main")
    write(repo, "forest.toml", small)
    commit_all(repo, "a small limit")
    git(repo, "checkout", "-q", "-b", "big")
    write(repo, "forest.toml", small.replace("= 64", "= 4096"))
    big = adopt(repo, "x" * 200, path="docs/big.md")  # allowed live: today's limit
    commit_all(repo, "raise the limit and adopt a big body")
    report = check_range(repo, "main")
    assert [f.code for f in report.faults] == ["policy"]
    assert "max_body_bytes = 64" in report.faults[0].detail and big not in report.faults[0].detail
    code, out, _ = forest("verify", "--repo", str(repo), "--base", "main")
    assert code == 1 and "policy" in out and "x" * 200 not in out
    with Repository(repo) as r:  # replay never judges policy
        assert r.rebuild().applied >= 2


def test_config_change_fault_located_at_forest_toml_detected(repo: Path) -> None:
    """A governed forest.toml change is placed on forest.toml, where SARIF and the
    GitHub annotation can show it; it was placed on the directory .forest/ledger."""
    write(repo, "forest.toml", config_text(ADA, MALLORY, everything=ADA).replace("p-range", "p-x"))
    commit_all(repo, "add Mallory, new id")
    git(repo, "rm", "-q", "forest.toml")
    git(repo, "commit", "-q", "-m", "drop the config")
    faults = [f for f in check_range(repo, "main").faults if f.code == "config-governance"]
    assert len(faults) == 2 and {f.path for f in faults} == {"forest.toml"}
    changed, deleted = (git(repo, "rev-parse", f"HEAD{up}")[:12] for up in ("~1", ""))
    assert {f.detail.split(" forest.toml")[0] for f in faults} == {
        f"commit {changed} changes the project id in",
        f"commit {deleted} deletes",
    }
    assert all("forest.toml" in f.detail for f in faults)  # verify prints the detail alone
