"""``forest ci``'s route that takes a damaged segment out of the commit that added it,
pasted where the forest hooks are installed.

The route is ``git rm`` and an amend of that commit (HEAD, or the commit a ``git rebase
-i`` stopped at): the pre-commit hook judged the amend against HEAD, which holds the
segment, and refused it as ``ledger-deleted``, its own route putting the damaged
segment back, which the gate refuses again. A segment HEAD holds that does not verify
is no ledger file any door reads: taking it out is removing garbage
(check/erasure_guard.py), and a sound segment's deletion is still refused; when HEAD
recorded it (an amend dropping the user's own adoption), the refusal also routes
``git reset --soft HEAD~1``, which works pasted.

Real repositories, the hooks installed by ``forest hooks install``, the routes pasted
into bash.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from forest_files.check.findings import Route
from forest_files.gate.ci import run_gate
from tests.helpers.cli import ok
from tests.helpers.git import commit_all, git, pasted, pasted_under_hooks, write
from tests.helpers.ledger import committed_segment, hooked_repo

pytestmark = pytest.mark.slow  # git runs the installed hooks on every commit

SEGMENTS = ".forest/ledger/segments"
DAMAGED = {
    "old-format": (b'{"v":1}\n', None),
    "not-json": (b"not json\n", None),
    "misnamed": (b'{"v":1}\n', "0" * 64),
}


def _route(root: Path, rel: str) -> Route:
    report = run_gate(root, "main")
    assert report.exit_code == 3
    (route,) = {r for f in report.check.extra if f.finding.path == rel for r in f.routes}
    return route


@pytest.mark.parametrize("damage", sorted(DAMAGED))
def test_ci_segment_added_by_head_take_out_pasted_under_hooks_recovers(
    tmp_path: Path, damage: str
) -> None:
    root = hooked_repo(tmp_path)
    rel = committed_segment(root, *DAMAGED[damage])
    route = _route(root, rel)
    assert route.label == "take the segment out of HEAD"
    pasted_under_hooks(root, route.command)
    assert run_gate(root, "main").ok
    assert git(root, "status", "--porcelain") == ""


def test_ci_segment_added_earlier_take_out_at_stop_pasted_under_hooks_recovers(
    tmp_path: Path,
) -> None:
    root = hooked_repo(tmp_path)
    rel = committed_segment(root, *DAMAGED["not-json"])
    bad = git(root, "rev-parse", "HEAD")
    write(root, "b.md", "later\n")
    git(root, "add", "--", "b.md")
    git(root, "commit", "-q", "--no-verify", "-m", "later")  # the hook refuses its ledger
    route = _route(root, rel)
    editor = f"sed -i 's/^pick {bad[:7]}/edit {bad[:7]}/'"
    pasted_under_hooks(root, f"GIT_SEQUENCE_EDITOR={shlex.quote(editor)} {route.command}")
    (at_stop,) = [c for c in re.findall(r"`([^`]+)`", route.note) if c.startswith("git rm")]
    pasted_under_hooks(root, at_stop)
    assert not (root / ".git" / "rebase-merge").exists()
    assert run_gate(root, "main").ok


def test_hook_amend_deleting_sound_segment_head_added_refused(tmp_path: Path) -> None:
    """A sound segment HEAD added (an adoption) stays guarded: the hook cannot tell an
    amend from a commit on top, and an act would go."""
    root = hooked_repo(tmp_path)
    write(root, "b.md", "# B\n\nsecond\n")
    ok(root, "adopt", "b.md", "--words", "b canon")
    commit_all(root, "adopt b")
    (seg,) = git(root, "diff", "--name-only", "HEAD~1", "HEAD", "--", SEGMENTS).splitlines()
    head = git(root, "rev-parse", "HEAD")
    done = pasted(root, f"git rm -q -- {seg} && git commit --amend --no-edit --allow-empty")
    assert done.returncode != 0
    assert f"ledger-deleted {seg}" in done.stderr
    assert git(root, "rev-parse", "HEAD") == head


def test_hook_amend_dropping_own_adoption_undo_route_pasted_recovers(tmp_path: Path) -> None:
    """``git commit --amend`` that drops the adoption HEAD recorded: beside the put-back,
    the refusal routes ``git reset --soft HEAD~1`` (HEAD not yet pushed); pasted, the
    adoption is gone from the branch and the next commit passes the hook."""
    root = hooked_repo(tmp_path)
    write(root, "b.md", "# B\n\nsecond\n")
    ok(root, "adopt", "b.md", "--words", "b canon")
    commit_all(root, "adopt b")
    before = git(root, "rev-parse", "HEAD~1")
    ledger = git(root, "diff", "--name-only", "HEAD~1", "HEAD", "--", ".forest/ledger")
    files = shlex.join(ledger.splitlines())
    done = pasted(root, f"git rm -q -- {files} && git commit -q --amend --no-edit")
    assert done.returncode != 0
    (undo,) = [line for line in done.stderr.splitlines() if "git reset --soft" in line]
    assert "not yet pushed" in undo
    (command,) = re.findall(r"git reset --soft \S+", undo)  # as printed, pasted
    pasted_under_hooks(root, command)
    assert git(root, "rev-parse", "HEAD") == before
    pasted_under_hooks(root, "git commit -q -m 'b, not adopted'")
    assert git(root, "ls-tree", "-r", "--name-only", "HEAD", "--", SEGMENTS) == git(
        root, "ls-tree", "-r", "--name-only", "main", "--", SEGMENTS
    )
    assert run_gate(root, "main").ok
