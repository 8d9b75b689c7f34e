"""``forest ci``'s take-out of a segment whose act depends on an act no commit holds,
pasted where the forest hooks are installed: the amend (or the same at a ``git rebase
-i`` stop) is accepted, and the gate passes.

The route ``git rm``s the dependent segment, and the bodies only its acts name, in
the commit that added it (gate/dangling.py); the pre-commit hook refused that amend
as ``ledger-deleted`` (a sound segment HEAD holds), so the gate's own route was a dead
end under the hooks. The hook now lets go a segment HEAD added whose acts depend on
acts HEAD's ledger lacks, with the bodies only it names that HEAD added
(check/dangling_guard.py). A sound segment whose acts replay stays guarded, as does a
body another segment names.

Real repositories, the hooks installed by ``forest hooks install``, the routes pasted
into bash.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from tests.gate.test_ci_dangling_dep import _gate_passes, _refused, _segment_first, _split
from tests.helpers.cli import ok
from tests.helpers.git import commit_all, git, pasted, pasted_under_hooks, write

pytestmark = pytest.mark.slow  # branches, hooks and rebases pasted, the gate after each


def _held_nowhere(tmp_path: Path) -> tuple[Path, list[str]]:
    """``feature`` holding a segment copied alone past the hooks, whose act depends on
    one no ref reaches any more; the hooks installed. Returns the root and its files."""
    root, _, superseded = _split(tmp_path)
    ok(root, "hooks", "install")
    git(root, "branch", "-q", "-D", "rooted", "superseded")
    return root, superseded


def test_ci_dangling_dep_held_nowhere_take_out_of_head_pasted_under_hooks_recovers(
    tmp_path: Path,
) -> None:
    root, files = _held_nowhere(tmp_path)
    _, route = _refused(root)
    assert route["label"] == "take the segment out of HEAD"
    assert route["argv"][0] == ["git", "rm", "-q", "--", *_segment_first(files)]
    pasted_under_hooks(root, route["command"])
    assert not git(root, "ls-tree", "-r", "--name-only", "HEAD", "--", *files)
    _gate_passes(root)


def test_ci_dangling_dep_held_nowhere_take_out_at_stop_pasted_under_hooks_recovers(
    tmp_path: Path,
) -> None:
    root, files = _held_nowhere(tmp_path)
    bad = git(root, "rev-parse", "HEAD")
    write(root, "c.md", "later\n")
    commit_all(root, "later")
    _, route = _refused(root)
    assert route["label"] == f"rewrite the branch: take the segment out of {bad[:12]}"
    editor = f"sed -i 's/^pick {bad[:7]}/edit {bad[:7]}/'"
    pasted_under_hooks(root, f"GIT_SEQUENCE_EDITOR={shlex.quote(editor)} {route['command']}")
    (at_stop,) = [c for c in re.findall(r"`([^`]+)`", route["note"]) if c.startswith("git rm")]
    pasted_under_hooks(root, at_stop)
    assert not (root / ".git" / "rebase-merge").exists()
    assert not git(root, "ls-tree", "-r", "--name-only", "HEAD", "--", *files)
    _gate_passes(root)


def test_hook_deleting_sound_segment_head_added_whose_acts_replay_refused(
    tmp_path: Path,
) -> None:
    """The same amend of a segment whose acts all replay (the user's own adopt): still
    ``ledger-deleted``, HEAD unchanged."""
    root, _, _ = _split(tmp_path)
    ok(root, "hooks", "install")
    git(root, "checkout", "-q", "-b", "own", "main")
    write(root, "c.md", "# C\n\nthird\n")
    ok(root, "adopt", "c.md", "--words", "c canon")
    commit_all(root, "adopt c")
    head = git(root, "rev-parse", "HEAD")
    added = git(root, "diff", "--name-only", "HEAD~1", "HEAD", "--", ".forest/ledger")
    done = pasted(
        root, f"git rm -q -- {shlex.join(added.split())} && git commit -q --amend --no-edit"
    )
    assert done.returncode != 0 and "ledger-deleted" in done.stderr
    assert git(root, "rev-parse", "HEAD") == head
