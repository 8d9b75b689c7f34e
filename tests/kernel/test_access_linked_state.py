"""A ``.git/forest`` that is a symlink, to a folder this user may not use, as a user
who is not root meets it (tests/helpers/unprivileged.py): the advice is the link's
removal (kernel/access.py), naming its target, which every door that makes its
folders asks too (kernel/state.py); pasted, the door runs. Before: "make
…/.git/forest writable (its mode allows it already)" (the link's own mode is
``0777``), or a ``chmod -R``/``chown -R`` of the link's name, which fixes its target
at best, never the link the next command refuses."""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

from forest_files.kernel.access import regain_access, regain_command
from tests.helpers.git import make_repo
from tests.helpers.places import module_place
from tests.helpers.unprivileged import as_root, handed_copy, run_as_user

DOC = "# Doc\n\nThe sky is blue.\n"


place = module_place({"doc.md": DOC}, "doc.md")


def _linked(repo: Path) -> tuple[Path, Path]:
    """``.git/forest`` moved beside the repository and linked back; the target closed
    to the unprivileged user (root's at ``0700``, or ``000`` when not root)."""
    state = repo / ".git" / "forest"
    target = repo.with_name(repo.name + "-state")
    state.rename(target)
    state.symlink_to(target)
    if as_root():
        os.lchown(state, 65534, 65534)  # the link the user's; its target root's
        os.chown(target, 0, 0)
        target.chmod(0o700)
    else:
        target.chmod(0)
    return state, target


def test_state_folder_a_symlink_advice_removes_the_link_recovers(
    place: tuple[Path, Path],
) -> None:
    base, bin_dir = place
    repo = handed_copy(base, "linked-state")
    state, target = _linked(repo)
    try:
        done = run_as_user(repo, "forest audit", bin_dir)
        assert done.returncode == 1, done.stderr
        [line] = done.stderr.strip().splitlines()
        assert f"{state} is a symlink (to {target})" in line, line
        assert "chmod" not in line and "chown" not in line and "allows it" not in line, line
        [fix] = re.findall(r"\((rm -- [^)]*)\)", line)
        assert shlex.split(fix) == ["rm", "--", str(state)], line
        fixed = run_as_user(repo, f"{fix} && forest audit && forest check", bin_dir)
        assert fixed.returncode == 0, fixed.stderr
        assert not state.is_symlink() and target.is_dir()  # the target stays
    finally:
        target.chmod(0o755)


def test_state_folder_a_symlink_command_is_its_removal_detected(tmp_path: Path) -> None:
    """The command alone (``forest fsck`` prints it beside its own reason) and the
    advice, for a file in a linked state folder whatever its target's modes."""
    repo = make_repo(tmp_path)
    target = tmp_path / "elsewhere"
    target.mkdir()
    (repo / ".git" / "forest").symlink_to(target)
    db = str(repo / ".git" / "forest" / "woods.db")
    assert regain_command(db, f"{db}-wal") == f"rm -- {repo / '.git' / 'forest'}"
    advice = regain_access(db)
    assert advice is not None and advice.endswith(f"(rm -- {repo / '.git' / 'forest'})")
