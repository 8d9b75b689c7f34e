"""Every store open names its fix (kernel/access.py), as a user who is not root meets it
(tests/helpers/unprivileged.py): an index in a read-only ``.git/forest`` (the version
gate's first read, store/gate.py) and a read-only or root-owned index (the schema's
write, store/forest.py) are told the ``chmod``/``chown`` of that path, not "make the
file and its directory writable"; the fix, pasted, lets the door run."""

from __future__ import annotations

import os
import shlex
from pathlib import Path

import pytest

from tests.helpers.places import module_place
from tests.helpers.unprivileged import (
    as_root,
    handed_copy,
    run_as_user,
)

DOC = "# Doc\n\nThe sky is blue.\n"
DOORS = ("forest log doc.md", "forest verify", "forest adopt new.md --words 'a new doc'")


# A repository with doc.md adopted (in a folder the unprivileged user reaches), and the
# bin folder that user runs forest from.
place = module_place({"doc.md": DOC, "new.md": "# New\n\nA new doc.\n"}, "doc.md")


def _copy(base: Path, name: str) -> tuple[Path, Path]:
    repo = handed_copy(base, name)
    return repo, repo / ".git" / "forest"


def _refusals(repo: Path, bin_dir: Path) -> list[str]:
    """Each door's one line, after asserting it refused (exit 1, nothing else said)."""
    lines = []
    for command in DOORS:
        done = run_as_user(repo, command, bin_dir)
        assert done.returncode == 1, (command, done.stderr)
        [line] = done.stderr.strip().splitlines()
        assert "writable" not in line, (command, line)
        lines.append(line)
    return lines


def _fix(line: str) -> list[str]:
    """The command after the last ``; `` (or ``: ``) and before ``, then run``."""
    return shlex.split(line.split(", then run")[0].rsplit("; ", 1)[-1].rsplit(": ", 1)[-1])


def test_read_only_state_gate_names_chmod_refused(place: tuple[Path, Path]) -> None:
    """``.git/forest`` at ``0555``, its files ``0444`` (the version gate's first read
    cannot make the index's ``-shm``): each door names ``chmod -R u+rwX`` of the
    folder, which covers the index and every other file in it."""
    repo, state = _copy(place[0], "state-read-only")
    for path in [state, *state.rglob("*")]:
        path.chmod(0o555 if path.is_dir() else 0o444)
    for line in _refusals(repo, place[1]):
        assert _fix(line) == ["chmod", "-R", "u+rwX", str(state)], line


def test_read_only_index_schema_names_chmod_refused(place: tuple[Path, Path]) -> None:
    """``woods.db`` at ``0444`` in a writable folder (the schema's write refused): each
    door names ``chmod -R u+rwX`` of the folder (the index in it)."""
    repo, state = _copy(place[0], "index-read-only")
    (state / "woods.db").chmod(0o444)
    lines = _refusals(repo, place[1])
    for line in lines:
        assert _fix(line) == ["chmod", "-R", "u+rwX", str(state)], line
    fixed = run_as_user(repo, shlex.join(_fix(lines[-1])) + " && " + DOORS[0], place[1])
    assert fixed.returncode == 0, fixed.stderr


def test_read_only_index_journal_named_too_fixed(place: tuple[Path, Path]) -> None:
    """The first refused open leaves the index's ``-wal`` and ``-shm`` (SQLite gives them
    the index's ``0444``): the next line names the ``-wal``, and its ``chmod -R`` of
    the folder, pasted once, lets the door run (before: the index alone, refused again)."""
    repo, state = _copy(place[0], "index-read-only-journal")
    (state / "woods.db").chmod(0o444)
    _refusals(repo, place[1])  # each door refused once: the -wal and -shm are left
    left = [state / "woods.db-wal", state / "woods.db-shm"]
    assert all(oct(p.stat().st_mode & 0o777) == "0o444" for p in left), left
    [line, *_rest] = _refusals(repo, place[1])
    assert f"({left[0]} is read-only)" in line, line
    assert _fix(line) == ["chmod", "-R", "u+rwX", str(state)], line
    fixed = run_as_user(repo, shlex.join(_fix(line)) + " && " + DOORS[0], place[1])
    assert fixed.returncode == 0, fixed.stderr


def test_root_owned_index_schema_names_chown_refused(place: tuple[Path, Path]) -> None:
    """``woods.db`` left by ``sudo forest …`` (root's, ``0644``): each door names
    ``sudo chown -R "$(id -un)"`` of its folder, not a ``chmod`` that would fail."""
    if not as_root():
        pytest.skip("only root can give woods.db to root")
    repo, state = _copy(place[0], "index-root-owned")
    os.chown(state / "woods.db", 0, 0)
    for line in _refusals(repo, place[1]):
        assert _fix(line) == ["sudo", "chown", "-R", "$(id -un)", str(state)], line
