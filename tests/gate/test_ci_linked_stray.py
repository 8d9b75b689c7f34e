"""A symlink under .forest/ledger that a commit of the range added: ``forest ci`` judges it
as the stray it is, its route taking it out of the commit that added it, pasted where
the forest hooks are installed.

A link among the segments stopped the gate with the refusal of a ledger read
(custody/sources.py), whose advice (``git rm --cached``, "restore the ledger's file")
fits no link a branch added; removed on top, each commit still holding it stopped the
judge of that commit with the same words and no route, and a link named like a segment
was a ``ledger-deleted`` whose put-back brought it back. The link is never read
through: its target's words appear nowhere in the report.

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
from tests.helpers.cli import ok
from tests.helpers.custody import adopted_repo
from tests.helpers.git import git, pasted, pasted_under_hooks, write

pytestmark = pytest.mark.slow  # git runs the installed hooks on every commit

LEDGER = ".forest/ledger"
SECRET = "words-outside-the-repository"
NAMES = ["segments/" + "a" * 64 + ".jsonl", "segments/link.jsonl", "link.jsonl"]


def _linked_branch(tmp_path: Path, name: str) -> tuple[Path, str]:
    """A branch whose first commit adds a symlink ``name`` under the ledger, pointing
    outside the repository (committed without the hook, which refuses it)."""
    root = adopted_repo(tmp_path, "a.md", "# A\n\nfirst\n")
    ok(root, "hooks", "install")
    git(root, "checkout", "-q", "-b", "feature")
    outside = tmp_path / "outside.txt"
    outside.write_text(f"{SECRET}\n")
    os.symlink(outside, root / LEDGER / name)
    git(root, "add", "-A")
    git(root, "commit", "-q", "--no-verify", "-m", "a link in the ledger")
    return root, git(root, "rev-parse", "HEAD")


def _linked_findings(report: GateReport, rel: str) -> list[str]:
    assert not report.ok
    assert SECRET not in json.dumps(report.as_dict())  # never read through the link
    found = [f for f in report.check.extra if f.finding.path == rel]
    assert found, [(f.finding.path, f.finding.detail) for f in report.check.extra]
    assert all(f.finding.kind in ("ledger-fault", "ledger-deleted") for f in found)
    assert "restore the ledger's file" not in "".join(f.finding.detail for f in found)
    return sorted({r.command + "\0" + r.note + "\0" + r.label for f in found for r in f.routes})


@pytest.mark.parametrize("name", NAMES)
def test_ci_ledger_link_added_by_head_take_out_pasted_under_hooks_recovers(
    tmp_path: Path, name: str
) -> None:
    root, _ = _linked_branch(tmp_path, name)
    rel = f"{LEDGER}/{name}"
    (route,) = _linked_findings(run_gate(root, "main"), rel)
    command, _, label = route.split("\0")
    assert label == "take the link out of HEAD"
    pasted_under_hooks(root, command)
    assert run_gate(root, "main").ok
    assert git(root, "log", "--format=", "--name-only", "main..HEAD", "--", LEDGER) == ""
    assert (tmp_path / "outside.txt").read_text() == f"{SECRET}\n"  # the target untouched


@pytest.mark.parametrize("name", NAMES)
def test_ci_ledger_link_removed_on_top_take_out_pasted_under_hooks_recovers(
    tmp_path: Path, name: str
) -> None:
    """The old routes' leftover state: the link removed by a commit on top (which the
    hook accepts); the commit that added it is still in the range."""
    root, bad = _linked_branch(tmp_path, name)
    write(root, "b.md", "later work\n")
    git(root, "add", "--", "b.md")
    git(root, "commit", "-q", "--no-verify", "-m", "later work")  # the hook refuses the link
    pasted_under_hooks(root, f"git rm -q -- {LEDGER}/{name} && git commit -q -m 'drop the link'")
    (route,) = _linked_findings(run_gate(root, "main"), f"{LEDGER}/{name}")
    command, note, label = route.split("\0")
    assert label == f"rewrite the branch: take the link out of {bad[:12]}"
    assert "a later commit that deleted it is then empty: `git rebase --skip`" in note
    editor = f"sed -i 's/^pick {bad[:7]}/edit {bad[:7]}/'"
    pasted_under_hooks(root, f"GIT_SEQUENCE_EDITOR={shlex.quote(editor)} {command}")
    (at_stop,) = [c for c in re.findall(r"`([^`]+)`", note) if c.startswith("git rm")]
    stopped = pasted(root, at_stop)  # the removal on top, empty now, stops the rebase
    assert "commit refused" not in stopped.stderr
    pasted_under_hooks(root, "git rebase --skip")
    assert not (root / ".git" / "rebase-merge").exists()
    assert run_gate(root, "main").ok
    assert git(root, "log", "--format=", "--name-only", "main..HEAD", "--", LEDGER) == ""
