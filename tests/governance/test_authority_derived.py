"""Authority derived from what an act touches, and the applier refusing forged acts.

Each hostile act here got through on the format-1 ledger (the act's own ``path``
field decided what CI judged; a rebind's ``file_hash`` was trusted by the check).
Now the applier derives the bound paths of every act, live and on replay, and the
gate judges those against forest.toml at the merge-base.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from forest_files.custody.bindings import all_bindings
from forest_files.custody.lookup import find_binding
from forest_files.custody.record import adopt_sections, rebind_section
from forest_files.custody.repository import Repository
from forest_files.custody.targets import read_section
from forest_files.doors.cli import app
from forest_files.gate.range import check_range
from forest_files.kernel.errors import AuthorityRefused, ForestError
from forest_files.kernel.hashing import hash_body
from forest_files.ledger import LedgerError, make_act, read_ledger, write_segment
from forest_files.ledger.segments import body_path
from tests.helpers.acts import raw_line
from tests.helpers.git import commit_all, git, make_repo, write
from tests.helpers.template import reused

ADA = "Ada Lovelace <ada@example.org>"
MALLORY = "Mallory <mallory@example.org>"
AUTHOR = "Test Author <author@example.org>"
WORDS = "Adopted as the canon stands today"
PROJECT = "p-derived"
DOC = "# Canon\n\n## Elias\n\nElias keeps the lighthouse.\n"
runner = CliRunner()


def forest(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def _build_repo(tmp_path: Path) -> Path:
    path = make_repo(tmp_path)
    Repository.init(path, project_id=PROJECT).close()
    write(
        path,
        "forest.toml",
        f'[project]\nid = "{PROJECT}"\n\n[authority]\n"**" = ["{AUTHOR}"]\n'
        f'"canon/**" = ["{ADA}"]\n',
    )
    write(path, "canon/characters.md", DOC)
    with Repository(path) as r:
        section = read_section(path, "canon/characters.md#Elias", (), max_bytes=1 << 20)
        adopt_sections(r, [section], words=WORDS, by=ADA)
    commit_all(path, "canon under custody")
    git(path, "checkout", "-q", "-b", "feature")
    return path


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """canon/** governed by Ada; one bound heading; HEAD on ``feature``."""
    # A private copy of one built once per worker process (template.reused).
    return reused((__name__, "repo"), tmp_path / "repo", _build_repo)


def _acts(repo: Path) -> list[Any]:
    return read_ledger(repo / ".forest" / "ledger").ordered()


def _forge(repo: Path, kind: str, deps: list[str], fields: dict[str, Any]) -> Any:
    act = make_act(kind, deps, fields, scope=PROJECT)
    write_segment(repo / ".forest" / "ledger", [act], {})
    return act


def test_forged_rebind_with_tampered_text_refused(repo: Path) -> None:
    """A hand-written rebind claiming the tampered section is ground is refused by
    replay; the check never trusts a hash from the ledger."""
    [adopt] = _acts(repo)
    write(repo, "canon/characters.md", DOC.replace("keeps", "burns"))
    tampered = hash_body("## Elias\n\nElias burns the lighthouse.\n")
    fields = {
        "binding": adopt.id,
        "path": "canon/characters.md",
        "selector": "canon/characters.md#Canon/Elias",
        "section_hash": tampered,
        "by": ADA,
        "at": "2026-12-01T00:00:00.000Z",
    }
    forged = _forge(repo, "rebind", [adopt.id], fields)
    commit_all(repo, "forged rebind")
    with Repository(repo) as r, pytest.raises(LedgerError, match=forged.id):
        r.rebuild()
    code, out, err = forest("ci", "-C", str(repo), "--base", "main")
    assert code == 3, out + err


def test_forged_pathless_retire_judged_by_its_binding(repo: Path) -> None:
    """A retire carries no path field at all; the gate still judges the chain's path."""
    [adopt] = _acts(repo)
    fields = {"binding": adopt.id, "words": "gone", "by": MALLORY, "at": "2026"}
    forged = _forge(repo, "retire", [adopt.id], fields)
    commit_all(repo, "mallory retires the canon")
    faults = check_range(repo, "main").faults
    assert [(f.code, f.act_id) for f in faults] == [("authority", forged.id)]
    assert "canon/characters.md" in faults[0].detail
    code, out, _ = forest("ci", "-C", str(repo), "--base", "main")
    assert code == 1 and "authority" in out


def test_forged_supersede_by_non_holder_judged_by_chain(repo: Path) -> None:
    """Mallory supersedes through the library (no path given): the gate judges the
    bound paths of the chain, not a field of the act."""
    with Repository(repo) as r:
        [ground] = r.ground()
        # Live, the signer must hold the chain's path: refused.
        with pytest.raises(AuthorityRefused, match=r"canon/characters\.md"):
            r.supersede(
                ground.content_id,
                "Elias sells the lighthouse.",
                words="my version now",
                by=MALLORY,
                expected_body_hash=hash_body("Elias sells the lighthouse."),
            )
    # Written by hand instead (a valid act whose id is right): CI judges it.
    from forest_files.custody.plan import plan_supersede

    with Repository(repo) as r:
        store = r.synced()
        old = store.id_for_content(ground.content_id)
        assert old is not None
        text = "Elias sells the lighthouse."
        planned = plan_supersede(store, old, text, words="my version now", by=MALLORY)
        act = r.act(planned, {_acts(repo)[0].id})
    bodies = {planned.entry.body_hash: text, planned.record.body_hash: "my version now"}
    write_segment(repo / ".forest" / "ledger", [act], bodies)
    commit_all(repo, "hand-written supersede")
    faults = check_range(repo, "main").faults
    assert [(f.code, f.act_id) for f in faults] == [("authority", act.id)]


def test_resolve_by_non_holder_refused_live(repo: Path, tmp_path: Path) -> None:
    """Two branches supersede the same ground; a non-holder may not resolve it."""
    with Repository(repo) as r:
        [ground] = r.ground()
    commit_all(repo, "nothing")
    heads = []
    for branch, text in (("b1", "Elias keeps the light."), ("b2", "Elias tends the light.")):
        git(repo, "checkout", "-q", "-b", branch, "feature")
        with Repository(repo) as r:
            heads.append(
                r.supersede(
                    ground.content_id,
                    text,
                    words=WORDS,
                    by=ADA,
                    expected_body_hash=hash_body(text),
                )
            )
        commit_all(repo, branch)
    git(repo, "merge", "-q", "--no-edit", "b1")
    with Repository(repo) as r:
        assert sorted(c.content_id for c in r.contested()) == sorted(heads)
        before = sorted(p.name for p in (repo / ".forest/ledger/segments").iterdir())
        with pytest.raises(AuthorityRefused, match=r"canon/characters\.md"):
            r.resolve(heads[0], pick=heads[0], words="mine wins", by=MALLORY)
        after = sorted(p.name for p in (repo / ".forest/ledger/segments").iterdir())
        assert before == after  # nothing recorded
        r.resolve(heads[0], pick=heads[0], words="the first reading stands", by=ADA)
        assert [g.content_id for g in r.ground()] != []


def test_rebind_to_ungoverned_path_judged_on_both_paths(repo: Path) -> None:
    """Moving a binding out of a governed path needs authority over the old path
    too, live; and a later supersede at the new path is judged by the gate."""
    write(repo, "notes/elias.md", "## Elias\n\nElias keeps the lighthouse.\n")
    with Repository(repo) as r:
        binding = find_binding(all_bindings(r.synced()), "canon/characters.md#Elias")
        section = read_section(repo, "notes/elias.md#Elias", (), max_bytes=1 << 20)
        with pytest.raises(AuthorityRefused):
            rebind_section(r, binding, section, by=MALLORY)
    # A hand-written rebind by Mallory: the gate judges both the old and new path.
    [adopt] = _acts(repo)
    fields = {
        "binding": adopt.id,
        "path": "notes/elias.md",
        "selector": "notes/elias.md#Elias",
        "section_hash": hash_body("## Elias\n\nElias keeps the lighthouse.\n"),
        "by": MALLORY,
        "at": "2026",
    }
    forged = _forge(repo, "rebind", [adopt.id], fields)
    commit_all(repo, "move the canon where nobody governs")
    faults = check_range(repo, "main").faults
    assert {(f.code, f.act_id) for f in faults} == {("authority", forged.id)}
    assert any("canon/characters.md" in f.detail for f in faults)


def test_forged_erase_of_live_ground_refused(repo: Path) -> None:
    """A forged erase plus the deleted body: replay refuses erasing live ground, so
    the ground text can never be made to vanish that way."""
    [adopt] = _acts(repo)
    body_hash = hash_body("## Elias\n\nElias keeps the lighthouse.\n")
    fields = {"body_hash": body_hash, "by": MALLORY, "reason": "gone", "at": "2026"}
    forged = _forge(repo, "erase", [adopt.id], fields)
    body_path(repo / ".forest" / "ledger", body_hash).unlink()
    commit_all(repo, "erase the canon")
    with Repository(repo) as r, pytest.raises(LedgerError, match="live ground"):
        r.rebuild()
    code, out, err = forest("ci", "-C", str(repo), "--base", "main")
    assert code == 3 and forged.id in out + err


def test_act_of_another_project_refused(repo: Path) -> None:
    [adopt] = _acts(repo)
    fields = {"binding": adopt.id, "words": "gone", "by": ADA, "at": "2026"}
    act = make_act("retire", [adopt.id], fields, scope="some-other-project")
    write_segment(repo / ".forest" / "ledger", [act], {})
    with Repository(repo) as r, pytest.raises(LedgerError, match="not this repository"):
        r.rebuild()


def test_live_refusal_is_exit_1_and_writes_nothing(repo: Path) -> None:
    write(repo, "canon/characters.md", DOC.replace("keeps", "guards"))
    ledger = repo / ".forest" / "ledger"
    before = sorted(str(p) for p in ledger.rglob("*"))
    target = "canon/characters.md#Elias"
    code, _, err = forest("supersede", target, "--words", WORDS, "--as", MALLORY, "-C", str(repo))
    assert code == 1 and err.startswith("forest:") and len(err.strip().splitlines()) == 1
    assert "guards" not in err
    assert sorted(str(p) for p in ledger.rglob("*")) == before


def test_unknown_field_in_a_known_kind_refused_on_replay(repo: Path) -> None:
    """Refused when built, and when a hand-written line carrying it is replayed."""
    [adopt] = _acts(repo)
    fields = {"binding": adopt.id, "words": "x", "by": ADA, "at": "2026", "policy": "off"}
    with pytest.raises(ForestError, match="does not know"):
        make_act("retire", [adopt.id], fields, scope=PROJECT)
    obj = {"v": 2, "kind": "retire", "deps": [adopt.id], "scope": PROJECT, **fields}
    line = raw_line(obj) + b"\n"
    name = hashlib.sha256(line).hexdigest()
    write(repo, f".forest/ledger/segments/{name}.jsonl", line.decode())
    with Repository(repo) as r, pytest.raises(LedgerError, match="does not know"):
        r.rebuild()


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "junit", "github"])
def test_forged_act_every_ci_format_writes_a_complete_report(repo: Path, fmt: str) -> None:
    """A ledger that verifies but will not replay: every format still writes its whole
    report, the fault a result located at the forged act's segment file."""
    [adopt] = _acts(repo)
    body_hash = hash_body("## Elias\n\nElias keeps the lighthouse.\n")
    fields = {"body_hash": body_hash, "by": MALLORY, "reason": "gone", "at": "2026"}
    forged = _forge(repo, "erase", [adopt.id], fields)
    commit_all(repo, "erase the canon")
    code, out, _ = forest("ci", "-C", str(repo), "--base", "main", "--format", fmt)
    assert code == 3
    assert forged.id[:12] in out and "ledger-fault" in out
    segment = next(
        p.name
        for p in (repo / ".forest/ledger/segments").iterdir()
        if forged.id in p.read_text(encoding="utf-8")
    )
    assert f".forest/ledger/segments/{segment}" in out
    if fmt in ("json", "sarif"):
        import json

        json.loads(out)
