"""The watcher's ``restore`` policy never removes another bound section: a restore
whose ground lacks a bound section that stands in the section's lines now (a heading
demoted into it, a bound subsection added under it) is left as its proposal, the
watcher's line naming the nested binding and the ways out (custody/restore_nested.py,
doors/watch/route.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from forest_files.check.path import run_check
from forest_files.custody.proposals import ProposalStore
from forest_files.doors.watch.route import Restorer
from tests.doors.test_watch_folder_route import Lines
from tests.helpers.cli import ok
from tests.helpers.git import commit_all, make_repo, write
from tests.helpers.state import shared_state
from tests.helpers.watch import TIMEOUT, watching

WORDS = "I adopt these words as written"
BOOK = "# Book\n\n## A\n\nA text.\n\n### A.1\n\nA.1 text.\n\n## B\n\nB text.\n"


def _adopted(tmp_path: Path, *targets: str) -> Path:
    repo = make_repo(tmp_path)
    ok(repo, "init")
    write(repo, "book.md", BOOK)
    commit_all(repo, "init")
    ok(repo, "adopt", *targets, "--words", WORDS, "--yes")
    commit_all(repo, "adopt")
    return repo


def _drifted(root: Path, selector: str):  # type: ignore[no-untyped-def]
    (item,) = [r for r in run_check(root, "worktree").items if r.finding.selector == selector]
    assert item.finding.kind == "drifted", item.finding.kind
    return item


def _captures(root: Path) -> list[Path]:
    return list((shared_state(root) / "captures").glob("*"))


def test_watch_restore_removing_a_demoted_bound_heading_refused(tmp_path: Path) -> None:
    """## B demoted into ## A: ground of A lacks it; restoring A would delete B."""
    root = _adopted(tmp_path, "book.md", "--headings")
    demoted = BOOK.replace("## B", "### B")
    (root / "book.md").write_text(demoted, encoding="utf-8")
    outcome = Restorer(root).restore(_drifted(root, "book.md#Book/A"), ())
    assert outcome.startswith("failed: book.md#Book/A: restoring it would remove book.md#Book/B")
    assert "(line 11)" in outcome
    assert "`forest restore 'book.md#Book/A' --drop-nested`" in outcome
    assert (root / "book.md").read_text(encoding="utf-8") == demoted
    assert _captures(root) == []


def test_watch_restore_removing_a_bound_subsection_refused(tmp_path: Path) -> None:
    """## A bound without a subsection; ### A.1 added under it and bound: restoring A
    would delete A.1."""
    alone = BOOK.replace("### A.1\n\nA.1 text.\n\n", "")
    repo = make_repo(tmp_path)
    ok(repo, "init")
    write(repo, "book.md", alone)
    commit_all(repo, "init")
    ok(repo, "adopt", "book.md#A", "--words", WORDS)
    (repo / "book.md").write_text(BOOK, encoding="utf-8")
    ok(repo, "adopt", "book.md#A/A.1", "--words", WORDS)
    commit_all(repo, "sub")
    outcome = Restorer(repo).restore(_drifted(repo, "book.md#Book/A"), ())
    assert "would remove book.md#Book/A/A.1" in outcome and "(line 7)" in outcome
    assert (repo / "book.md").read_text(encoding="utf-8") == BOOK
    assert _captures(repo) == []


def test_watch_restore_keeping_a_nested_binding_accepted(tmp_path: Path) -> None:
    """A's ground holds A.1: restoring A writes A.1's ground back, nothing removed."""
    root = _adopted(tmp_path, "book.md", "--headings")
    (root / "book.md").write_text(BOOK.replace("A text.", "A, edited."), encoding="utf-8")
    assert Restorer(root).restore(_drifted(root, "book.md#Book/A"), ()) == "restored"
    assert (root / "book.md").read_text(encoding="utf-8") == BOOK


@pytest.mark.slow  # a real watcher
def test_watch_restore_policy_demoted_bound_heading_left_as_proposal_refused(
    tmp_path: Path,
) -> None:
    """A running watcher under ``restore``: the demote is kept as A's proposal, the file
    is left as it is and the watcher's line names B and the way out. (No binding of
    the whole book: its restore would put B back out, and the watcher restores it.)"""
    root = _adopted(tmp_path, "book.md#A", "book.md#A/A.1", "book.md#B")
    with (root / "forest.toml").open("a", encoding="utf-8") as fh:
        fh.write('\n[watch]\n"book.md" = "restore"\n')
    demoted = BOOK.replace("## B", "### B")
    said = Lines()
    with watching(root, sink=said) as w:
        (root / "book.md").write_text(demoted, encoding="utf-8")
        assert w.journal.wait_for(
            lambda rs: any(r.kind == "restore" and r.path == "book.md" for r in rs), TIMEOUT
        ), w.journal.items()
        (done,) = [r.detail for r in w.journal.items("restore")]
    assert done.startswith("failed: book.md#Book/A: restoring it would remove book.md#Book/B")
    assert (root / "book.md").read_text(encoding="utf-8") == demoted
    assert _captures(root) == []
    (line,) = said.have("  book.md#Book/A: not restored")
    assert "`forest restore 'book.md#Book/A' --drop-nested`" in line
    with ProposalStore(root) as kept:
        assert [p.selector for p in kept.open_proposals()] == ["book.md#Book/A"]
