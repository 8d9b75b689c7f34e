"""A symlink under .forest/ledger that the base already held (committed on main past the
hooks by someone else): ``forest ci --base main`` on a branch forked after it gives it a
route that works pasted, with the forest hooks installed.

Before, no commit of the range added the link, so it got no take-out: HEAD's stray
route removed it in a commit on top, after which every earlier commit of the branch
still held it and was refused with no route at all (and a link named like a segment,
removed, was a ``ledger-deleted`` whose put-back brought the link back). Now the
link is taken out of the branch's first commit, so no commit of the branch holds it;
the deletion of a link the base held is removing garbage, not the ledger shrinking.
On a branch whose commits change the ledger (adopt, erase), the first run stopped with
the strict read of HEAD's bodies' refusal (a removal on top), the take-out only the
run after it: now the first run gives the take-out.

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
from tests.helpers.ledger import hooked_repo, link_set_aside

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


# What each commit of the branch does to the ledger (past the hook): adopt a file, or
# supersede it and forget (an erase act) the text it was adopted with.
BRANCHES = {"adopt": ["adopt"], "adopt-adopt": ["adopt", "adopt"], "erase": ["adopt", "forget"]}


def _changing_ledger(tmp_path: Path, steps: list[str]) -> tuple[Path, str]:
    """main holding a link (committed past the hook), then a straight branch each of
    whose commits changes the ledger (``steps``: BRANCHES). Returns the repository and
    the branch's first commit."""
    root, _ = _on_base(tmp_path, "link.jsonl")
    git(root, "reset", "-q", "--hard", "main")
    first = ""
    for n, step in enumerate(steps):
        with link_set_aside(root, f"{LEDGER}/link.jsonl"):  # every command refuses it
            if step == "adopt":
                write(root, f"doc{n}.md", f"# Doc {n}\n\nkey={n}\n")
                ran = pasted(root, f"forest adopt doc{n}.md --words 'doc {n}'")
            else:
                write(root, "doc0.md", "# Doc 0\n\nkey=none\n")
                ran = pasted(root, "forest supersede doc0.md --words 'the key out'")
                chain = json.loads(pasted(root, "forest log doc0.md --json").stdout)["chain"]
                ran = pasted(root, f"forest forget {chain[0]['content_id']} --words 'a key'")
            assert ran.returncode == 0, ran.stderr
        git(root, "add", "-A")
        git(root, "commit", "-q", "--no-verify", "-m", f"{step} {n}")
        first = first or git(root, "rev-parse", "HEAD")
    return root, first


@pytest.mark.parametrize("branch", sorted(BRANCHES))
def test_ci_ledger_link_on_base_branch_changing_ledger_take_out_first_run_recovers(
    tmp_path: Path, branch: str
) -> None:
    """A straight branch whose commits adopt (or erase): the first ``forest ci`` gives
    the take-out (before: the strict read of HEAD's bodies, for their sizes or an erase
    act's tombstones, stopped it with the removal on top, whose commit left the
    branch's earlier commits holding the link; only the run after that gave the
    take-out)."""
    root, first = _changing_ledger(tmp_path, BRANCHES[branch])
    ran = pasted(root, "forest ci --base main --format json")
    assert ran.returncode == 3, ran.stderr  # a ledger-fault, as every stray's
    assert "symlink in the ledger" not in ran.stderr  # the strict read's refusal
    assert SECRET not in ran.stdout
    (finding,) = json.loads(ran.stdout)["findings"]
    assert finding["kind"] == "ledger-fault" and finding["path"] == f"{LEDGER}/link.jsonl"
    (route,) = finding["routes"]
    assert "the base holds it" in route["note"]
    if len(BRANCHES[branch]) == 1:
        pasted_under_hooks(root, route["command"])
    else:
        _paste_rebase(root, first, route["command"], route["note"])
    again = pasted(root, "forest ci --base main")
    assert again.returncode == 0, (again.stdout, again.stderr)
    for commit in git(root, "rev-list", "main..HEAD").splitlines():
        assert "120000" not in git(root, "ls-tree", "-r", commit, "--", LEDGER), commit
    assert (root / "doc0.md").exists()
