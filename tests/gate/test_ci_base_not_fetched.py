"""``forest ci --base origin/main`` in a clone that never fetched main (``git clone
--depth 1 --branch feat``, or ``--single-branch``): the refusal says the branch is
not in this clone and prints the fetch that brings it (``--unshallow`` too when
the clone is shallow, or the merge-base would be missing next); pasted, the gate
runs. A name that is no such remote branch keeps the shallow hint, worded
without "merge-base"."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from forest_files import gitio
from tests.helpers.cli import forest
from tests.helpers.custody import feature_upstream
from tests.helpers.git import git, pasted


def _route(text: str) -> str:
    found = re.search(r"fetch it: `([^`]+)`", text)
    assert found, text
    return found.group(1)


@pytest.mark.parametrize(
    ("how", "fetch"),
    [
        (("--depth", "1"), "git fetch --unshallow origin main:refs/remotes/origin/main"),
        (("--single-branch",), "git fetch origin main:refs/remotes/origin/main"),
    ],
    ids=["depth-1", "single-branch"],
)
def test_ci_base_branch_never_fetched_route_pasted_recovers(
    tmp_path: Path, how: tuple[str, ...], fetch: str
) -> None:
    up = feature_upstream(tmp_path)
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", *how, "--branch", "feat", f"file://{up}", str(clone))
    assert gitio.is_shallow(clone) == ("--depth" in how)
    result = forest(clone, "ci", "--base", "origin/main")
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.splitlines()
    assert "never fetched branch 'main' of remote 'origin'" in line, line
    assert "merge-base" not in line, line
    assert _route(line) == fetch
    done = pasted(clone, fetch)
    assert done.returncode == 0, done.stderr
    ran = forest(clone, "ci", "--base", "origin/main")
    assert ran.exit_code == 0, ran.output


def test_shallow_clone_unknown_name_hint_without_merge_base_detected(tmp_path: Path) -> None:
    """Not REMOTE/BRANCH of a remote here (or not a branch name): no fetch route,
    the shallow hint worded for a commit, not a merge-base."""
    up = feature_upstream(tmp_path)
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "1", "--branch", "feat", f"file://{up}", str(clone))
    for name in ("nope", "upstream/main", "origin/main~2"):
        with pytest.raises(gitio.UnknownRef) as caught:
            gitio.resolve_commit(clone, name)
        text = str(caught.value)
        assert "shallow, so that commit may not be in it" in text, text
        assert "merge-base" not in text and "fetch it:" not in text, text
