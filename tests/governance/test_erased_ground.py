"""Erasure never removes live ground silently: ``erased-content`` on the binding, at every door.

A forget on main merged with a branch that adopted the identical text (both
merge orders), and a hand-written erase whose dependencies leave out a live
adoption: after replay the live ground's body is erased (the index keeps no
erased text, whatever the order), and check, status, ``check --staged`` and
``ci`` report ``erased-content`` on that binding naming the act that made the
ground and the erase act. Taking the text out of the file and superseding ends
it without the erased text; ``forest restore`` refuses and writes nothing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forest_files.custody.applied import deps_for
from forest_files.custody.auditlog import AuditLog
from forest_files.custody.record import adopt_sections
from forest_files.custody.repository import Repository
from forest_files.custody.targets import read_section
from forest_files.ledger.acts import build_act
from forest_files.ledger.kinds import EraseAct
from forest_files.ledger.segment_write import write_segment
from forest_files.store.clock import utc_now
from tests.helpers.cli import forest
from tests.helpers.custody import BY, MAX, supersede_as_it_stands
from tests.helpers.forgetting import (
    CLEAN,
    DOC,
    SENTINEL,
    WORDS,
    erased_on_main_adopted_on_side,
    holding,
)
from tests.helpers.git import commit_all, git, make_repo, write
from tests.helpers.template import built_once, copy_repo

OTHER = "# Notes\n\n## Keys\n\nnothing here yet\n"


def _adopt(root: Path, target: str) -> str:
    with Repository(root) as repo:
        section = read_section(root, target, (), max_bytes=MAX)
        adopt_sections(repo, [section], words="ok", by=BY)
        return repo.log()[0].act_id


def _branches(tmp: Path) -> Path:
    """forgetting.py's story, side checked out again as main (see its builder)."""
    root = erased_on_main_adopted_on_side(tmp)
    git(root, "checkout", "-q", "main")
    return root


@pytest.fixture(scope="module")
def branches(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_once(tmp_path_factory, _branches)


def _merged(branches: Path, tmp_path: Path, into: str) -> Path:
    root = copy_repo(branches, tmp_path / "repo")
    other = "side" if into == "main" else "main"
    git(root, "checkout", "-q", into)
    git(root, "merge", "-q", "--no-edit", other)
    sync = forest(root, "sync")  # the merge brought the erase: its purge, said once
    assert sync.exit_code == 0 and "purged" in sync.stderr, sync.stderr
    return root


def _erased_findings(report: dict[str, object]) -> list[dict[str, object]]:
    found = report["findings"]
    assert isinstance(found, list)
    return [f for f in found if f["kind"] == "erased-content" and f["binding"]]


@pytest.mark.parametrize("into", ["main", "side"])
def test_merge_of_forget_and_same_text_adoption_erased_content_detected(
    branches: Path, tmp_path: Path, into: str
) -> None:
    root = _merged(branches, tmp_path, into)
    result = forest(root, "check", "--json")
    assert result.exit_code == 1, result.stdout + result.stderr
    (found,) = _erased_findings(json.loads(result.stdout))
    assert found["selector"] == "b.md#Notes/Keys" or str(found["selector"]).startswith("b.md#")
    with Repository(root) as repo:
        acts = {e.kind: e.act_id for e in repo.log()}
    assert acts["erase"][:12] in str(found["detail"]) and found["act"] == acts["erase"]
    assert acts["adopt"][:12] in str(found["detail"])
    assert SENTINEL not in result.stdout + result.stderr
    assert holding(root, SENTINEL) == []  # the index keeps no erased text, either order
    status = forest(root, "status", "--json")
    assert status.exit_code == 0 and _erased_findings(json.loads(status.stdout))
    ci = forest(root, "ci", "--base", "HEAD~1", "--format", "json")
    assert ci.exit_code == 1 and _erased_findings(json.loads(ci.stdout)), ci.stdout
    git(root, "add", "b.md")
    staged = forest(root, "check", "--staged", "--json")
    assert staged.exit_code == 1 and _erased_findings(json.loads(staged.stdout))


def test_erased_ground_take_text_out_and_supersede_recovers(branches: Path, tmp_path: Path) -> None:
    root = _merged(branches, tmp_path, "main")
    write(root, "b.md", OTHER)  # the pasted text taken out; the erased text is never needed
    result = forest(root, "supersede", "b.md#Keys", "--words", "the token is gone from b")
    assert result.exit_code == 0, result.stdout + result.stderr
    check = forest(root, "check")
    assert check.exit_code == 0, check.stdout + check.stderr


def test_erased_ground_restore_refused(branches: Path, tmp_path: Path) -> None:
    root = _merged(branches, tmp_path, "side")
    write(root, "b.md", OTHER)
    before = (root / "b.md").read_bytes()
    result = forest(root, "restore", "b.md#Keys")
    assert result.exit_code == 1, result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("forest: "), result.stderr
    assert "erase" in lines[0] and "supersede" in lines[0]
    assert (root / "b.md").read_bytes() == before
    assert b"[erased]" not in (root / "b.md").read_bytes()
    with AuditLog(root) as log:
        top = log.page(limit=1)[0]
    assert (top.action, top.outcome, top.reason) == ("drift", "refused", "erased-ground")
    assert top.targets[0] == "b.md#Notes/Keys" and len(top.targets) == 4


def test_forged_erase_omitting_live_adopt_erased_content_detected(tmp_path: Path) -> None:
    root = make_repo(tmp_path)
    write(root, "a.md", DOC)
    write(root, "b.md", DOC.replace("# Ops", "# Notes"))
    Repository.init(root, project_id="p").close()
    _adopt(root, "a.md#Keys")
    _adopt(root, "b.md#Keys")
    write(root, "a.md", CLEAN)
    supersede_as_it_stands(root, "a.md#Keys")
    with Repository(root) as repo:  # deps reach a.md's chain only, never b.md's adopt
        store = repo.synced()
        (old,) = [e.subject for e in repo.log() if e.kind == "supersede"]
        old_id = store.local_id(old)
        body_hash = str(store.require(old_id, "x")["body_hash"])
        payload = EraseAct(body_hash=body_hash, by=BY, reason=WORDS, at=utc_now(), lines=())
        act = build_act(payload, deps_for(store, refs=[old_id], status_of=[old_id]), scope="p")
        write_segment(repo.ledger_dir, [act], {})
    commit_all(root, "forged erase")
    result = forest(root, "check", "--json")
    assert result.exit_code == 1, result.stdout + result.stderr
    (found,) = _erased_findings(json.loads(result.stdout))
    assert found["act"] == act.id and str(found["path"]) == "b.md"
    assert holding(root, SENTINEL) == []
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(root), str(clone))
    again = forest(clone, "check", "--json")
    assert again.exit_code == 1 and _erased_findings(json.loads(again.stdout))
