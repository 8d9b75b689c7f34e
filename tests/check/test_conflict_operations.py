"""A contest left in conflict by a cherry-pick, a rebase, ``git am -3`` or a stash pop.

Two branches each supersede the same line of one bound section. Only a merge
(``MERGE_HEAD``) told which side of the conflict brought which head, so the route that
takes a side's file whole and keeps its head was offered there alone: stopped in a
cherry-pick, a rebase, ``git am -3`` or a ``git stash pop`` the contest got only the
two ``forest resolve`` routes, and either left the file in conflict. In a rebase
``--ours`` is HEAD, the base it replays onto, and ``--theirs`` the user's own commit.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, git, make_repo, pasted, write

RULES = "docs/a.md#A/Canon"
CANON = "# A\n\n## Canon\n\none\n\ntwo\n\nthree\n"
NO_EDITOR = {"GIT_EDITOR": "true"}


def _branches(tmp_path: Path) -> Path:
    """``Canon`` adopted on main, hooks installed; branches ``a`` and ``b`` each
    supersede its first line; ``b`` checked out."""
    from forest_files.doors import hooks as githooks

    root = make_repo(tmp_path)
    write(root, "docs/a.md", CANON)
    ok(root, "init")
    ok(root, "adopt", RULES, "--words", "The canon as agreed")
    commit_all(root, "adopt")
    githooks.install(root)
    for branch in ("a", "b"):
        git(root, "checkout", "-q", "-b", branch, "main")
        write(root, "docs/a.md", CANON.replace("\none\n", f"\none {branch}\n"))
        ok(root, "supersede", RULES, "--words", f"{branch} says so")
        commit_all(root, branch)
    return root


def _stash_pop(root: Path, tmp_path: Path) -> str:
    git(root, "checkout", "-q", "main")
    write(root, "docs/a.md", CANON.replace("\none\n", "\none s\n"))
    ok(root, "supersede", RULES, "--words", "s says so")
    git(root, "add", "-A")
    git(root, "stash", "-q")
    git(root, "merge", "-q", "--ff-only", "a")
    return "git stash pop"


def _am(root: Path, tmp_path: Path) -> str:
    git(root, "format-patch", "-q", "-1", "a", "-o", str(tmp_path / "patches"))
    return f"git am -3 {tmp_path / 'patches'}/*.patch"


# operation -> (how it starts, the text of the head its other side brings, how it ends)
OPERATIONS = {
    "cherry-pick": (lambda root, tmp: "git cherry-pick a", "one a", "git cherry-pick --continue"),
    "rebase": (lambda root, tmp: "git rebase a", "one b", "git rebase --continue"),
    "am": (_am, "one a", "git am --continue"),
    "stash-pop": (_stash_pop, "one s", "git commit -q -m kept"),
}


@pytest.mark.slow  # two branches, a conflicted operation, its side's route pasted
@pytest.mark.parametrize("operation", sorted(OPERATIONS))
def test_contest_conflict_of_operation_other_side_route_pasted_recovers(
    tmp_path: Path, operation: str
) -> None:
    root = _branches(tmp_path)
    start, text, finish = OPERATIONS[operation]
    assert pasted(root, start(root, tmp_path)).returncode != 0  # stopped in conflict
    assert git(root, "status", "--porcelain", "--", "docs/a.md") == "UU docs/a.md"
    shown = forest(root, "check", "--json")
    assert shown.exit_code == 1, shown.output
    (found,) = json.loads(shown.stdout)["findings"]
    assert found["kind"] == "contested", found
    (head,) = [h for h in found["candidates"] if f"\n{text}\n" in ok(root, "show", h).stdout]
    (route,) = [r for r in found["routes"] if r["label"].startswith(f"keep {head[:12]}'s text (")]
    assert route["command"].startswith("git checkout --theirs -- docs/a.md && git add -- ")
    assert f"--pick {head}" in route["command"], route
    done = pasted(root, route["command"].replace("'…'", f"'{text} is right'"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert forest(root, "check").exit_code == 0
    finished = pasted(root, finish, env=NO_EDITOR)  # through the installed hook
    assert finished.returncode == 0, finished.stdout + finished.stderr
    assert f"\n{text}\n" in (root / "docs/a.md").read_text()
    assert git(root, "status", "--porcelain", "--untracked-files=no") == ""
    assert forest(root, "check").exit_code == 0


@pytest.mark.slow  # a rebase stopped in conflict: HEAD is the base it replays onto
def test_contest_conflict_of_rebase_names_heads_side_as_base_detected(tmp_path: Path) -> None:
    root = _branches(tmp_path)
    assert pasted(root, "git rebase a").returncode != 0
    shown = forest(root, "check", "--json")
    (found,) = json.loads(shown.stdout)["findings"]
    labels = {r["label"]: r["command"] for r in found["routes"]}
    (ours,) = [c for label, c in labels.items() if "HEAD's side of the rebase, the base" in label]
    assert ours.startswith("git checkout --ours -- docs/a.md")
    (theirs,) = [c for label, c in labels.items() if "REBASE_HEAD's side of the rebase" in label]
    assert theirs.startswith("git checkout --theirs -- docs/a.md")


@pytest.mark.slow  # a merge and a cherry-pick in conflict, the markers staged, a route pasted
@pytest.mark.parametrize(
    ("start", "finish"),
    [
        ("git merge -q a", "git commit -q --no-edit"),
        ("git cherry-pick a", "git cherry-pick --continue"),
    ],
)
def test_contest_conflict_markers_staged_side_route_pasted_recovers(
    tmp_path: Path, start: str, finish: str
) -> None:
    """``git add`` of the file in conflict staged its markers and took git's stages:
    ``git checkout --ours``/``--theirs`` then read the staged file, markers and all, so
    no side route was offered and the file could only be resolved by hand. git's
    resolve-undo record keeps the sides: ``git checkout -m`` puts the conflict back."""
    root = _branches(tmp_path)
    assert pasted(root, start).returncode != 0
    git(root, "add", "--", "docs/a.md")  # the markers staged
    assert git(root, "status", "--porcelain", "--", "docs/a.md") == "M  docs/a.md"
    shown = forest(root, "check", "--json")
    (found,) = json.loads(shown.stdout)["findings"]
    (head,) = [h for h in found["candidates"] if "\none a\n" in ok(root, "show", h).stdout]
    (route,) = [r for r in found["routes"] if r["label"].startswith(f"keep {head[:12]}'s text (")]
    assert route["command"].startswith(
        "git checkout -m -- docs/a.md && git checkout --theirs -- docs/a.md && git add -- "
    ), route
    done = pasted(root, route["command"].replace("'…'", "'a is right'"))
    assert done.returncode == 0, done.stdout + done.stderr
    finished = pasted(root, finish, env=NO_EDITOR)  # through the installed hook
    assert finished.returncode == 0, finished.stdout + finished.stderr
    assert "\none a\n" in (root / "docs/a.md").read_text()
    assert git(root, "status", "--porcelain", "--untracked-files=no") == ""
    assert forest(root, "check").exit_code == 0
