"""The binding history read in a ``.git/forest`` this user may not write (``0555``), as a
user who is not root meets it (tests/helpers/unprivileged.py).

A chapter cut into another file with one subsection renamed, the chapter's rebind
pasted first: the subsection's place is found in the binding history of the index
(check/move_rebound.py), read through ``Custody.reader`` (check/opened.py). The index
is a WAL file; closed cleanly it has no ``-wal`` or ``-shm`` beside it, and a reader in
a folder it may not write cannot make the ``-shm``. Before, that reader read nothing
and said nothing: ``forest check`` offered the subsection no place, no rebind route and
no adopter. Now a closed file is read as immutable (store/localdb.py ``read_local``'s
rule) and the check says what it says with a writable folder; a file with a ``-wal``
beside it (a writer may have left rows there) is refused in one line with the fix.
"""

from __future__ import annotations

import hashlib
import json
import shlex
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from forest_files.check.findings import WORDS_PLACEHOLDER
from tests.helpers.chapter import BOOK, CHAPTER, LEFT, MOVED, SUB_A
from tests.helpers.cli import ok
from tests.helpers.git import commit_all, isolate, make_repo, pasted, write
from tests.helpers.unprivileged import (
    hand_over,
    handed_copy,
    open_folder,
    run_as_user,
    unprivileged_bin,
)

PLACE = "b.md#Vol/Chapter/Sub Alpha"


@pytest.fixture(scope="module")
def place() -> Iterator[tuple[Path, Path]]:
    """The chapter moved and its rebind pasted (not committed), in a folder the
    unprivileged user reaches, and the bin folder that user runs forest from."""
    with open_folder() as folder, pytest.MonkeyPatch.context() as patch:
        isolate(patch)
        bin_dir = unprivileged_bin(folder)
        root = make_repo(folder, "base")
        ok(root, "init")
        write(root, "a.md", BOOK)
        commit_all(root, "files")
        ok(root, "adopt", CHAPTER, SUB_A, "a.md#Book/Chapter/Sub B", "--words", "as it stands")
        commit_all(root, "adopt")
        write(root, "a.md", LEFT)
        write(root, "b.md", MOVED)
        found = json.loads(pasted(root, "forest check --json").stdout)["findings"]
        (chapter,) = [f for f in found if f["selector"] == CHAPTER]
        route = next(r["command"] for r in chapter["routes"] if "rebind" in (r["command"] or ""))
        done = pasted(root, route.replace(shlex.quote(WORDS_PLACEHOLDER), shlex.quote("moved")))
        assert done.returncode == 0, done.stdout + done.stderr
        yield root, bin_dir


def _subsection(repo: Path, bin_dir: Path) -> dict[str, Any]:
    done = run_as_user(repo, "forest check --json", bin_dir)
    assert done.returncode == 1, done.stdout + done.stderr
    (one,) = [f for f in json.loads(done.stdout)["findings"] if f["selector"] == SUB_A]
    return {k: one[k] for k in ("kind", "candidates", "adopted_by", "hints", "routes")}


def _closed(state: Path) -> None:
    """The index closed as a writer closes it: its ``-wal`` and ``-shm`` gone."""
    conn = sqlite3.connect(str(state / "woods.db"))
    conn.execute("SELECT 1 FROM sqlite_master").fetchall()
    conn.close()
    assert not (state / "woods.db-shm").exists()


def _snapshot(state: Path) -> dict[str, str]:
    """The files of the read-only folder itself (its ``cache`` stays writable)."""
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in state.iterdir() if p.is_file()
    }


def test_rebound_place_read_only_state_folder_detected(place: tuple[Path, Path]) -> None:
    base, bin_dir = place
    repo = handed_copy(base, "read-only")
    state = repo / ".git" / "forest"
    writable = _subsection(repo, bin_dir)  # the binding map saved for the next check
    assert writable["candidates"] == [PLACE], writable
    _closed(state)
    hand_over(state)
    state.chmod(0o555)
    try:
        assert _subsection(repo, bin_dir) == writable
    finally:
        state.chmod(0o755)


def test_rebound_place_read_only_state_folder_log_beside_refused(
    place: tuple[Path, Path],
) -> None:
    base, bin_dir = place
    repo = handed_copy(base, "log-beside")
    state = repo / ".git" / "forest"
    assert run_as_user(repo, "forest check --json", bin_dir).returncode == 1
    _closed(state)
    (state / "woods.db-wal").write_bytes(b"")  # a writer's log, its rows maybe not merged
    hand_over(state)
    state.chmod(0o555)
    try:
        before = _snapshot(state)
        done = run_as_user(repo, "forest check --json", bin_dir)
        assert done.returncode != 0, done.stdout
        last = done.stderr.strip().splitlines()[-1]
        assert last.startswith("forest: ") and str(state / "woods.db") in last, done.stderr
        assert "chmod" in last, last
        assert _snapshot(state) == before
    finally:
        state.chmod(0o755)
