"""A partial clone (``git clone --filter=blob:none``) fetches a blob it lacks from its
promisor remote when a door reads it; with that remote out of reach the refusal is one
line that says so and what to do (gitio/_run.py). Before: "git cat-file failed: fatal:
'…' does not appear to be a git repository fatal: Could not read from remote
repository. … fatal: could not fetch X from promisor remote", git's three lines run
together, naming no cause a user could act on."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, git, make_repo, write


def test_partial_clone_promisor_out_of_reach_refused(tmp_path: Path) -> None:
    origin = make_repo(tmp_path, "origin")
    git(origin, "config", "uploadpack.allowFilter", "true")
    ok(origin, "init")
    write(origin, "c.md", "# C\n\n## A\n\nfirst\n")
    commit_all(origin, "start")
    ok(origin, "adopt", "c.md#C/A", "--words", "first")
    commit_all(origin, "adopt")
    write(origin, "c.md", "# C\n\n## A\n\nsecond\n")
    ok(origin, "supersede", "c.md#C/A", "--words", "second")
    commit_all(origin, "second")
    git(tmp_path, "clone", "-q", "--filter=blob:none", f"file://{origin}", "partial")
    clone = tmp_path / "partial"
    origin.rename(tmp_path / "gone")
    assert forest(clone, "check").exit_code == 0  # HEAD's blobs came with the clone
    done = forest(clone, "check", "--rev", "HEAD~1")
    assert done.exit_code != 0
    (line,) = done.stderr.splitlines()
    assert line.startswith("forest: ") and "partial clone" in line, line
    assert "promisor remote" in line and "origin" in line, line
