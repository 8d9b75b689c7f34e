"""``forest proposal show ID`` (the text form, ground's words and all) is a read: as a
user who is not root (tests/helpers/unprivileged.py) whose ``.git/forest`` is read-only
(folders ``0555``, files ``0444``), it reads ground's words from the ledger's body file
once the one way into custody (check/opening.py) finds the index in step by its binding
map, and writes nothing; an index a sync would have to bring in step first is refused in one line.

Before the fix the text form opened the index to sync it (``Repository.synced``) for
ground's words: refused, exit 1, ``woods.db: attempt to write a readonly database``, for
a read, after a note on stderr (two lines).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from forest_files.doors.watch import judge
from forest_files.doors.watch.renames import propose_rebind
from tests.helpers.cli import ok
from tests.helpers.custody import age_files
from tests.helpers.git import commit_all, isolate, make_repo, write
from tests.helpers.read_only_state import state_digests
from tests.helpers.unprivileged import hand_over, open_folder, run_as_user, unprivileged_bin
from tests.helpers.watch import DOC, EDITED, captured_proposal

CANON = "# Canon\n\n## Elias\n\nElias keeps the lantern at the north gate.\n"


@contextmanager
def _read_only_repo() -> Iterator[tuple[Path, Path, str, str]]:
    """A repository handed to the unprivileged user, holding an open text proposal (for
    ``a.md#Keep``) and an open rebind proposal (``c.md#Elias`` renamed), its index last
    brought in step by that user, then ``.git/forest`` read-only (folders ``0555``, files
    ``0444``): the
    repository, the user's bin folder, the two proposal ids."""
    with open_folder() as folder, pytest.MonkeyPatch.context() as patch:
        isolate(patch)
        bin_dir = unprivileged_bin(folder)
        repo = make_repo(folder, "read-only")
        ok(repo, "init")
        write(repo, "a.md", DOC)
        write(repo, "c.md", CANON)
        commit_all(repo, "init")
        ok(repo, "adopt", "a.md#Keep", "c.md#Elias", "--words", "the doc")
        commit_all(repo, "adopt")
        pid = captured_proposal(repo, EDITED)
        write(repo, "c.md", CANON.replace("## Elias", "## Elias the Keeper"))
        (item,) = judge.check(repo, ("c.md",), threading.Event())
        rebind = propose_rebind(repo, item, (), frozenset())
        assert rebind is not None
        age_files(repo)
        hand_over(repo)
        done = run_as_user(repo, "forest status", bin_dir)  # the index in step, by its user
        assert "1 drifted, 1 unresolved" in done.stderr, done.stderr
        for top, _dirs, files in os.walk(repo / ".git" / "forest"):
            os.chmod(top, 0o555)
            for name in files:
                os.chmod(os.path.join(top, name), 0o444)
        yield repo, bin_dir, pid, rebind[0]


def test_proposal_show_text_state_folder_read_only_accepted() -> None:
    with _read_only_repo() as (repo, bin_dir, pid, rid):
        before = state_digests(repo)

        shown = run_as_user(repo, f"forest proposal show {pid}", bin_dir)
        moved = run_as_user(repo, f"forest proposal show {rid}", bin_dir)
        as_json = run_as_user(repo, f"forest proposal show {rid} --json", bin_dir)

        assert shown.returncode == 0, shown.stderr
        assert f"proposal {pid} open for a.md#Title/Keep" in shown.stdout, shown.stdout
        assert "[-kept-]{+edited+} words" in shown.stdout, shown.stdout  # ground's words
        (note,) = shown.stderr.splitlines()
        assert note.startswith("forest: note: nothing was changed: "), note
        assert moved.returncode == 0, moved.stderr
        assert "## Elias{+ the Keeper+}" in moved.stdout, moved.stdout
        assert as_json.returncode == 0 and as_json.stderr == "", as_json.stderr
        assert state_digests(repo) == before  # nothing written, nothing made


def test_proposal_show_text_index_not_in_step_read_only_refused() -> None:
    with _read_only_repo() as (repo, bin_dir, pid, _rid):
        (segment,) = list((repo / ".forest" / "ledger" / "segments").iterdir())[:1]
        os.utime(segment)  # the ledger touched since: a sync must read it again
        before = state_digests(repo)

        shown = run_as_user(repo, f"forest proposal show {pid}", bin_dir)

        assert shown.returncode == 1 and shown.stdout == "", shown.stdout
        (line,) = shown.stderr.splitlines()  # one line, how to fix it; no note before it
        assert line.startswith("forest: ") and "chmod" in line, line
        assert state_digests(repo) == before
