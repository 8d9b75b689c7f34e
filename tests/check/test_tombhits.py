"""Tombstone hits at the doors that accept acts: an act written by hand WITHOUT the erase
in its deps (so replay applies it) that carries the forgotten token in its words is
refused by the pre-commit hook and by the CI gate / ``verify --base`` (erased-content,
exit 1), naming the erase act and the match kind, never the token."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from forest_files.check.staged import judge_staged
from forest_files.custody.applied import deps_for
from forest_files.custody.plan import plan_supersede
from forest_files.custody.repository import Repository
from forest_files.gate.ci import run_gate
from forest_files.gate.range import check_range
from forest_files.ledger import write_segment
from forest_files.ledger.acts import build_act
from tests.helpers.cli import forest
from tests.helpers.git import commit_all, git, write
from tests.helpers.template import copied_from
from tests.helpers.tokens import BY, TOKEN, build, erase_act

NEW = "# Ops\n\n## Keys\n\nThe keys live in the vault, rotated.\n\n## Other\n\nother words\n"


root = copied_from(build)


def _forge(root: Path, words: str) -> str:
    """A supersede of doc.md#Keys whose words hold ``words``, written by hand with no
    erase act among its deps (replay applies it); returns its act id."""
    write(root, "doc.md", NEW)
    with Repository(root) as repo:
        store = repo.synced()
        (ground,) = repo.ground()
        old = store.local_id(ground.content_id)
        planned = plan_supersede(store, old, "## Keys\n\nThe keys live in the vault, rotated.\n",
                                 words=words, by=BY)  # fmt: skip
        deps = deps_for(store, refs=[old], status_of=[old]) - {erase_act(root)}
        act = build_act(planned, deps, scope="p")
        bodies = {planned.entry.body_hash: "## Keys\n\nThe keys live in the vault, rotated.\n"}
        bodies[planned.record.body_hash] = words
        write_segment(root / ".forest/ledger", [act], bodies)
        repo.sync()  # replay applies it: it never saw the erase
    return act.id


def test_forged_act_without_erase_dep_replays_accepted(root: Path) -> None:
    """Replay judges an act only against erases in its closure: this one replays."""
    _forge(root, f"rotated, was {TOKEN}")
    with Repository(root) as repo:
        repo.rebuild()  # no refusal


def test_forged_words_token_in_hook_refused(root: Path) -> None:
    act = _forge(root, f"rotated, was {TOKEN}")
    git(root, "add", "-A")
    report = judge_staged(root)
    found = [r.finding for r in report.failed if r.finding.kind == "erased-content"]
    assert len(found) == 1 and found[0].act == act
    said = found[0].detail
    assert erase_act(root)[:12] in said and "token match" in said and "words (--words)" in said
    assert TOKEN.lower() not in said.lower() and not report.ok


def test_forged_words_token_in_range_refused(root: Path) -> None:
    base = git(root, "rev-parse", "HEAD").strip()
    act = _forge(root, f"rotated\nold key {TOKEN}")
    commit_all(root, "forged")  # no hook installed here: the gate is what judges it
    report = check_range(root, base)
    (fault,) = [f for f in report.faults if f.code == "erased-content"]
    assert fault.act_id == act and "line 2," in fault.detail and "token match" in fault.detail
    assert TOKEN.lower() not in fault.detail.lower()
    gate = run_gate(root, base)
    assert gate.exit_code == 1
    assert any(f.kind == "erased-content" and f.finding.act == act for f in gate.findings)
    result = forest(root, "verify", "--base", base)
    assert result.exit_code == 1 and TOKEN not in result.stdout + result.stderr


def test_forged_words_token_audited_detected(root: Path) -> None:
    _forge(root, f"was {TOKEN}")
    git(root, "add", "-A")
    judge_staged(root)
    conn = sqlite3.connect(root / ".git/forest/audit.db")
    rows = conn.execute(
        "SELECT reason, targets FROM audit WHERE reason = 'tombstone-hit'"
    ).fetchall()
    conn.close()
    assert rows and json.loads(rows[-1][1])[:2] == [erase_act(root), "token"]


def test_clean_new_act_after_forget_in_range_accepted(root: Path) -> None:
    base = git(root, "rev-parse", "HEAD").strip()
    _forge(root, "rotated the key")
    commit_all(root, "clean")
    assert not [f for f in check_range(root, base).faults if f.code == "erased-content"]


def test_forged_words_token_hook_renders_refused(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The hook's own renderer: exit 1, the erase act and the match named, no key."""
    from forest_files.doors.hooks.run import check_staged

    _forge(root, f"was {TOKEN}")
    git(root, "add", "-A")
    assert check_staged(root) == 1
    err = capsys.readouterr().err
    assert "erased-content" in err and erase_act(root)[:12] in err and "token match" in err
    assert TOKEN.lower() not in err.lower()
