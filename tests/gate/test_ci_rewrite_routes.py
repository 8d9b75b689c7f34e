"""``forest ci``: a finding a commit of the range made is cleared only by rewriting
that commit (or amending HEAD, when HEAD made it); the routes say so and, pasted
into bash, clear the gate."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from forest_files.check.findings import Reported, Route
from forest_files.gate.ci import run_gate
from tests.gate.merging import break_after_merge, evil_merge
from tests.helpers.custody import adopted_repo, supersede_as_it_stands
from tests.helpers.git import commit_all, git, pasted, write

# The slow lane (.ci/run runs it; the README's fast command leaves it out):
# rebases pasted with GIT_SEQUENCE_EDITOR, the gate run after each.
pytestmark = pytest.mark.slow

DOC = "docs/a.md"


def _branch(tmp_path: Path) -> Path:
    """main: docs/a.md adopted whole; HEAD on ``feature``. No hooks: edits go in silently."""
    root = adopted_repo(tmp_path, DOC, "# A\n\nfirst\n")
    git(root, "checkout", "-q", "-b", "feature")
    return root


def _route(r: Reported, label: str) -> Route:
    (found,) = [x for x in r.routes if x.label.startswith(label)]
    return found


def _quoted(note: str, start: str) -> str:
    """The one command in backquotes in ``note`` that starts with ``start``."""
    (found,) = [c for c in re.findall(r"`([^`]+)`", note) if c.startswith(start)]
    return found


def _paste(root: Path, command: str) -> None:
    done = pasted(root, command.replace("'…'", "'why it is right'"))
    assert done.returncode == 0, (command, done.stdout, done.stderr)


def _rebase_stopping_at(root: Path, route: Route, commit: str) -> None:
    """Paste the route's rebase with the todo edited as the note says (mark ``edit``)."""
    short = commit[:7]
    editor = f"sed -i 's/^pick {short}/edit {short}/'"
    _paste(root, f"GIT_SEQUENCE_EDITOR={shlex.quote(editor)} {route.command}")
    assert git(root, "rev-parse", "HEAD") == commit  # stopped there


def test_ci_drift_from_earlier_commit_rewrite_route_recovers(tmp_path: Path) -> None:
    """An edit committed silently, then an unrelated commit: HEAD's restore and
    supersede say they cannot clear the gate alone, and the rewrite route, pasted,
    does."""
    root = _branch(tmp_path)
    write(root, DOC, "# A\n\nsecond\n")
    bad = commit_all(root, "silent edit")
    write(root, "notes.txt", "later\n")
    commit_all(root, "unrelated")
    report = run_gate(root, "main")
    (found,) = report.findings
    assert found.introduced == bad and found.commit is None
    for label in ("restore ground", "adopt the change"):
        note = _route(found, label).note
        assert "alone this cannot clear the gate" in note and bad[:12] in note
    rewrite = _route(found, f"rewrite the branch: record the act in {bad[:12]}")
    assert rewrite.steps == (("git", "rebase", "-i", report.merge_base),)
    assert "git push --force-with-lease" in rewrite.note
    _rebase_stopping_at(root, rewrite, bad)
    _paste(root, _quoted(rewrite.note, "forest supersede"))
    assert run_gate(root, "main").ok
    assert git(root, "show", "-s", "--format=%s", "HEAD~1") == "silent edit"  # the act in it


def test_ci_drift_made_by_head_amend_route_recovers(tmp_path: Path) -> None:
    """HEAD made the edit: a commit on top would leave HEAD's edit in the range, so
    HEAD's routes amend HEAD; pasted, the gate passes with one commit in the range."""
    root = _branch(tmp_path)
    write(root, DOC, "# A\n\nsecond\n")
    commit_all(root, "silent edit")
    (found,) = run_gate(root, "main").findings
    adopt = _route(found, "adopt the change in HEAD")
    assert adopt.steps[-1] == ("git", "commit", "--amend", "--no-edit")
    assert "alone this cannot" not in adopt.note and "force push" in adopt.note
    _paste(root, adopt.command)
    assert run_gate(root, "main").ok
    assert git(root, "rev-list", "--count", "main..HEAD") == "1"


