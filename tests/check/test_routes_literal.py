"""Routes that name a path act on that one file, and never overwrite a user's edits.

git reads the paths after ``--`` as pathspecs: ``git add -- 'ch*.md'`` stages every
matching file and ``':!notes.md'`` every file but one, so a route naming such a path
runs with ``--literal-pathspecs`` (check/routes.py ``git_step``). A bound file only
the index lost (``git rm --cached``) is put back in the index, not checked out over
the work tree's edits.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from forest_files.kernel.shellword import git_step
from tests.helpers.cli import FOREST
from tests.helpers.custody import init_and_adopt
from tests.helpers.git import commit_all, git, git_env, make_repo, pasted, write


def staged_routes(root: Path) -> list[str]:
    env = {**os.environ, **git_env()}
    proc = subprocess.run(
        [FOREST, "check", "--staged", "--json"], cwd=root, env=env, capture_output=True, text=True
    )
    doc = json.loads(proc.stdout)
    return [r["command"] for f in doc["findings"] for r in f["routes"] if r.get("command")]


@pytest.mark.parametrize("name", ["ch*.md", ":!notes.md", "a[1].md"])
def test_route_with_pathspec_magic_stages_that_file_alone_refused(
    tmp_path: Path, name: str
) -> None:
    root = make_repo(tmp_path)
    write(root, name, "# N\n\nNote.\n")
    init_and_adopt(root, [name])
    commit_all(root, "adopt")
    write(root, ".env.local", "API_KEY=x\n")  # untracked: must stay out of every commit
    write(root, "ch9-draft.md", "draft\n")
    write(root, "a1.md", "other\n")
    write(root, name, "# N\n\nNote, drifted.\n")
    git(root, "--literal-pathspecs", "add", "--", name)
    restore = next(c for c in staged_routes(root) if c.startswith("forest restore"))
    assert "git --literal-pathspecs add --" in restore, restore
    assert pasted(root, restore).returncode == 0
    staged = git(root, "diff", "--cached", "--name-only", "-z").split("\0")
    untracked = git(root, "ls-files", "--others", "--exclude-standard", "-z").split("\0")
    assert {".env.local", "ch9-draft.md", "a1.md"} <= set(untracked), staged
    assert staged_routes(root) == []


def test_git_step_plain_path_unchanged_accepted() -> None:
    assert git_step("add", "--", "docs/a.md") == ("git", "add", "--", "docs/a.md")
    assert git_step("add", "--", "docs/*.md")[:2] == ("git", "--literal-pathspecs")


def test_unstaged_bound_file_route_keeps_worktree_edits_recovers(tmp_path: Path) -> None:
    """``git rm --cached`` of a bound file that holds edits: the hook's route puts HEAD's
    entry back in the index; the edits stay in the work tree, byte for byte."""
    root = make_repo(tmp_path)
    write(root, "note.md", "# Note\n\nground\n")
    init_and_adopt(root, ["note.md"])
    commit_all(root, "adopt")
    edited = "# Note\n\nground, with a morning's work\n"
    write(root, "note.md", edited)
    git(root, "rm", "-q", "--cached", "note.md")
    routes = staged_routes(root)
    assert routes and routes[0] == "git reset -q HEAD -- note.md", routes
    assert pasted(root, routes[0]).returncode == 0
    assert (root / "note.md").read_text() == edited
    assert git(root, "ls-files", "--", "note.md") == "note.md"
    assert staged_routes(root) == []
