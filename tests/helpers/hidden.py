"""A bound section that excludes a part, a block left open in it over the next heading:
the repository the hidden-heading tests of check/ and custody/ share, built once per
worker process for each block and copied (``helpers.template.reused``)."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.cli import ok
from tests.helpers.git import commit_all, make_repo, write
from tests.helpers.template import reused

CUT = "# A\n\ntext a\n\n## sub\n\ns\n\n# B\n\nb\n"


def cut_open(root: Path, opened: str = "```\n", *, bound_b: bool = True) -> Path:
    """f.md (``CUT``) with A bound (``--exclude '#sub'``), B too if ``bound_b``, both
    committed, then ``opened`` (a block's first line) typed into A and left open: at
    ``root / "repo"``, a private copy."""
    key = ("cut_open", opened, bound_b)
    return reused(key, root / "repo", lambda home: _cut_open(home, opened, bound_b))


def _cut_open(root: Path, opened: str, bound_b: bool) -> Path:
    repo = make_repo(root)
    ok(repo, "init")
    write(repo, "f.md", CUT)
    commit_all(repo, "init")
    ok(repo, "adopt", "f.md#A", "--exclude", "#sub", "--words", "kept")
    if bound_b:
        ok(repo, "adopt", "f.md#B", "--words", "kept")
    commit_all(repo, "adopt")
    write(repo, "f.md", CUT.replace("text a\n", f"text a\n{opened}"))
    return repo
