"""A body file no act names deleted by a commit of the range: the gate judges it as the
pre-commit hook does, and its one route, pasted under the hooks, clears the gate.

A stray body the base brought kept the ``git rm`` ``forest ci`` printed for it: the
hook accepted the commit, then the gate refused the deletion as the ledger shrinking
and routed to putting the stray back (no way out). A stray body the range added and
a later commit deleted took two rounds: put back, then taken out. Now the gate lets
a stray the merge-base held go (no segment at the commit, its parent or the
merge-base names it: gate/unnamed_bodies.py), and one the range added is taken out
of the commit that added it in one route (gate/added_segment.py
``deleted_unnamed``). A body a segment names stays guarded, even when that segment
was deleted by an earlier commit.

Real repositories, the hooks installed by ``forest hooks install``, the routes pasted
into bash.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from forest_files.gate.ci import run_gate
from tests.helpers.git import commit_all, git, pasted, pasted_under_hooks, write
from tests.helpers.ledger import hooked_repo, stray_body

pytestmark = pytest.mark.slow  # git runs the installed hooks on every commit

BODIES = ".forest/ledger/bodies"


def test_ci_unnamed_body_added_then_deleted_one_take_out_pasted_under_hooks_recovers(
    tmp_path: Path,
) -> None:
    root = hooked_repo(tmp_path, None)
    git(root, "checkout", "-q", "-b", "feature")
    rel = stray_body(root)
    bad = git(root, "rev-parse", "HEAD")
    pasted_under_hooks(root, f"git rm -q -- {rel} && git commit -q -m 'drop the stray'")
    report = run_gate(root, "main")
    assert not report.ok
    at = [f for f in report.check.extra if f.finding.path == rel]
    assert [f.kind for f in at] == ["ledger-deleted"], at
    (route,) = at[0].routes
    assert route.label == f"rewrite the branch: take the body out of {bad[:12]}"
    assert "git checkout" not in route.command + route.note  # nothing put back
    assert "a later commit that deleted it is then empty: `git rebase --skip`" in route.note
    editor = f"sed -i 's/^pick {bad[:7]}/edit {bad[:7]}/'"
    pasted_under_hooks(root, f"GIT_SEQUENCE_EDITOR={shlex.quote(editor)} {route.command}")
    (at_stop,) = [c for c in re.findall(r"`([^`]+)`", route.note) if c.startswith("git rm")]
    stopped = pasted(root, at_stop)  # the deletion, empty now, stops the rebase
    assert "commit refused" not in stopped.stderr
    assert (root / ".git" / "rebase-merge").exists()
    pasted_under_hooks(root, "git rebase --skip")
    assert not (root / ".git" / "rebase-merge").exists()
    assert run_gate(root, "main").ok
    assert git(root, "log", "--format=", "--name-only", "main..HEAD") == ""  # no trace


def test_ci_unnamed_body_from_base_git_rm_pasted_under_hooks_recovers(tmp_path: Path) -> None:
    root = hooked_repo(tmp_path, None)
    rel = stray_body(root)  # on main: the base brings it
    git(root, "checkout", "-q", "-b", "feature")
    write(root, "b.md", "work\n")
    commit_all(root, "work")
    report = run_gate(root, "main")
    (found,) = [f for f in report.check.extra if f.finding.path == rel]
    (route,) = found.routes
    assert (
        route.command == f"git rm -- {rel} && git commit -m 'ledger: remove a stray file' -- {rel}"
    )
    pasted_under_hooks(root, route.command)
    assert run_gate(root, "main").ok


def test_ci_body_of_segment_deleted_earlier_then_deleted_detected(tmp_path: Path) -> None:
    """The segment naming a body deleted past the hooks, then the body under them (the
    hook sees no segment naming it any more): the gate still refuses both deletions,
    each put back in its own commit in one round."""
    root = hooked_repo(tmp_path, None)
    git(root, "checkout", "-q", "-b", "feature")
    files = git(root, "ls-files", "--", ".forest/ledger").splitlines()
    (segment,) = [p for p in files if "/segments/" in p]
    body = next(p for p in files if p.startswith(BODIES))
    git(root, "rm", "-q", "--", segment)
    git(root, "commit", "-q", "--no-verify", "-m", "the segment deleted")
    pasted_under_hooks(root, f"git rm -q -- {body} && git commit -q -m 'its body deleted'")
    report = run_gate(root, "main")
    deleted = {f.finding.path for f in report.check.extra if f.kind == "ledger-deleted"}
    assert {segment, body} <= deleted, report.check.extra
