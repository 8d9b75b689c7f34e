"""A repository in a folder whose name is not UTF-8 (``caf$'\\351'``): each door reads
its own files there as it would anywhere.

SQLite hands a database's file name back as text, and the driver cannot decode a byte
that is not UTF-8; git's paths and ours keep such a byte as a surrogate
(surrogateescape). Real repositories under ``tmp_path / caf\\xe9``, the console script's
code path.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from forest_files.kernel.paths import WATCH_LOG
from forest_files.kernel.shellword import printable
from tests.helpers.cli import console
from tests.helpers.custody import BY, DOC, init_and_adopt
from tests.helpers.git import commit_all, git, make_repo, write
from tests.helpers.state import local_state

pytestmark = pytest.mark.slow  # a few processes

NAME = os.fsdecode(b"caf\xe9")  # the folder the repository lives in: not UTF-8
EDITED = DOC.replace("kept words", "edited words")


def _bound(tmp_path: Path) -> Path:
    """``a.md#Title/Keep`` adopted with the words "adopt" and committed, under ``caf\\xe9``."""
    root = make_repo(tmp_path, NAME)
    write(root, "a.md", DOC)
    init_and_adopt(root, ["a.md#Title/Keep"])
    commit_all(root, "adopt")
    return root


def test_check_repository_in_not_utf8_folder_adopter_detected(tmp_path: Path) -> None:
    """Every drift said "adopted by: unknown, …woods.db cannot be read (Could not decode
    to UTF-8 column 'file' …)", and ``check --staged`` (the hook's check) ended in an
    internal error: the index's file name was read back from SQLite as text. Both now
    name who adopted the ground, with their words, and print the routes."""
    root = _bound(tmp_path)
    write(root, "a.md", EDITED)
    checked = console(root, "check")
    assert checked.returncode == 1, (checked.stdout, checked.stderr)
    assert f"adopted by {BY}: “adopt”" in checked.stdout, checked.stdout
    assert "cannot be read" not in checked.stdout + checked.stderr
    git(root, "add", "a.md")
    staged = console(tmp_path, "-C", NAME, "check", "--staged")
    assert staged.returncode == 1, (staged.stdout, staged.stderr)
    assert "internal error" not in staged.stderr, staged.stderr
    assert f"adopted by {BY}: “adopt”" in staged.stdout, staged.stdout
    assert "restore ground: forest -C caf$'\\351' restore 'a.md#Title/Keep'" in staged.stdout


def test_watch_log_repository_in_not_utf8_folder_start_line_accepted(tmp_path: Path) -> None:
    """The watcher's first log line, ``watching <folder>``, was lost to a "--- Logging
    error ---" traceback (``UnicodeEncodeError … surrogates not allowed``) written into
    watch.log. The line is written now, the folder spelled as check spells names."""
    root = _bound(tmp_path)
    started = console(tmp_path, "-C", NAME, "watch", "--detach")
    assert started.returncode == 0, (started.stdout, started.stderr)
    stopped = console(tmp_path, "-C", NAME, "watch", "stop")
    assert stopped.returncode == 0, (stopped.stdout, stopped.stderr)
    said = (local_state(root) / WATCH_LOG).read_text(encoding="utf-8")
    assert "Logging error" not in said and "Traceback" not in said, said
    assert f"INFO watching {printable(str(root))} (" in said, said
    assert "caf\\xe9" in said, said
