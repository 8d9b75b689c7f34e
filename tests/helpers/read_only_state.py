"""A repository whose ``.git/forest`` the unprivileged user may not write, holding an open
proposal, and the digest of every file of that folder (what "nothing written" means).

``proposal_handed_over`` is the part before the folder is made read-only: an open proposal
whose file keeps its edit, handed to the unprivileged user.

Test: tests/proposals/test_list_read_only.py, tests/proposals/test_show_status_read_only.py,
tests/proposals/test_show_text_read_only.py, tests/proposals/test_show_erased_ground.py,
tests/proposals/test_show_moved_on.py, tests/proposals/test_show_ground_damaged.py,
tests/proposals/test_list_settled_read_only.py
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.helpers.cli import ok
from tests.helpers.custody import age_files
from tests.helpers.git import commit_all, isolate, make_repo, write
from tests.helpers.unprivileged import hand_over, open_folder, run_as_user, unprivileged_bin
from tests.helpers.watch import DOC, EDITED, captured_proposal


def state_digests(repo: Path) -> dict[str, str]:
    """Every file of ``.git/forest`` with the SHA-256 of its bytes."""
    return {
        p.relative_to(repo).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted((repo / ".git" / "forest").rglob("*"))
        if p.is_file()
    }


def state_modes(state: Path, folders: int, files: int) -> None:
    """Every folder of ``state`` (``.git/forest``) at mode ``folders``, every file at ``files``."""
    for top, _dirs, names in os.walk(state):
        os.chmod(top, folders)
        for name in names:
            os.chmod(os.path.join(top, name), files)


@dataclass(frozen=True)
class ReadOnlyState:
    repo: Path
    bin_dir: Path  # the unprivileged user's ``forest``
    pid: str  # the open proposal (its section back at ground: a writing door closes it)
    state: Path  # ``.git/forest``, its folders ``0555``, its files ``0444``
    before: dict[str, str]  # state_digests once read-only


def proposal_handed_over(folder: Path, name: str) -> tuple[Path, Path, str]:
    """In ``folder``: ``a.md#Keep`` adopted, a proposal captured (the file keeps its edit:
    the proposal stays open), its files aged past the racy window, the repository handed
    to the unprivileged user; the repository, that user's bin folder and the proposal."""
    bin_dir = unprivileged_bin(folder)
    repo = make_repo(folder, name)
    ok(repo, "init")
    write(repo, "a.md", DOC)
    commit_all(repo, "init")
    ok(repo, "adopt", "a.md#Keep", "--words", "the doc")
    commit_all(repo, "adopt")
    pid = captured_proposal(repo, EDITED)
    age_files(repo)
    hand_over(repo)
    return repo, bin_dir, pid


@contextmanager
def proposal_read_only() -> Iterator[ReadOnlyState]:
    """``a.md#Keep`` adopted, a proposal captured for it and the edit undone, the
    repository handed to the unprivileged user, who brings the index in step
    (``forest status``), then every folder of its ``.git/forest`` made ``0555`` and every
    file ``0444`` (``state_modes(state, 0o755, 0o644)`` makes them writable again)."""
    with open_folder() as folder, pytest.MonkeyPatch.context() as patch:
        isolate(patch)
        bin_dir = unprivileged_bin(folder)
        repo = make_repo(folder, "read-only")
        ok(repo, "init")
        write(repo, "a.md", DOC)
        commit_all(repo, "init")
        ok(repo, "adopt", "a.md#Keep", "--words", "the doc")
        commit_all(repo, "adopt")
        pid = captured_proposal(repo, EDITED)
        write(repo, "a.md", DOC)
        hand_over(repo)
        assert run_as_user(repo, "forest status", bin_dir).returncode == 0  # index in step
        state = repo / ".git" / "forest"
        state_modes(state, 0o555, 0o444)  # its cache too: a check there writes no stamp
        yield ReadOnlyState(repo, bin_dir, pid, state, state_digests(repo))
