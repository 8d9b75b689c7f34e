"""A body file no act names that a commit of the range added: ``forest ci``'s route
takes it out of that commit, and pasted where the forest hooks are installed it passes.

The gate's route was ``git rm -- BODY`` committed on top: the pre-commit hook refused
the deletion (``ledger-deleted``), and past it the gate flagged the deletion as the
ledger shrinking, while the commit that added the body stayed in the range (a dead
end). The route now takes the body out of the commit that added it (an amend of HEAD,
or the same at a ``git rebase -i`` stopped there, as for a segment that does not
verify: gate/added_segment.py), and the hook accepts deleting a body whose hash no
segment's bytes hold, at HEAD or staged, and that no erase act names
(check/erasure_guard.py ``deleted_bodies``). A body a segment names, sound or
overwritten past the hooks, stays guarded.

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
from tests.helpers.ledger import hooked_repo, stray_body

pytestmark = pytest.mark.slow  # git runs the installed hooks on every commit

SEGMENTS = ".forest/ledger/segments"
BODIES = ".forest/ledger/bodies"


def _route(root: Path, rel: str) -> Route:
    report = run_gate(root, "main")
    assert not report.ok
    (route,) = {r for f in report.check.extra if f.finding.path == rel for r in f.routes}
    return route


def test_ci_unnamed_body_added_by_head_take_out_pasted_under_hooks_recovers(
    tmp_path: Path,
) -> None:
    root = hooked_repo(tmp_path)
    rel = stray_body(root)
    route = _route(root, rel)
    assert route.label == "take the body out of HEAD"
    pasted_under_hooks(root, route.command)
    assert run_gate(root, "main").ok
    assert git(root, "status", "--porcelain") == ""
    assert git(root, "diff", "--name-only", "main", "HEAD") == ""


def test_ci_unnamed_body_added_earlier_take_out_at_stop_pasted_under_hooks_recovers(
    tmp_path: Path,
) -> None:
    root = hooked_repo(tmp_path)
    rel = stray_body(root)
    bad = git(root, "rev-parse", "HEAD")
    write(root, "b.md", "later\n")
    commit_all(root, "later")
    route = _route(root, rel)
    assert route.label == f"rewrite the branch: take the body out of {bad[:12]}"
    editor = f"sed -i 's/^pick {bad[:7]}/edit {bad[:7]}/'"
    pasted_under_hooks(root, f"GIT_SEQUENCE_EDITOR={shlex.quote(editor)} {route.command}")
    (at_stop,) = [c for c in re.findall(r"`([^`]+)`", route.note) if c.startswith("git rm")]
    pasted_under_hooks(root, at_stop)
    assert not (root / ".git" / "rebase-merge").exists()
    assert run_gate(root, "main").ok
    assert git(root, "diff", "--name-only", "main", "HEAD") == "b.md"


def _named_body(root: Path) -> tuple[str, str]:
    """(the segment, one of its bodies) of b.md's adoption, committed through the hooks."""
    write(root, "b.md", "# B\n\nsecond\n")
    ok(root, "adopt", "b.md", "--words", "b canon")
    commit_all(root, "adopt b")
    added = git(root, "diff", "--name-only", "HEAD~1", "HEAD", "--", ".forest/ledger")
    (segment,) = [p for p in added.splitlines() if p.startswith(SEGMENTS)]
    body = next(p for p in added.splitlines() if p.startswith(BODIES))
    return segment, body


def _deletion_refused(root: Path, *paths: str) -> str:
    """``git rm`` of ``paths`` committed, refused by the hook: HEAD and every file kept;
    the hook's stderr."""
    head = git(root, "rev-parse", "HEAD")
    done = pasted(root, f"git rm -q -- {shlex.join(paths)} && git commit -q -m 'drop'")
    assert done.returncode != 0
    assert git(root, "rev-parse", "HEAD") == head
    git(root, "reset", "-q", "--hard")
    assert all((root / p).is_file() for p in paths)
    return done.stderr


def test_hook_deleting_body_a_sound_segment_names_refused(tmp_path: Path) -> None:
    root = hooked_repo(tmp_path)
    _, body = _named_body(root)
    said = _deletion_refused(root, body)
    assert f"body {body.rpartition('/')[2][:12]}" in said


@pytest.mark.parametrize("damage", ["truncated", "garbage-line"])
def test_hook_deleting_body_an_overwritten_segment_names_refused(
    tmp_path: Path, damage: str
) -> None:
    """The segment naming the body overwritten in place past the hooks, then deleted with
    the body: the hook lets the damaged segment go (removing garbage), but its bytes at
    HEAD still name the body, which the gate's put-back of that segment needs, so the
    body's deletion stays refused."""
    root = hooked_repo(tmp_path)
    segment, body = _named_body(root)
    data = (root / segment).read_bytes()
    data = data[:-2] if damage == "truncated" else b"not json\n" + data
    write(root, segment, data)
    git(root, "add", "--", segment)
    git(root, "commit", "-q", "--no-verify", "-m", "overwrite a segment")
    said = _deletion_refused(root, segment, body)
    assert f"ledger-deleted {body}" in said
    assert f"ledger-deleted {segment}" not in said
