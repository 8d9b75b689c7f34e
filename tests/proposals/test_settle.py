"""Proposals the text left behind close: a watcher's capture whose section is back at
ground, any proposal whose ground was superseded (``adopted`` when the new ground is
its text). A ``restore`` policy's capture and an agent's proposal for an unedited
section stay open. ``proposal show`` prints changed lines with context; ``--full``
the whole section."""

from __future__ import annotations

import threading
from pathlib import Path

from forest_files.custody.auditlog import MAX_PAGE, AuditLog
from forest_files.custody.proposals import ProposalStore
from forest_files.doors.review.closing import close_left_behind
from forest_files.doors.watch import judge
from tests.helpers.cli import forest, ok
from tests.helpers.custody import BY, DOC
from tests.helpers.git import git
from tests.helpers.state import shared_state
from tests.helpers.template import copied_from
from tests.helpers.watch import EDITED, bound_repo

SEL = "a.md#Title/Keep"


root = copied_from(bound_repo)


def _capture(root: Path, text: str) -> str:
    (root / "a.md").write_text(text, encoding="utf-8")
    (item,) = judge.check(root, ("a.md",), threading.Event())
    done = judge.capture(root, item, (), 1 << 20)
    assert done is not None
    return done.split(" ")[0]


def _status(root: Path, pid: str) -> tuple[str, str | None, str | None]:
    with ProposalStore(root) as store:
        p = store.get(pid)
    return p.status, p.text, p.adopted_as


def test_proposal_section_back_at_ground_closed_accepted(root: Path) -> None:
    pid = _capture(root, EDITED)
    (root / "a.md").write_text(DOC, encoding="utf-8")  # the writer undid the edit
    listed = forest(root, "proposals")
    assert listed.exit_code == 0 and "0 open proposal(s)" in listed.stdout
    assert f"closed proposal {pid} ({SEL}): back at ground" in listed.stderr
    assert _status(root, pid)[:2] == ("discarded", None)  # nothing of its text kept


def test_proposal_of_another_worktree_kept_accepted(root: Path, tmp_path: Path) -> None:
    """A text captured in a linked worktree is not closed by the main worktree, whose
    copy of the section is at ground (before: `forest proposals` there discarded it,
    keeping nothing of its text); undone in its own worktree, it closes there."""
    other = tmp_path / "other"
    git(root, "worktree", "add", "-q", "-b", "side", str(other))
    pid = _capture(other, EDITED)
    for door in ("proposals", "watch status"):
        shown = forest(root, *door.split())
        assert shown.exit_code == 0 and "closed proposal" not in shown.stderr, shown.stderr
    assert _status(root, pid)[:2] == ("open", "## Keep\n\nedited words\n\n")
    assert close_left_behind(root) == []
    (other / "a.md").write_text(DOC, encoding="utf-8")  # undone where it was made
    assert f"closed proposal {pid}" in forest(other, "proposals").stderr
    assert _status(root, pid)[:2] == ("discarded", None)


def test_proposal_closed_audited_accepted(root: Path) -> None:
    """Each closing is one audit record with a fixed reason code (a sentence such as
    "closed: back at ground" was refused by the log: a warning, and nothing kept)."""
    pid = _capture(root, EDITED)
    (root / "a.md").write_text(DOC, encoding="utf-8")
    listed = forest(root, "proposals")
    assert "warning" not in listed.stderr, listed.stderr
    with AuditLog(root) as log:
        closed = [r for r in log.page(limit=MAX_PAGE) if r.action == "proposal"]
    assert [(r.reason, r.targets[0]) for r in closed][:1] == [("closed-back-at-ground", pid)]


def test_proposal_superseded_with_its_text_adopted_accepted(root: Path) -> None:
    pid = _capture(root, EDITED)
    ok(root, "supersede", SEL, "--words", "took it by hand", "--as", BY)
    assert close_left_behind(root)[0].why == "adopted by supersede"
    status, text, adopted_as = _status(root, pid)
    assert (status, text) == ("adopted", "## Keep\n\nedited words\n\n") and adopted_as


def test_proposal_superseded_with_other_text_closed_accepted(root: Path) -> None:
    pid = _capture(root, EDITED)
    (root / "a.md").write_text(DOC.replace("kept words", "third words"), encoding="utf-8")
    ok(root, "supersede", SEL, "--words", "another wording", "--as", BY)
    shown = forest(root, "proposal", "show", pid)
    assert "superseded" in shown.stderr and "discarded" in shown.stdout


def test_proposal_restore_policy_capture_back_at_ground_stays_open_refused(root: Path) -> None:
    """Under ``restore`` the watcher writes ground back on purpose: the capture waits
    for review; closing it would lose the very text the policy promises to keep."""
    with (root / "forest.toml").open("a", encoding="utf-8") as fh:
        fh.write('\n[watch]\n"a.md" = "restore"\n')
    pid = _capture(root, EDITED)
    (root / "a.md").write_text(DOC, encoding="utf-8")
    assert close_left_behind(root) == []
    assert _status(root, pid)[0] == "open"


def test_proposal_agent_text_for_unedited_section_stays_open_refused(root: Path) -> None:
    """An agent proposes text for a section nobody edited: clean is where it starts,
    not a sign the text was withdrawn (the watcher's capture beside it closes)."""
    watched = _capture(root, EDITED)
    (root / "a.md").write_text(DOC, encoding="utf-8")
    with ProposalStore(root) as store:
        w = store.get(watched)
        agent = store.propose(
            binding=w.binding,
            path=w.path,
            selector=w.selector,
            derived_from=w.derived_from,
            ground_hash=w.ground_hash,
            text="## Keep\n\nagent words\n\n",
            source="mcp",
        ).proposal.id
    assert [s.proposal.id for s in close_left_behind(root)] == [watched]
    assert _status(root, agent)[0] == "open"


def test_proposal_settle_before_any_proposal_creates_nothing_accepted(root: Path) -> None:
    assert close_left_behind(root) == []
    assert not (shared_state(root) / "local.db").exists()


def test_proposal_show_changed_lines_with_context_and_full_accepted(root: Path) -> None:
    pid = _capture(root, EDITED)
    shown = ok(root, "proposal", "show", pid).stdout
    assert "@@ line 2 @@\n\n[-kept-]{+edited+} words\n" in shown
    assert "## Keep" not in shown  # the heading is two lines from the change
    full = ok(root, "proposal", "show", pid, "--full").stdout
    assert "## Keep\n\n[-kept-]{+edited+} words\n" in full and "@@" not in full
    assert _status(root, pid)[0] == "open"
