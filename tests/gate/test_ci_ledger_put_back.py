"""``forest ci``: a ledger file a commit of the range deleted or changed gets the route
that puts it back, and that route, pasted into bash, clears the gate.

The gate judges each commit against its parents (gate/growth.py): a later commit
that puts the file back leaves the faulty commit in the range, so the route amends
HEAD when HEAD did it and rewrites the branch at that commit otherwise. HEAD's bodies
that no act names because their segment was deleted keep their finding but lose the
``git rm`` route, which would delete more of the ledger.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

from forest_files.check.findings import Reported, Route
from forest_files.custody.record import adopt_sections
from forest_files.custody.repository import Repository
from forest_files.custody.targets import read_section
from forest_files.gate.ci import run_gate
from forest_files.gate.render import render
from tests.gate.merging import break_after_merge, evil_merge
from tests.helpers.custody import BY, MAX, adopted_repo
from tests.helpers.git import commit_all, git, pasted, write


def _branch(tmp_path: Path) -> tuple[Path, str]:
    """main: a.md adopted; ``feature``: b.md adopted. Returns the root and the path of
    main's segment (no hooks: the removal goes in silently)."""
    root = adopted_repo(tmp_path, "a.md", "# A\n\nfirst\n")
    (segment,) = git(
        root, "ls-tree", "-r", "--name-only", "HEAD", ".forest/ledger/segments"
    ).splitlines()
    git(root, "checkout", "-q", "-b", "feature")
    write(root, "b.md", "# B\n\nsecond\n")
    with Repository(root) as repo:
        adopt_sections(repo, [read_section(root, "b.md", (), max_bytes=MAX)], words="b", by=BY)
    commit_all(root, "adopt b")
    return root, segment


def _put_back(findings: tuple[Reported, ...]) -> Route:
    """The one route every ledger-deleted finding of one commit carries."""
    (found,) = {r for f in findings if f.kind == "ledger-deleted" for r in f.routes}
    return found


def _paste(root: Path, command: str) -> None:
    done = pasted(root, command)
    assert done.returncode == 0, (command, done.stdout, done.stderr)


def test_ci_segment_deleted_by_head_put_back_route_recovers(tmp_path: Path) -> None:
    root, segment = _branch(tmp_path)
    git(root, "rm", "-q", "--", segment)
    git(root, "commit", "-q", "-m", "drop a segment")
    report = run_gate(root, "main")
    assert not report.ok
    route = _put_back(report.check.extra)
    assert route.label == "put the ledger files back in HEAD"
    assert route.steps[0][:3] == ("git", "checkout", git(root, "rev-parse", "HEAD~1"))
    strays = [f for f in report.check.extra if "no act names this body" in f.finding.detail]
    assert strays and all("git rm" not in (r.command or "") for f in strays for r in f.routes)
    _paste(root, route.command)
    assert run_gate(root, "main").ok


def test_ci_body_changed_by_head_put_back_route_recovers(tmp_path: Path) -> None:
    root, _ = _branch(tmp_path)
    bodies = git(root, "ls-tree", "-r", "--name-only", "HEAD", ".forest/ledger/bodies")
    body = bodies.splitlines()[0]
    write(root, body, "forged\n")
    commit_all(root, "edit a body")
    report = run_gate(root, "main")
    (found,) = [f for f in report.check.extra if f.kind == "ledger-rewritten"]
    (route,) = found.routes
    _paste(root, route.command)
    assert run_gate(root, "main").ok


def test_ci_segment_deleted_earlier_and_put_back_later_rewrite_route_recovers(
    tmp_path: Path,
) -> None:
    """Put back by a later commit, the removal still fails the gate at its commit: the
    route rewrites the branch there; pasted as its note says, the gate passes."""
    root, segment = _branch(tmp_path)
    git(root, "rm", "-q", "--", segment)
    git(root, "commit", "-q", "-m", "drop a segment")
    bad = git(root, "rev-parse", "HEAD")
    git(root, "checkout", "-q", "HEAD~1", "--", segment)
    git(root, "commit", "-q", "-m", "put it back")
    report = run_gate(root, "main")
    route = _put_back(report.check.extra)
    assert route.label == f"rewrite the branch: put them back in {bad[:12]}"
    assert route.steps == (("git", "rebase", "-i", report.merge_base),)
    assert "git push --force-with-lease" in route.note
    editor = f"sed -i 's/^pick {bad[:7]}/edit {bad[:7]}/'"
    _paste(root, f"GIT_SEQUENCE_EDITOR={shlex.quote(editor)} {route.command}")
    assert git(root, "rev-parse", "HEAD") == bad  # stopped there
    (at_stop,) = [c for c in re.findall(r"`([^`]+)`", route.note) if c.startswith("git checkout")]
    done = pasted(root, at_stop)
    if (root / ".git" / "rebase-merge").exists():  # the later commit became empty
        assert "git rebase --skip" in route.note
        _paste(root, "git rebase --skip")
    assert not (root / ".git" / "rebase-merge").exists(), done.stdout + done.stderr
    assert run_gate(root, "main").ok


