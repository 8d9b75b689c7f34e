"""A symlink under .forest/ledger that the base already held (committed on main past the
hooks by someone else): ``forest ci --base main`` on a branch forked after it gives it a
route that works pasted, with the forest hooks installed.

Before, no commit of the range added the link, so it got no take-out: HEAD's stray
route removed it in a commit on top, after which every earlier commit of the branch
still held it and was refused with no route at all (and a link named like a segment,
removed, was a ``ledger-deleted`` whose put-back brought the link back). Now the
link is taken out of the branch's first commit, so no commit of the branch holds it;
the deletion of a link the base held is removing garbage, not the ledger shrinking.

Real repositories, the hooks installed by ``forest hooks install``, the routes pasted
into bash.
"""

from __future__ import annotations

import json
import os
import re
import shlex
from pathlib import Path

import pytest

from forest_files.gate.ci import GateReport, run_gate
from tests.helpers.git import git, pasted, pasted_under_hooks, write
from tests.helpers.ledger import hooked_repo

pytestmark = pytest.mark.slow  # git runs the installed hooks on every commit

LEDGER = ".forest/ledger"
SECRET = "words-outside-the-repository"
NAMES = ["segments/" + "a" * 64 + ".jsonl", "segments/link.jsonl", "link.jsonl"]


def _on_base(tmp_path: Path, name: str) -> tuple[Path, str]:
    """main holding a link ``name`` under the ledger (committed past the hook), then a
    branch with two commits of work (past the hook, which refuses the ledger's link).
    Returns the repository and the branch's first commit."""
    root = hooked_repo(tmp_path, branch=None)
    outside = tmp_path / "outside.txt"
    outside.write_text(f"{SECRET}\n")
    os.symlink(outside, root / LEDGER / name)
    git(root, "add", "-A")
    git(root, "commit", "-q", "--no-verify", "-m", "someone's link in the ledger")
    git(root, "checkout", "-q", "-b", "feature")
    first = ""
    for n in (1, 2):
        write(root, f"work{n}.md", f"work {n}\n")
        git(root, "add", "--", f"work{n}.md")
        git(root, "commit", "-q", "--no-verify", "-m", f"work {n}")
        first = first or git(root, "rev-parse", "HEAD")
    return root, first


def _route(report: GateReport, rel: str) -> tuple[str, str, str]:
    assert not report.ok
    assert SECRET not in json.dumps(report.as_dict())  # never read through the link
    found = [f for f in report.check.extra if f.finding.path == rel]
    routes = {(r.command, r.note, r.label) for f in found for r in f.routes}
    assert len(routes) == 1, [(f.finding.detail, f.routes) for f in report.check.extra]
    (route,) = routes
    return route


def _paste_rebase(root: Path, first: str, command: str, note: str) -> None:
    """The rebase route pasted: marked ``edit`` at ``first``, its steps run there, and
    a commit left empty skipped, as its note says."""
    editor = f"sed -i 's/^pick {first[:7]}/edit {first[:7]}/'"
    pasted_under_hooks(root, f"GIT_SEQUENCE_EDITOR={shlex.quote(editor)} {command}")
    (at_stop,) = [c for c in re.findall(r"`([^`]+)`", note) if c.startswith("git rm")]
    stopped = pasted(root, at_stop)
    assert "commit refused" not in stopped.stderr, stopped.stderr
    if (root / ".git" / "rebase-merge").exists():
        pasted_under_hooks(root, "git rebase --skip")
    assert not (root / ".git" / "rebase-merge").exists()


def _branch_clean(root: Path, tmp_path: Path) -> None:
    assert run_gate(root, "main").ok
    for commit in git(root, "rev-list", "main..HEAD").splitlines():  # HEAD's too
        modes = git(root, "ls-tree", "-r", commit, "--", LEDGER)
        assert "120000" not in modes, (commit, modes)
    assert (root / "work1.md").read_text() == "work 1\n"  # the work kept
    assert (tmp_path / "outside.txt").read_text() == f"{SECRET}\n"  # the target untouched


@pytest.mark.parametrize("name", NAMES)
def test_ci_ledger_link_on_base_take_out_pasted_under_hooks_recovers(
    tmp_path: Path, name: str
) -> None:
    root, first = _on_base(tmp_path, name)
    command, note, label = _route(run_gate(root, "main"), f"{LEDGER}/{name}")
    _paste_rebase(root, first, command, note)
    _branch_clean(root, tmp_path)
    assert label == f"rewrite the branch: take the link out of {first[:12]}"
    assert "the base holds it" in note


def test_ci_ledger_link_on_base_removed_on_top_pasted_under_hooks_recovers(
    tmp_path: Path,
) -> None:
    """The working tree's stray route (the link removed in a commit on top, which the
    hook accepts): the gate then routes the branch's commits still holding it."""
    name = NAMES[0]
    root, first = _on_base(tmp_path, name)
    pasted_under_hooks(root, f"git rm -q -- {LEDGER}/{name} && git commit -q -m 'drop the link'")
    command, note, label = _route(run_gate(root, "main"), f"{LEDGER}/{name}")
    assert label == f"rewrite the branch: take the link out of {first[:12]}"
    assert "a later commit that deleted it is then empty: `git rebase --skip`" in note
    _paste_rebase(root, first, command, note)
    _branch_clean(root, tmp_path)
