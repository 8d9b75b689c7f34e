"""The watcher's ``restore`` policy of a section whose heading an edit hid since the
check (an unclosed fence opened in the bound section above it) says so in
restore_hidden.py's words, naming the fence and the restore that brings the heading
back; the file is left as it is (doors/watch/route.py)."""

from __future__ import annotations

from pathlib import Path

from forest_files.check.path import run_check
from forest_files.doors.watch.route import Restorer
from tests.custody.test_restore_hidden import BOOK, bound_book


def test_watch_restore_of_a_hidden_heading_refused(tmp_path: Path) -> None:
    """The watcher's restore of B (drifted when checked), a fence opened in A since:
    the outcome is restore_hidden.py's refusal, the file left as it is."""
    repo = bound_book(tmp_path, "f.md#A", "f.md#B")
    (repo / "f.md").write_text(BOOK.replace("\nb\n", "\nb, edited\n"))
    (item,) = [r for r in run_check(repo, "worktree").items if r.finding.selector == "f.md#B"]
    assert item.finding.kind == "drifted"
    fenced = BOOK.replace("text a", "```\ntext a").replace("\nb\n", "\nb, edited\n")
    (repo / "f.md").write_text(fenced)
    outcome = Restorer(repo).restore(item, ())
    assert outcome.startswith(
        "failed: f.md#B: its heading `# B` (line 7) is hidden by the code fence opened at "
        "line 3 in f.md#A"
    ), outcome
    assert "`forest restore 'f.md#A' 'f.md#B'`" in outcome, outcome
    assert (repo / "f.md").read_text() == fenced
