"""A ``.git/forest`` (or a file in it) the user may not write or read, as a user who
is not root meets it (tests/helpers/unprivileged.py): a read-only mount, a folder left
by ``sudo forest …``, a mode changed by hand. Each door judges as it does with a
writable folder, or refuses with one ``forest:`` line naming the path and the fix;
never a traceback or an internal error, never a drift let through, and a refused act
leaves the ledger and the work tree as they were."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.helpers.lanes import lanes
from tests.helpers.places import module_place
from tests.helpers.unprivileged import (
    hand_over,
    handed_copy,
    run_as_user,
)

DOC = "# Doc\n\nThe sky is blue.\n"
DOORS = {  # door: (command, exit code with a writable folder: drift absent, present)
    "check": ("forest check", (0, 1)),
    "staged": ("forest check --staged", (0, 1)),
    "status": ("forest status", (0, 0)),
    "hook": ("git commit -q -m notes", (0, 1)),
    "act": ("forest supersede doc.md --words 'the doc, again'", (1, 0)),
}


def _modes(paths: list[Path], dirs: int, files: int) -> None:
    for path in paths:
        path.chmod(dirs if path.is_dir() else files)


def _tree(state: Path) -> list[Path]:
    return [state, *state.rglob("*")]


def _root_owned(state: Path) -> None:
    """What ``sudo forest …`` leaves: root's folder, others may read (as root only)."""
    if os.geteuid() != 0:
        pytest.skip("only root can give .git/forest to root")
    for path in _tree(state):
        os.lchown(path, 0, 0)
    _modes(_tree(state), 0o755, 0o644)


CASES: dict[str, Callable[[Path], None]] = {
    "writable": lambda s: None,
    "state-read-only": lambda s: _modes(_tree(s), 0o555, 0o444),
    "state-root-owned": _root_owned,
    "index-unreadable": lambda s: (s / "woods.db").chmod(0),
    "mac-key-unreadable": lambda s: (s / "mac.key").chmod(0),
    "cache-read-only": lambda s: _modes(_tree(s / "cache"), 0o555, 0o444),
    "views-read-only": lambda s: (s / "views").chmod(0o555),
}


# A repository with doc.md adopted and committed (in a folder the unprivileged user
# reaches), and the bin folder that user runs forest from.
place = module_place({"doc.md": DOC}, "doc.md")


def _snapshot(repo: Path) -> dict[str, str]:
    paths = [repo / "doc.md", *(repo / ".forest").rglob("*")]
    return {
        str(p.relative_to(repo)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(paths)
        if p.is_file()
    }


@pytest.mark.parametrize("drift", [False, True], ids=["clean", "drifted"])
@pytest.mark.parametrize("case", lanes(sorted(CASES), fast={"state-read-only", "index-unreadable"}))
def test_unwritable_state_doors_judge_or_refuse_one_line(
    place: tuple[Path, Path], case: str, drift: bool
) -> None:
    base, bin_dir = place
    repo = handed_copy(base, f"{case}-{drift}")
    installed = run_as_user(repo, "forest hooks install", bin_dir)
    assert installed.returncode == 0, installed.stderr
    text = DOC.replace("blue", "green") if drift else DOC
    staged = run_as_user(
        repo, f"printf '{text}' > doc.md && echo notes > notes.md && git add -A", bin_dir
    )
    assert staged.returncode == 0, staged.stderr
    primed = run_as_user(repo, "forest check; forest check --staged", bin_dir)  # caches made
    assert "Traceback" not in primed.stderr, primed.stderr
    state = repo / ".git" / "forest"
    (state / "views").mkdir(exist_ok=True)
    hand_over(state / "views")
    CASES[case](state)
    for door, (command, codes) in DOORS.items():
        before = _snapshot(repo)
        done = run_as_user(repo, command, bin_dir)
        said = done.stderr + done.stdout
        assert "Traceback" not in said, (door, said)
        assert "internal error" not in said, (door, said)
        if done.returncode == codes[drift]:
            continue
        # Not the verdict of a writable folder: then one refusal naming the state path.
        assert done.returncode == 1, (door, done.returncode, said)
        last = done.stderr.strip().splitlines()[-1]
        assert last.startswith(("forest:", "forest-files:")), (door, said)
        assert str(state) in last, (door, last)
        assert "writable" in last or "chmod" in last or "chown" in last, (door, last)
        if door == "act":
            assert _snapshot(repo) == before, said
    assert not (state / "crash").exists()
