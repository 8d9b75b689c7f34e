"""The installed hook, committed through by a user who cannot run the interpreter it
names (a venv under another user's ``0700`` home, a checkout shared by a group), as a
user who is not root (tests/helpers/unprivileged.py): the commit is refused, and the
line says the interpreter is there but out of this user's reach, with the fix; "gone"
is kept for an interpreter that is not there."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from forest_files.doors import hooks as githooks
from tests.helpers.custody import init_and_adopt
from tests.helpers.git import commit_all, make_repo, write
from tests.helpers.unprivileged import hand_over, open_folder, run_as_user, unprivileged_bin

DOC = "# Doc\n\nThe sky is blue.\n"


@pytest.fixture
def shared(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Path, Path, Path]]:
    """(repo with doc.md adopted, the installer's venv reached through ``private``,
    the unprivileged user's bin folder); the hook names the venv's ``python3``."""
    del monkeypatch  # the autouse isolation has run: git is the fixed test git
    with open_folder() as folder:
        bin_dir = unprivileged_bin(folder)
        private = folder / "private"
        private.mkdir(mode=0o755)
        (private / "venv").symlink_to(bin_dir.parent)
        repo = make_repo(folder, "repo")
        write(repo, "doc.md", DOC)
        init_and_adopt(repo, ["doc.md"])
        commit_all(repo, "adopt")
        githooks.install(repo, python=str(private / "venv" / "bin" / "python3"))
        hand_over(repo)
        try:
            yield repo, private, bin_dir
        finally:
            private.chmod(0o755)


def _commit(repo: Path, bin_dir: Path, text: str) -> tuple[int, str]:
    done = run_as_user(
        repo, f"printf '{text}' > doc.md && git add doc.md && git commit -q -m edit", bin_dir
    )
    return done.returncode, done.stderr


def test_hook_interpreter_in_reach_judges_refused(shared: tuple[Path, Path, Path]) -> None:
    """The setting itself: with the folder open the hook runs forest and refuses drift."""
    repo, _private, bin_dir = shared
    code, said = _commit(repo, bin_dir, DOC.replace("blue", "green"))
    assert code == 1 and "drift" in said, said


def test_hook_interpreter_out_of_reach_says_so_refused(
    shared: tuple[Path, Path, Path],
) -> None:
    """A folder above the interpreter closed to this user (``0700`` of another user, or
    ``000``): refused, and not "gone": it is there, this user may not run it."""
    repo, private, bin_dir = shared
    private.chmod(0)
    code, said = _commit(repo, bin_dir, DOC)  # even a clean commit: forest could not run
    assert code == 1, said
    [line] = said.strip().splitlines()
    assert "is gone" not in line, line
    assert str(private / "venv" / "bin" / "python3") in line, line
    assert "may not run it" in line and "forest hooks install" in line, line
    assert "the user who installed forest-files" in line, line


def test_hook_interpreter_not_executable_says_so_refused(
    shared: tuple[Path, Path, Path],
) -> None:
    """The interpreter a plain file this user may not execute: refused, the same words."""
    repo, private, bin_dir = shared
    (private / "venv").unlink()
    (private / "venv" / "bin").mkdir(parents=True)
    (private / "venv" / "bin" / "python3").write_text("#!/bin/sh\nexit 0\n")
    (private / "venv" / "bin" / "python3").chmod(0o644)
    code, said = _commit(repo, bin_dir, DOC)
    assert code == 1, said
    assert "is gone" not in said and "may not run it" in said, said


def test_hook_interpreter_missing_says_gone_refused(shared: tuple[Path, Path, Path]) -> None:
    """The interpreter not there at all (its venv removed): "gone", with the reinstall."""
    repo, private, bin_dir = shared
    (private / "venv").unlink()
    code, said = _commit(repo, bin_dir, DOC)
    assert code == 1, said
    assert "is gone; reinstall forest-files" in said and "may not run" not in said, said
