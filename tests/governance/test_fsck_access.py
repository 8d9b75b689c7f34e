"""``forest fsck`` on an index the user may not read or write, as a user who is not
root meets it (tests/helpers/unprivileged.py): a mode ``000``, a read-only index, a
read-only or unreadable ``.git/forest``, an audit log at ``000``, a folder left by
``sudo forest …``. fsck names the access problem with the fix every other door says
(kernel/access.py: the ``chmod`` or the ``chown``), never "`forest rebuild` repairs
the index", a repair refused as well (nor a lost audit log). Pasted, the ``chmod``
lets fsck check it all: ok."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.helpers.lanes import lanes
from tests.helpers.places import module_place
from tests.helpers.unprivileged import (
    handed_copy,
    run_as_user,
)


def _tree(state: Path) -> list[Path]:
    return [state, *state.rglob("*")]


def _modes(state: Path, dirs: int, files: int) -> None:
    for path in _tree(state):
        path.chmod(dirs if path.is_dir() else files)


def _root_owned(state: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("only root can give .git/forest to root")
    for path in _tree(state):
        os.lchown(path, 0, 0)
    _modes(state, 0o755, 0o644)


CASES: dict[str, Callable[[Path], None]] = {
    "index-unreadable": lambda s: (s / "woods.db").chmod(0),
    "audit-unreadable": lambda s: (s / "audit.db").chmod(0),
    "index-read-only": lambda s: (s / "woods.db").chmod(0o444),
    "state-read-only": lambda s: _modes(s, 0o555, 0o444),
    "state-root-owned": _root_owned,
    "state-unreadable": lambda s: s.chmod(0),
}


place = module_place({"doc.md": "# Doc\n\nThe sky is blue.\n"}, "doc.md")


@pytest.mark.parametrize("case", lanes(sorted(CASES), fast={"state-read-only"}))
def test_fsck_index_out_of_reach_names_access_fix_not_rebuild_refused(
    place: tuple[Path, Path], case: str
) -> None:
    base, bin_dir = place
    repo = handed_copy(base, case)
    state = repo / ".git" / "forest"
    assert run_as_user(repo, "forest fsck", bin_dir).returncode == 0
    CASES[case](state)
    done = run_as_user(repo, "forest fsck", bin_dir)
    said = done.stderr + done.stdout
    assert "Traceback" not in said and "internal error" not in said, said
    if done.returncode == 0:  # read-only, still read: fsck checked it all
        assert "fsck: ok" in done.stdout, said
        return
    last = done.stderr.strip().splitlines()[-1]
    assert "forest rebuild" not in last and "emptied" not in said, said
    assert str(state) in last and ("chmod" in last or "chown" in last), said
    fix = last.rpartition("`")[0].rpartition("`")[2] if last.endswith("`") else ""
    if "chown" in last or "chmod" not in fix:
        return  # sudo is not the test's to type; the line named the folder's owner
    assert run_as_user(repo, fix, bin_dir).returncode == 0, fix
    again = run_as_user(repo, "forest fsck", bin_dir)
    assert again.returncode == 0, again.stderr + again.stdout
