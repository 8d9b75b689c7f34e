"""``forest init`` with no room for a file it writes says to free space, and leaves
every file as it was (custody/repo_init.py ``lay_out``).

A file-size limit in a child process alone (tests/helpers/fsize.py) below the size
of ``.forest/.gitignore`` (37 bytes), then of ``forest.toml`` (85 bytes), the first
init writes: the write fails with ``EFBIG``, as on a full disk or over a quota.
Before the fix the line said "make it writable, then run forest init again" (its
``--project-id`` dropped): ``chmod`` changes nothing on a full disk.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import pytest

from tests.helpers.cli import forest
from tests.helpers.fsize import limited
from tests.helpers.git import commit_all, make_repo, write

pytest.importorskip("resource")


def _tree(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".git" not in p.relative_to(root).parts[:1]
    }


@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE is POSIX")
@pytest.mark.parametrize(
    ("limit", "where", "options"),
    [(16, ".forest/.gitignore", ()), (80, "forest.toml", ("--project-id", "0123456789abcdef" * 2))],
)
def test_init_without_room_says_free_space_refused(
    tmp_path: Path, limit: int, where: str, options: tuple[str, ...]
) -> None:
    repo = make_repo(tmp_path)
    write(repo, "c.md", "# C\n")
    commit_all(repo, "base")
    before = _tree(repo)
    done = limited(repo, limit, "init", *options)
    assert done.returncode == 1, done.stderr
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"forest: {where} cannot be written ("), line
    assert line.endswith(
        "nothing was set up: free space (a full disk, a quota or a file-size limit), "
        f"then run `{' '.join(('forest', 'init', *options))}` again"
    ), line
    assert "writable" not in line, line
    assert _tree(repo) == before
    assert not (repo / ".forest").exists() and not (repo / "forest.toml").exists()
    assert forest(repo, "init", *options).exit_code == 0  # room again: init goes through
    assert forest(repo, "fsck").exit_code == 0