@pytest.mark.parametrize(
    ("change", "kind", "label"),
    [
        ("mv", "moved", "move the binding in HEAD"),
        ("mv", "moved", "or end the binding in HEAD"),
        ("rm", "missing", "bring the file back in HEAD"),
        ("rm", "missing", "or end the binding in HEAD"),
    ],
)
def test_ci_file_renamed_by_head_amend_route_recovers(
    tmp_path: Path, change: str, kind: str, label: str
) -> None:
    """HEAD renamed (or deleted) a bound file without recording it: the finding's
    routes amend HEAD as a drift's do. They were the check's own (``forest rebind …
    && git add``), and the commit they led to, on top, left HEAD's change in the
    range: the gate failed again at the commit the route was meant to fix. Bringing
    the file back empties a HEAD that only deleted it: the amend allows that."""
    root = _branch(tmp_path)
    git(root, "mv", DOC, "docs/b.md") if change == "mv" else git(root, "rm", "-q", DOC)
    commit_all(root, "renamed" if change == "mv" else "deleted")
    (found,) = run_gate(root, "main").findings
    assert found.kind == kind
    route = _route(found, label)
    assert route.steps[-1] == ("git", "commit", "--amend", "--no-edit", "--allow-empty")
    assert "force push" in route.note
    _paste(root, route.command)
    assert run_gate(root, "main").ok
    assert git(root, "rev-list", "--count", "main..HEAD") == "1"


def _rebased_contest(tmp_path: Path) -> Path:
    """A branch that superseded a bound file, rebased (no pre-commit hook) onto a main
    that superseded the same ground elsewhere in it: HEAD's ledger holds both
    successors, and the file both edits."""
    root = adopted_repo(tmp_path, DOC, "# A\n\none\n\ntwo\n\nthree\n")
    git(root, "checkout", "-q", "-b", "feature")
    write(root, DOC, "# A\n\none\n\ntwo\n\nTHREE\n")
    supersede_as_it_stands(root, DOC, words="feature")
    commit_all(root, "feature: superseded")
    git(root, "checkout", "-q", "main")
    write(root, DOC, "# A\n\nONE\n\ntwo\n\nthree\n")
    supersede_as_it_stands(root, DOC, words="main")
    commit_all(root, "main: superseded")
    git(root, "checkout", "-q", "feature")
    git(root, "rebase", "-q", "main")
    return root


def test_ci_contest_brought_by_head_rebase_amend_route_recovers(tmp_path: Path) -> None:
    """HEAD's ledger brought the contest. Its routes were the check's (``forest resolve
    … && git add``); the commit they led to, on top, left HEAD contested in the range
    and the gate failed again. Each amends HEAD as a drift's does; the merged text's,
    pasted, clears it."""
    root = _rebased_contest(tmp_path)
    (found,) = run_gate(root, "main").findings
    assert (found.kind, found.commit, found.introduced) == ("contested", None, None)
    assert len(found.routes) == 3  # a route per head, and the merged text's
    amend = ("git", "commit", "--amend", "--no-edit", "--allow-empty")
    assert all(x.steps[-1] == amend and "force push" in x.note for x in found.routes)
    _paste(root, _route(found, "or keep the text the file holds now").command)
    assert run_gate(root, "main").ok
    assert git(root, "rev-list", "--count", "main..HEAD") == "1"


def test_ci_contest_resolved_on_top_named_as_contest_detected(tmp_path: Path) -> None:
    """The contest resolved in a commit on top: the gate reports it at the commit that
    brought it, saying that commit's ledger holds both successors (it said the section
    was changed there without its supersession, which the commit had recorded)."""
    root = _rebased_contest(tmp_path)
    brought = git(root, "rev-parse", "HEAD")
    (found,) = run_gate(root, "main").findings
    on_top = _route(found, "or keep the text the file holds now").command
    _paste(root, on_top.removesuffix(" && git commit --amend --no-edit --allow-empty"))
    commit_all(root, "resolved on top")
    (left,) = run_gate(root, "main").findings
    assert (left.kind, left.commit) == ("contested", brought)
    assert not any("without its supersession" in h for h in left.hints), left.hints
    assert any("both successors" in h and brought[:12] in h for h in left.hints), left.hints


def test_ci_drift_undone_in_head_amend_route_recovers(tmp_path: Path) -> None:
    """HEAD holds nothing but the edit: restoring it in HEAD leaves HEAD empty, and
    the route still amends (an empty commit changes nothing the gate judges)."""
    root = _branch(tmp_path)
    write(root, DOC, "# A\n\nsecond\n")
    commit_all(root, "silent edit")
    (found,) = run_gate(root, "main").findings
    _paste(root, _route(found, "restore ground in HEAD").command)
    assert run_gate(root, "main").ok


