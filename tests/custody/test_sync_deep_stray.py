"""A stray folder under the ledger nested deeper than Python's recursion limit.

Every command's sync walks a folder the ledger has no use for whole, to refuse a
symlink anywhere under it (custody/sync.py ``_refuse_links``). A pulled tree of
1,100 nested folders (2,200 characters of path: well within what git and the file
system take) made that walk recurse past Python's limit: every command, `forest
status` included, ended in an internal error with a crash log. The walk keeps a list
of folders still to list now: the stray is left to `forest verify` to name, and a
link at its bottom is refused in the one line a link anywhere in the ledger gets.
"""

from __future__ import annotations

import os
from pathlib import Path

from tests.helpers.custody import adopted_repo
from tests.helpers.git import pasted

DEPTH = 1_100  # past sys.getrecursionlimit() (1,000)


def _deep(root: Path) -> Path:
    """The deepest folder of ``.forest/ledger/x/x/…`` (``DEPTH`` levels), made one
    level at a time (``os.makedirs`` and ``shutil.rmtree`` recurse a level each)."""
    at = root / ".forest" / "ledger"
    for _ in range(DEPTH):
        at = at / "x"
        at.mkdir()
    return at


def _remove(root: Path) -> None:
    """The deep folders taken out bottom up (pytest's clean-up recurses too)."""
    at = root / ".forest" / "ledger" / os.path.join(*["x"] * DEPTH)
    for _ in range(DEPTH):
        for entry in at.iterdir():
            entry.unlink()
        at.rmdir()
        at = at.parent


def test_sync_stray_folder_deeper_than_recursion_limit_accepted(tmp_path: Path) -> None:
    root = adopted_repo(tmp_path, "a.md", "# A\n\nfirst\n")
    (_deep(root) / "note.txt").write_text("stray\n")
    done = pasted(root, "forest status")
    verified = pasted(root, "forest verify")
    _remove(root)
    assert "internal error" not in verified.stderr, verified.stderr
    assert done.returncode == 0, (done.stdout, done.stderr)
    assert "internal error" not in done.stderr, done.stderr


def test_sync_link_at_the_bottom_of_a_deep_stray_folder_refused(tmp_path: Path) -> None:
    root = adopted_repo(tmp_path, "a.md", "# A\n\nfirst\n")
    outside = tmp_path / "outside.txt"
    outside.write_text("words outside\n")
    os.symlink(outside, _deep(root) / "link")
    done = pasted(root, "forest status")
    _remove(root)
    assert done.returncode == 3 and done.stdout == "", (done.stdout, done.stderr)
    (line,) = done.stderr.strip().splitlines()
    assert "internal error" not in line and "/x/link is a symlink" in line, line
    assert outside.read_text() == "words outside\n"