def _at_break(root: Path, route: Route, merge: str, *, again: bool) -> None:
    """Paste the put-back route at a merge: the rebase with a ``break`` after the merge
    (as the note says, never ``edit``), then the note's commands at the break."""
    assert route.label == f"rewrite the branch: put them back in {merge[:12]}"
    assert route.steps[0][:4] == ("git", "rebase", "-i", "--rebase-merges")
    assert f"mark {merge[:12]} `edit`" not in route.note
    break_after_merge(root, route.command, route.note, merge, again=again)
    (at_stop,) = [c for c in re.findall(r"`([^`]+)`", route.note) if c.startswith("git checkout")]
    _paste(root, at_stop)
    assert not (root / ".git" / "rebase-merge").exists()
    assert git(root, "show", "-s", "--format=%s", "HEAD~1") == "merge side"


def test_ci_segment_deleted_by_merge_put_back_route_breaks_after_it_pasted_recovers(
    tmp_path: Path,
) -> None:
    """A merge that resolves a conflict and deletes a segment: it cannot be marked
    ``edit``; the route adds a ``break`` after its ``merge -C`` line and puts the
    segment back there; pasted, the gate passes and the merge is still a merge."""
    root, segment = _branch(tmp_path)
    merge = evil_merge(root, lambda: git(root, "rm", "-q", "--", segment))
    report = run_gate(root, "main")
    route = _put_back(report.check.extra)
    _at_break(root, route, merge, again=False)
    assert run_gate(root, "main").ok


def test_ci_body_changed_by_merge_made_again_put_back_route_pasted_recovers(
    tmp_path: Path,
) -> None:
    """The same for a body a merge changed, when a commit before the merge changes in
    the rebase: git merges again, stops on the conflict, resolved as it was; at the
    break the route puts the body back from the merge's old parent."""
    root, _ = _branch(tmp_path)
    body = git(root, "ls-tree", "-r", "--name-only", "HEAD", ".forest/ledger/bodies")
    merge = evil_merge(root, lambda: write(root, body.splitlines()[0], "forged\n"))
    report = run_gate(root, "main")
    (found,) = [f for f in report.check.extra if f.kind == "ledger-rewritten"]
    (route,) = found.routes
    _at_break(root, route, merge, again=True)
    assert run_gate(root, "main").ok


def test_ci_damaged_ledger_range_commits_listed_detected(tmp_path: Path) -> None:
    """A ledger too damaged to replay still reports the range's commits: the text line
    and JSON ``range.commits`` said ``0 commit(s)`` beside a finding naming one of them."""
    root, _ = _branch(tmp_path)
    body = git(root, "ls-tree", "-r", "--name-only", "HEAD", ".forest/ledger/bodies")
    write(root, body.splitlines()[0], "forged\n")
    commit_all(root, "edit a body")
    report = run_gate(root, "main")
    assert any(f.kind == "ledger-fault" for f in report.check.extra)
    listed = git(root, "rev-list", "--reverse", "main..HEAD").splitlines()
    assert list(report.commits) == listed and len(listed) == 2
    assert report.judged == ()


def test_ci_custody_deleted_whole_put_back_route_recovers(tmp_path: Path) -> None:
    """A branch that deletes forest.toml and the ledger (custody dropped, the push of
    it to main refused by the server hook the same way) is judged, not refused with
    ``forest init``: the deletion is a config-governance finding at forest.toml, each
    ledger file a ledger-deleted one, and the one put-back route brings all back."""
    root, _ = _branch(tmp_path)
    git(root, "rm", "-q", "-r", "--", "forest.toml", ".forest")
    git(root, "commit", "-q", "-m", "drop custody")
    report = run_gate(root, "main")
    assert report.exit_code == 3
    (config,) = [f for f in report.check.extra if f.kind == "config-governance"]
    assert config.finding.path == "forest.toml" and "deletes forest.toml" in config.finding.detail
    assert any(f.kind == "ledger-deleted" for f in report.check.extra)
    (route,) = config.routes
    assert route == _put_back(report.check.extra) and "forest.toml" in route.steps[0]
    _paste(root, route.command)
    assert run_gate(root, "main").ok


def test_ci_act_retimed_in_segment_cause_leads_detected(tmp_path: Path) -> None:
    """One act's created_at edited in a committed segment: the segment's name, the act's
    id and every act that depended on it all fault at HEAD. The report leads with the
    one cause (ledger-rewritten, its put-back route), each fault that follows from it
    right after, routed to it; JSON keeps every fault, and the route clears them all."""
    root, segment = _branch(tmp_path)
    path = root / segment
    lines = path.read_text(encoding="utf-8").splitlines()
    assert '"created_at":"' in lines[0]
    lines[0] = re.sub(r'"created_at":"\d{4}', '"created_at":"1999', lines[0], count=1)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    commit_all(root, "retime an act")
    report = run_gate(root, "main")
    cause, *rest = report.findings
    assert cause.kind == "ledger-rewritten" and cause.path == segment
    faults = [f for f in rest if f.kind == "ledger-fault"]
    assert len(faults) >= 2 and rest[: len(faults)] == faults  # each right after the cause
    assert all(r.label.startswith("follows from the ledger-rewritten") for f in faults
               for r in f.routes)  # fmt: skip
    text = render(report, "text")
    assert text.startswith(f"ledger-rewritten {segment}")
    kinds = [f["kind"] for f in json.loads(render(report, "json"))["findings"]]
    assert kinds.count("ledger-fault") == len(faults)
    (route,) = cause.routes
    _paste(root, route.command)
    assert run_gate(root, "main").ok
