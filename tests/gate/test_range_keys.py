"""A range's commits keyed, and their segments found, in one ``git cat-file``.

``forest ci --base`` judges each commit of the range before HEAD by its own ledger
(gate/history.py ``judge_history``): it asked git whether each commit holds a
segments folder (one ``cat-file --batch-check``) and for each commit's id, ledger
tree and forest.toml (one ``rev-parse``, all or nothing: a commit without a ledger
or forest.toml emptied it, and every commit was then keyed by a ``rev-parse`` of its
own). Now one ``cat-file --batch-check`` asks four names a commit
(custody/viewkey.py ``range_keys``), each commit answered alone, with the ids and
answers the two calls gave: a commit whose segments folder is gone, one with no
ledger, one with no forest.toml, a root commit with and without a ledger. Processes
are counted from git's own trace (``GIT_TRACE``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from forest_files import gitio
from forest_files.custody.viewkey import head_custody, range_keys
from forest_files.kernel.errors import ForestError
from tests.gate.test_ci_git_calls import _build, _traced
from tests.helpers.git import commit_all, git, write
from tests.helpers.template import reused

SEGMENTS = ".forest/ledger/segments"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return reused((__name__, "repo"), tmp_path / "repo", _build)


def _head(repo: Path) -> str:
    return git(repo, "rev-parse", "HEAD").strip()


def _odd_commits(repo: Path) -> dict[str, str]:
    """Commits a range may hold, by what is odd about them."""
    made = {"whole": _head(repo)}
    git(repo, "rm", "-rq", SEGMENTS)  # the ledger folder kept: its bodies
    commit_all(repo, "segments gone")
    made["no-segments"] = _head(repo)
    git(repo, "rm", "-rq", ".forest/ledger")
    commit_all(repo, "ledger gone")
    made["no-ledger"] = _head(repo)
    git(repo, "checkout", "-q", made["whole"], "--", ".forest")
    git(repo, "rm", "-q", "forest.toml")
    commit_all(repo, "config gone")
    made["no-config"] = _head(repo)
    git(repo, "checkout", "-q", "--orphan", "rooted", made["whole"])
    commit_all(repo, "a root with a ledger")
    made["root-ledger"] = _head(repo)
    git(repo, "checkout", "-q", "--orphan", "bare")
    git(repo, "rm", "-rqf", ".")
    write(repo, "only.txt", "nothing of forest here\n")
    commit_all(repo, "a root with nothing")
    made["root-bare"] = _head(repo)
    return made


def test_range_keys_answer_as_rev_parse_and_trees_exist_accepted(repo: Path) -> None:
    """Each commit's key is ``head_custody``'s for it alone (none where it lacks a
    ledger or forest.toml), and whether it holds segments is ``trees_exist``'s; a
    commit that has no key does not take the others' with it."""
    made = _odd_commits(repo)
    commits = list(made.values())
    for root in ("root-ledger", "root-bare"):  # no parent
        assert git(repo, "rev-list", "--parents", "-1", made[root]).split() == [made[root]]
    ranged = range_keys(repo, commits, SEGMENTS)
    assert ranged.holds == gitio.trees_exist(repo, commits, SEGMENTS)
    for commit in commits:
        assert ranged.keys.get(commit) == head_custody(repo, commit), commit
    for odd in ("no-ledger", "no-config", "root-bare"):
        assert made[odd] not in ranged.keys
    for kept in ("whole", "no-segments", "root-ledger"):
        assert made[kept] in ranged.keys
    assert ranged.holds[made["whole"]] and ranged.holds[made["root-ledger"]]
    assert not any(ranged.holds[made[o]] for o in ("no-segments", "no-ledger", "root-bare"))
    nothing = range_keys(repo, [made["whole"], "no-such-branch"], SEGMENTS)
    assert nothing.keys == {made["whole"]: head_custody(repo, made["whole"])}
    assert nothing.holds == {made["whole"]: True, "no-such-branch": False}
    assert range_keys(repo, [], SEGMENTS) == ({}, {})


def test_range_keys_option_or_newline_refused(repo: Path) -> None:
    """A revision read as an option, or one that would be two lines of the request,
    is refused before git is asked anything."""
    head = _head(repo)
    for bad in ("--output=x", f"{head}\n{head}:forest.toml", ""):
        with pytest.raises(ForestError):
            range_keys(repo, [head, bad], SEGMENTS)
    assert not (repo / "x").exists()
    with pytest.raises(ValueError):
        gitio.objects_at(repo, [f"{head}\n{head}"])


def test_ci_range_keyed_and_its_segments_asked_in_one_process_accepted(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``forest ci --base main`` over four commits: no ``rev-parse`` names a commit of
    the range before HEAD; one ``cat-file --batch-check`` asks their keys and their
    segments (a second process, a ``rev-parse`` of the range, did before)."""
    before = git(repo, "rev-list", "main..HEAD~1").split()
    lines = _traced(repo, tmp_path / "trace.txt", monkeypatch)
    parsed = [line for line in lines if " rev-parse " in line and any(c in line for c in before)]
    assert parsed == []
    checked = [line for line in lines if line.endswith(" cat-file --batch-check")]
    assert len(checked) == 1, checked
