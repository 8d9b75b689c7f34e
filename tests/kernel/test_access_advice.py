"""The one advice for a path this user may not use (kernel/access.py), as a user who is
not root meets it (tests/helpers/unprivileged.py): a git directory another user (root)
owns, where ``.git/forest`` cannot be created, is told ``sudo chown`` (once
``safe.directory`` lets git open it), not "make it writable"; an index at mode
``000`` is told the ``chmod`` that makes it readable and writable, not "writable"
alone; each the same words the error boundary gives."""

from __future__ import annotations

import errno
import os
import shlex
import shutil
from pathlib import Path

import pytest

from forest_files.kernel.access import access_fix, regain_access
from tests.helpers.places import module_place
from tests.helpers.unprivileged import (
    as_root,
    handed_copy,
    run_as_user,
    script_beside,
)

DOC = "# Doc\n\nThe sky is blue.\n"
DOORS = ("forest check", "forest status")  # an act meets git's "dubious ownership" first


# A repository with doc.md adopted (in a folder the unprivileged user reaches), and the
# bin folder that user runs forest from.
place = module_place({"doc.md": DOC}, "doc.md")


def _fix(line: str) -> list[str]:
    """The command after ``; `` (or ``: ``) and before ``, then run``, as shell words."""
    return shlex.split(line.split(", then run")[0].rsplit("; ", 1)[-1].rsplit(": ", 1)[-1])


def test_state_dir_under_root_owned_git_dir_says_chown_refused(
    place: tuple[Path, Path],
) -> None:
    """``.git`` owned by root (``sudo git …`` once), no ``.git/forest`` yet: git refuses
    the repository, and so does each door, in the one line of gitio/ownership.py, as
    every door does (the light doors no longer judge it first:
    tests/doors/test_light_check_foreign_owner.py), naming ``sudo chown -R "$(id -un)"
    .git`` first; trusted by ``safe.directory`` instead, each door refuses in one line
    whose fix is that ``sudo chown`` again."""
    if not as_root():
        pytest.skip("only root can give .git to root")
    base, bin_dir = place
    repo = handed_copy(base, "root-owned-git")
    git_dir = repo / ".git"
    shutil.rmtree(git_dir / "forest")
    os.chown(git_dir, 0, 0)
    git_dir.chmod(0o755)
    trusted = script_beside(repo, "trusted.gitconfig", f"[safe]\n\tdirectory = {repo}\n")
    for command in DOORS:
        refused = run_as_user(repo, command, bin_dir)
        assert refused.returncode == 1, (command, refused.stderr)
        assert refused.stderr.startswith("forest: git refuses the repository"), refused.stderr
        assert f'`sudo chown -R "$(id -un)" {git_dir}`' in refused.stderr, refused.stderr
        assert not (git_dir / "forest").exists()
        done = run_as_user(repo, f"GIT_CONFIG_GLOBAL={trusted} {command}", bin_dir)
        assert done.returncode == 1, (command, done.stderr)
        [line] = done.stderr.strip().splitlines()
        assert line.startswith("forest: cannot create"), line
        assert "writable" not in line, line
        assert _fix(line) == ["sudo", "chown", "-R", "$(id -un)", str(git_dir)], line


def test_index_unreadable_says_chmod_readable_refused(place: tuple[Path, Path]) -> None:
    """``woods.db`` at mode ``000``: one line whose fix, pasted as the user, makes the
    door work again (``chmod -R u+rwX`` of the state folder holding it)."""
    base, bin_dir = place
    repo = handed_copy(base, "index-unreadable")
    state = repo / ".git" / "forest"
    index = state / "woods.db"
    index.chmod(0)
    for command in DOORS:
        done = run_as_user(repo, command, bin_dir)
        assert done.returncode == 1, (command, done.stderr)
        [line] = done.stderr.strip().splitlines()
        assert "writable" not in line, line
        assert _fix(line) == ["chmod", "-R", "u+rwX", str(state)], line
    fixed = run_as_user(repo, shlex.join(_fix(line)) + " && forest check", bin_dir)
    assert fixed.returncode == 0, fixed.stderr


def test_regain_access_same_words_as_boundary_accepted(tmp_path: Path) -> None:
    """The boundary's line for a PermissionError carries this function's fix."""
    from forest_files.doors.boundary import run_guarded

    target = tmp_path / "f"
    target.write_text("x")
    target.chmod(0o444)  # as root nothing is denied: the mode is the one a user would meet
    fix = regain_access(str(target))
    assert fix == f"chmod u+rwX {tmp_path} {target}", fix

    def denied() -> int:
        raise PermissionError(13, "Permission denied", str(target))

    import contextlib
    import io

    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = run_guarded("t", denied, [], repo=tmp_path, audit=None)
    assert code == 1
    assert f"; {fix}, then run" in err.getvalue(), err.getvalue()


def test_relative_path_with_leading_dash_named_absolute_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Hostile: a relative path the error named (``-x``, a file a door was told by its
    caller) was printed as given, so the pasted fix read ``chmod u+rwX FOLDER -x``:
    ``-x`` taken as chmod's option, the file's mode left as it was. Every path the
    advice names is absolute."""
    monkeypatch.chdir(tmp_path)
    hostile = tmp_path / "-x"
    hostile.write_text("kept\n")
    hostile.chmod(0)
    fix = regain_access("-x")
    assert fix is not None and fix.startswith("chmod u+rwX "), fix
    words = shlex.split(fix)
    assert all(os.path.isabs(word) for word in words[2:]), fix
    assert str(hostile) in words, fix


@pytest.mark.parametrize("code", [errno.EIO, errno.ENAMETOOLONG])
def test_access_fix_other_refusal_names_no_mode_detected(tmp_path: Path, code: int) -> None:
    """A write refused for a reason no mode, mount or flag explains (a failing disk, a
    name too long) is told the path and the system's words, not "their modes allow it
    already: a read-only mount …", which would send the user after the wrong cause."""
    path = tmp_path / "a.md"
    path.write_text("text\n")
    fix = access_fix(str(path), OSError(code, os.strerror(code), str(path)))
    assert fix == f"check {path} and its disk (the system said: {os.strerror(code)})"
    assert "modes" not in fix and "chmod" not in fix
