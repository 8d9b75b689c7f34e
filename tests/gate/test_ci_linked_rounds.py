"""Symlinks under .forest/ledger added by several commits of a branch (each its own
link, or links in one folder the ledger has no use for, or one the base held beside
one the branch added), committed past the hooks: ``forest ci --base main`` gives one
route, and pasted in the order it is printed, with the forest hooks installed, the
gate passes in one round.

Before, each commit got its own ``git rebase -i`` route: pasting the first rewrote
every later commit, so the second route's ``mark COMMIT `edit``` named a commit no
longer on the branch (and a folder taken out of its oldest commit came back with the
later commit's link): a second round of ``forest ci`` for each. A link the base held
on a branch merging two lines forked from the base was not taken out at all (no one
first commit): removed on top, each line's commits still held it, refused with no route.

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

from forest_files.gate.ci import run_gate
from tests.helpers.git import git, pasted, pasted_under_hooks, write
from tests.helpers.ledger import hooked_repo, link_set_aside

pytestmark = pytest.mark.slow  # git runs the installed hooks on every commit

LEDGER = ".forest/ledger"
SECRET = "words-outside-the-repository"
_STOP = re.compile(r"mark ([0-9a-f]{12}) `edit`; when the rebase stops there: `([^`]+)`")
# What each commit of the branch adds (a link under the ledger, or work); "main:"
# links are committed on main before the branch forks.
STORIES = {
    "each-its-link": ["link1.jsonl", "", "segments/link2.jsonl", ""],
    "one-folder": ["other/a", "", "other/b", ""],
    "base-and-branch": ["main:link0.jsonl", "", "link1.jsonl", ""],
}


def _story(tmp_path: Path, adds: list[str]) -> Path:
    root = hooked_repo(tmp_path, branch=None)
    outside = tmp_path / "outside.txt"
    outside.write_text(f"{SECRET}\n")
    for n, add in enumerate(adds):
        if add.startswith("main:"):
            add = add.removeprefix("main:")
        elif git(root, "branch", "--show-current") == "main":
            git(root, "checkout", "-q", "-b", "feature")
        if add:
            (root / LEDGER / add).parent.mkdir(exist_ok=True)
            os.symlink(outside, root / LEDGER / add)
        else:
            write(root, f"work{n}.md", f"work {n}\n")
        git(root, "add", "-A")
        git(root, "commit", "-q", "--no-verify", "-m", f"commit {n}")
    return root


def _paste(root: Path, command: str, note: str) -> None:
    """A rebase route pasted: every commit it names marked ``edit`` in the one list,
    at each stop the steps the note gives that commit."""
    stops = dict(_STOP.findall(note))
    assert len(stops) >= 2, note
    marks = "; ".join(f"s/^pick {c[:7]}/edit {c[:7]}/" for c in stops)
    pasted_under_hooks(root, f"GIT_SEQUENCE_EDITOR={shlex.quote(f'sed -i {marks!r}')} {command}")
    done = root / ".git" / "rebase-merge" / "done"
    while done.exists():
        stopped = done.read_text().splitlines()[-1].split()[1]
        at = [steps for c, steps in stops.items() if stopped.startswith(c)]
        if not at:  # a later commit left empty, as the note says
            assert "then empty: `git rebase --skip`" in note, note
            pasted_under_hooks(root, "git rebase --skip")
            continue
        went = pasted(root, at[0])  # its `git rebase --continue` may stop at an empty one
        assert "commit refused" not in went.stderr, went.stderr
        stops = {c: s for c, s in stops.items() if not stopped.startswith(c)}
    assert not stops, stops  # it stopped at every commit it named


@pytest.mark.parametrize("story", sorted(STORIES))
def test_ci_ledger_links_of_several_commits_one_route_pasted_under_hooks_recovers(
    tmp_path: Path, story: str
) -> None:
    root = _story(tmp_path, STORIES[story])
    report = run_gate(root, "main")
    assert not report.ok
    assert SECRET not in json.dumps(report.as_dict())
    routes = {(r.command, r.note) for f in report.check.extra for r in f.routes}
    assert len(routes) == 1, routes  # one round: one route for every link
    for command, note in routes:  # in the order printed
        _paste(root, command, note)
    assert run_gate(root, "main").ok
    for commit in git(root, "rev-list", "main..HEAD").splitlines():
        assert "120000" not in git(root, "ls-tree", "-r", commit, "--", LEDGER), commit
    assert sorted(p.name for p in root.glob("work*.md")) == ["work1.md", "work3.md"]
    assert (tmp_path / "outside.txt").read_text() == f"{SECRET}\n"


def _merged_lines(tmp_path: Path, *, adopting: bool) -> Path:
    """main holding a link (committed past the hooks); a branch merging two lines
    forked from main, one commit each (past the hooks); ``adopting``: line a's commit
    adopts a file too, so the gate judges a commit holding the link."""
    root = _story(tmp_path, ["main:link.jsonl"])
    for line in ("a", "b"):
        git(root, "checkout", "-q", "-b", line, "main")
        write(root, f"{line}.txt", f"{line}\n")
        if adopting and line == "a":
            write(root, "c.md", "# C\n\nthird\n")
            with link_set_aside(root, f"{LEDGER}/link.jsonl"):  # every command refuses it
                adopted = pasted(root, "forest adopt c.md --words 'c words'")
            assert adopted.returncode == 0, adopted.stderr
        git(root, "add", "-A")
        git(root, "commit", "-q", "--no-verify", "-m", f"line {line}")
    git(root, "checkout", "-q", "-b", "feature", "a")
    git(root, "merge", "-q", "--no-verify", "--no-edit", "b")
    return root


@pytest.mark.parametrize("adopting", [False, True], ids=["work", "adopting"])
def test_ci_ledger_link_on_base_merged_lines_one_route_pasted_under_hooks_recovers(
    tmp_path: Path, adopting: bool
) -> None:
    """A branch of two lines forked from a main holding a link, merged: the link is
    taken out of each line's first commit by one route. With a line that adopts, the
    link first removed on top (the removal every door gives a link in the work tree),
    the same one route (before: the lines' commits still held the link, and the gate
    refused them with no route at all)."""
    root = _merged_lines(tmp_path, adopting=adopting)
    if adopting:
        pasted_under_hooks(root, f"git rm -q -f -- {LEDGER}/link.jsonl && git commit -q -m drop")
    report = run_gate(root, "main")
    assert not report.ok
    routes = {(r.command, r.note) for f in report.check.extra for r in f.routes}
    assert len(routes) == 1, [(f.finding.detail, f.routes) for f in report.check.extra]
    ((command, note),) = routes
    assert "--rebase-merges" in command
    _paste(root, command, note)
    assert run_gate(root, "main").ok
    for commit in git(root, "rev-list", "main..HEAD").splitlines():
        assert "120000" not in git(root, "ls-tree", "-r", commit, "--", LEDGER), commit
    assert (root / "a.txt").exists() and (root / "b.txt").exists()