def test_ci_drift_edited_again_at_head_both_routes_recover(tmp_path: Path) -> None:
    """A silent edit, then HEAD edits the same text again (another section hash: two
    findings). HEAD's amend routes name the earlier commit they cannot clear; its
    rewrite route, then HEAD's amend route, pasted in turn, clear the gate."""
    root = _branch(tmp_path)
    write(root, DOC, "# A\n\nsecond\n")
    bad = commit_all(root, "silent edit")
    write(root, DOC, "# A\n\nthird\n")
    commit_all(root, "silent again")
    report = run_gate(root, "main")
    at_head, earlier = sorted(report.findings, key=lambda r: r.commit is not None)
    assert earlier.commit == bad and at_head.commit is None
    adopt = _route(at_head, "adopt the change in HEAD")
    assert "alone this cannot clear the gate" in adopt.note and bad[:12] in adopt.note
    assert [r.label for r in earlier.routes] == [
        f"rewrite the branch: record the act in {bad[:12]}",
        f"or rewrite it: take the edit out of {bad[:12]}",
    ]
    rewrite = earlier.routes[0]
    _rebase_stopping_at(root, rewrite, bad)
    _paste(root, _quoted(rewrite.note, "forest supersede"))
    (left,) = run_gate(root, "main").findings  # HEAD's edit, against the new ground
    assert left.commit is None and left.introduced is None
    _paste(root, _route(left, "adopt the change in HEAD").command)
    assert run_gate(root, "main").ok


def test_ci_drift_reverted_later_take_out_route_recovers(tmp_path: Path) -> None:
    """An edit, then a commit that undid it (HEAD clean): the history finding's route
    that takes the edit out, pasted as its note says, clears the gate."""
    root = _branch(tmp_path)
    write(root, DOC, "# A\n\nsecond\n")
    bad = commit_all(root, "silent edit")
    write(root, DOC, "# A\n\nfirst\n")
    commit_all(root, "undo it")
    (found,) = run_gate(root, "main").findings
    assert found.commit == bad
    undo = _route(found, f"or rewrite it: take the edit out of {bad[:12]}")
    _rebase_stopping_at(root, undo, bad)
    at_stop = _quoted(undo.note, "forest restore")
    assert at_stop.endswith("git commit --amend --no-edit --allow-empty && git rebase --continue")
    emptied = pasted(root, at_stop)  # the undoing commit is empty now: git stops there
    assert emptied.returncode != 0 and "git rebase --skip" in undo.note
    _paste(root, "git rebase --skip")
    assert run_gate(root, "main").ok


def _evil_merge(tmp_path: Path) -> tuple[Path, str]:
    """The merge that resolves a conflict on notes.txt also edits the adopted docs/a.md,
    silently; a commit on top."""
    root = _branch(tmp_path)
    return root, evil_merge(root, lambda: write(root, DOC, "# A\n\nresolved otherwise\n"))


def _rebase_breaking_after_merge(
    root: Path, route: Route, merge: str, *, again: bool = False
) -> None:
    break_after_merge(root, route.command, route.note, merge, again=again)


def test_ci_drift_in_merge_record_route_breaks_after_it_pasted_recovers(tmp_path: Path) -> None:
    """A merge cannot be marked ``edit`` (``--rebase-merges`` lists it as ``merge -C``
    and merges again): the route says to add a ``break`` after it; pasted, with the
    conflict resolved as before, the act lands in the merge and the gate passes."""
    root, merge = _evil_merge(tmp_path)
    (found,) = run_gate(root, "main").findings
    assert found.introduced == merge
    record = _route(found, f"rewrite the branch: record the act in {merge[:12]}")
    assert record.steps[0][:4] == ("git", "rebase", "-i", "--rebase-merges")
    assert f"mark {merge[:12]} `edit`" not in record.note
    _rebase_breaking_after_merge(root, record, merge)
    _paste(root, _quoted(record.note, "forest supersede"))
    assert run_gate(root, "main").ok
    assert git(root, "show", "-s", "--format=%s", "HEAD~1") == "merge side"


def test_ci_drift_in_merge_made_again_record_route_pasted_recovers(tmp_path: Path) -> None:
    """The same when a commit before the merge changes in the rebase: git merges
    again and stops on the conflict; resolved as it was, the break stops after it."""
    root, merge = _evil_merge(tmp_path)
    (found,) = run_gate(root, "main").findings
    record = _route(found, f"rewrite the branch: record the act in {merge[:12]}")
    _rebase_breaking_after_merge(root, record, merge, again=True)
    _paste(root, _quoted(record.note, "forest supersede"))
    assert run_gate(root, "main").ok


def test_ci_drift_in_merge_undo_route_never_drops_it_pasted_recovers(tmp_path: Path) -> None:
    """Dropping a merge would drop its side too: the undo route breaks after it and
    restores there; pasted, the gate passes and side's commit is still merged."""
    root, merge = _evil_merge(tmp_path)
    (found,) = run_gate(root, "main").findings
    undo = _route(found, f"or rewrite it: take the edit out of {merge[:12]}")
    assert "`drop`" not in undo.note
    _rebase_breaking_after_merge(root, undo, merge, again=True)
    _paste(root, _quoted(undo.note, "forest restore"))
    assert run_gate(root, "main").ok
    assert "side notes" in git(root, "log", "--format=%s", "main..HEAD").splitlines()
