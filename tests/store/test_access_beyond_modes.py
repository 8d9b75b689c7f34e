"""A file or folder this user owns, whose modes allow it already, that still cannot
be written (``chattr +i``, standing in for an ACL or a read-only share): no ``chmod``
or ``chown`` helps, and every door says the one advice of kernel/access.py
(``beyond_modes``), naming the folder and the file. Before: the store's opening said
"make the file and its directory writable (SQLite writes its journal beside it)",
naming neither; the audit log's gap "make … writable (a read-only mount or an
immutable file)"; the error boundary "make … writable (its mode allows it
already)", its folder alone: three wordings of one case."""

from __future__ import annotations

from pathlib import Path

import pytest

from forest_files.kernel.access import beyond_modes, denied_line
from tests.helpers.cli import console
from tests.helpers.custody import adopted_repo
from tests.helpers.git import write
from tests.helpers.immutable import immutable
from tests.helpers.state import shared_state

DOC = "# Doc\n\nThe sky is blue.\n"
WORDS = (
    "writable (their modes allow it already: an immutable flag, an ACL or a share its server "
    "keeps read-only"
)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return adopted_repo(tmp_path, "doc.md", DOC, name="my repo")


def test_store_open_beyond_modes_one_advice_refused(repo: Path) -> None:
    state = shared_state(repo)
    woods = state / "woods.db"
    with immutable(state):
        done = console(repo, "log")
    assert done.returncode == 1, done.stderr
    (line,) = done.stderr.splitlines()
    assert line == (
        f"forest: cannot open {woods}: unable to open database file; "
        f"{beyond_modes(str(woods))}, then run the command again"
    ), line
    assert f"make '{state}' and '{woods}' {WORDS} stops it)" in line, line


def test_audit_gap_beyond_modes_one_advice_detected(repo: Path) -> None:
    db = shared_state(repo) / "audit.db"
    write(repo, "doc.md", DOC.replace("blue", "green"))
    with immutable(db):
        done = console(repo, "restore", "doc.md")
    assert done.returncode == 0, done.stderr
    (line,) = [w for w in done.stderr.splitlines() if "audit log was not written" in w]
    assert line.endswith(f"what this command did stands — {beyond_modes(str(db))}"), line
    assert WORDS in line, line


def test_denied_line_beyond_modes_one_advice_detected(tmp_path: Path) -> None:
    """The error boundary's line (kernel/access.py ``denied_line``) for a real
    ``EPERM``: a file made in an immutable folder."""
    folder = tmp_path / "kept"
    folder.mkdir()
    target = folder / "new.txt"
    with immutable(folder), pytest.raises(PermissionError) as raised:
        target.write_text("x", encoding="utf-8")
    line = denied_line(raised.value)
    assert line == (
        f"cannot use {target} (Operation not permitted); {beyond_modes(str(target))}, "
        "then run the command again"
    ), line
    assert f"make {folder} {WORDS}" in line, line
