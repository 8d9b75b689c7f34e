"""``forest ci --base``: the range listed once, its commits in git's commit order.

The gate needs the range three ways: its commits in the order the report prints them
(``git rev-list``'s), each commit's parents (the graph the growth rule, the ledger
homes and the rebase routes walk) and each commit's author (forest.toml's
governance). One ``git log`` answers all three (judged_range.py ``_listed``); no
consumer walks the graph in its listing's order, so topological order is not asked
for. The report's commits stay in the order ``git rev-list --reverse`` gives, shown
over a range with a merge whose commits' dates disagree with their topology (a
commit dated before its parent), where topological order differs.
Counted from git's own trace (``GIT_TRACE``).

Test: forest_files/gate/judged_range.py (_listed), forest_files/gate/range.py
(check_range ``listed``), forest_files/gate/config_governance.py (governance_faults).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from forest_files import gitio
from forest_files.gate.ci import run_gate
from tests.helpers.custody import adopted_repo
from tests.helpers.git import git, write
from tests.helpers.gittrace import git_traced


def _commit(repo: Path, msg: str, day: int, *parents: str) -> str:
    """A commit dated ``day`` of January 2020 (author and committer alike)."""
    date = f"2020-01-{day:02d}T12:00:00+00:00"
    env = {"GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date}
    git(repo, "add", "-A")
    if parents:  # a merge: both sides' trees are the same here but for the index
        tree = git(repo, "write-tree").strip()
        args = [a for p in parents for a in ("-p", p)]
        made = git(repo, "commit-tree", tree, *args, "-m", msg, env=env).strip()
        git(repo, "reset", "-q", "--soft", made)
        return made
    git(repo, "commit", "-q", "--allow-empty", "-m", msg, env=env)
    return git(repo, "rev-parse", "HEAD").strip()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """main: the adoption (today). feat: f1 dated Jan 20, s1 on a side branch dated
    Jan 1 (older than the base), their merge dated Jan 5 (before its first parent), then
    f2 dated Jan 3: commit order and topological order disagree."""
    repo = adopted_repo(tmp_path, "docs/canon.md", "# Canon\n\nRules.\n")
    git(repo, "checkout", "-q", "-b", "feat")
    write(repo, "notes/f1.txt", "f1\n")
    f1 = _commit(repo, "f1", 20)
    git(repo, "checkout", "-q", "-b", "side", "main")
    write(repo, "notes/s1.txt", "s1\n")
    s1 = _commit(repo, "s1", 1)
    git(repo, "checkout", "-q", "feat")
    git(repo, "checkout", "-q", "side", "--", "notes/s1.txt")
    _commit(repo, "merge side", 5, f1, s1)
    write(repo, "notes/f2.txt", "f2\n")
    _commit(repo, "f2", 3)
    return repo


def test_ci_range_listed_once_commit_order_kept_accepted(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One listing of the range; the report's commits are ``git rev-list --reverse``'s,
    which here differ from topological order; the merge's parents are walked."""
    ordered = git(repo, "rev-list", "--reverse", "main..HEAD").split()
    topo = git(repo, "rev-list", "--reverse", "--topo-order", "main..HEAD").split()
    assert ordered != topo and sorted(ordered) == sorted(topo)  # the case is real
    gitio.forget_read_objects()
    trace = tmp_path / "trace.txt"
    with git_traced(monkeypatch, trace):
        report = run_gate(repo, "main")
    assert report.exit_code == 0, [r.finding.detail for r in report.findings]
    assert list(report.commits) == ordered
    assert report.as_dict()["range"]["commits"] == ordered  # type: ignore[index]
    lines = trace.read_text(encoding="utf-8").splitlines()
    listings = [line for line in lines if " rev-list " in line or " log " in line]
    assert len(listings) == 1, listings


def test_ci_range_listing_merge_deleting_ledger_file_detected(repo: Path) -> None:
    """The graph from the one listing still judges a merge against each parent: a
    segment the merge deletes is a ``ledger-deleted`` fault naming the merge."""
    segments = sorted((repo / ".forest" / "ledger" / "segments").iterdir())
    git(repo, "rm", "-q", "--", str(segments[0].relative_to(repo)))
    head = git(repo, "rev-parse", "HEAD").strip()
    side = git(repo, "rev-parse", "side").strip()
    merged = _commit(repo, "merge again", 6, head, side)
    report = run_gate(repo, "main")
    deleted = [r for r in report.findings if r.kind == "ledger-deleted"]
    assert deleted and all(merged[:12] in r.finding.detail for r in deleted)
    assert list(report.commits) == git(repo, "rev-list", "--reverse", "main..HEAD").split()
