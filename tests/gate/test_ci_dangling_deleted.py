"""A segment whose act depends on an act no commit holds, deleted by a commit on top
(``git rm`` committed, which the pre-commit hook accepts): ``forest ci``'s route takes
it out of the commit that added it, in one round.

The gate judged that deletion a ``ledger-deleted`` and put the files back from the
deleting commit's parent: the dangling segment again, whose own route then took it
out (a loop: put back, taken out). The deletion now gets the take-out of the
dependency held nowhere (gate/dangling.py ``deleted_dangling``, asked by
gate/deleted_added.py), its note saying the later deletion is then empty.

Real repositories, the hooks installed by ``forest hooks install``, the routes pasted
into bash.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from tests.check.test_dangling_take_out_hooked import _held_nowhere
from tests.gate.test_ci_dangling_dep import _ci, _gate_passes
from tests.helpers.git import git, pasted, pasted_under_hooks

pytestmark = pytest.mark.slow  # branches, hooks and rebases pasted, the gate after each


def test_ci_dangling_dep_deleted_on_top_one_take_out_pasted_under_hooks_recovers(
    tmp_path: Path,
) -> None:
    root, files = _held_nowhere(tmp_path)
    bad = git(root, "rev-parse", "HEAD")
    pasted_under_hooks(root, f"git rm -q -- {shlex.join(files)} && git commit -q -m 'drop it'")
    code, report = _ci(root)
    assert code == 3
    deleted = [f for f in report["findings"] if f["kind"] == "ledger-deleted"]
    assert sorted(f["path"] for f in deleted) == sorted(files), deleted
    routes = {r["command"] + r["note"] for f in deleted for r in f["routes"]}
    assert len(routes) == 1, routes  # one take-out for the segment and its bodies
    (route,) = deleted[0]["routes"]
    assert route["label"] == f"rewrite the branch: take the segment out of {bad[:12]}"
    assert "git checkout" not in route["command"] + route["note"]  # nothing put back
    assert "a later commit that deleted it is then empty: `git rebase --skip`" in route["note"]
    editor = f"sed -i 's/^pick {bad[:7]}/edit {bad[:7]}/'"
    pasted_under_hooks(root, f"GIT_SEQUENCE_EDITOR={shlex.quote(editor)} {route['command']}")
    (at_stop,) = [c for c in re.findall(r"`([^`]+)`", route["note"]) if c.startswith("git rm")]
    stopped = pasted(root, at_stop)  # the deletion, empty now, stops the rebase
    assert "commit refused" not in stopped.stderr
    pasted_under_hooks(root, "git rebase --skip")
    assert not (root / ".git" / "rebase-merge").exists()
    assert not git(root, "ls-tree", "-r", "--name-only", "HEAD", "--", *files)
    _gate_passes(root)
    assert git(root, "log", "--format=", "--name-only", "main..HEAD", "--", ".forest") == ""
