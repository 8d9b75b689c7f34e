"""Which folder the access advice (kernel/access.py) takes for a state folder: a
``forest`` folder in a git directory by git's own marks (a ``HEAD``, and ``objects``
with ``refs``, or a linked worktree's ``commondir``), not a ``forest`` folder whose
parent merely holds a file named ``HEAD``. A work tree with ``HEAD`` at its root (a
repository of git fixtures) and a tracked ``forest/`` was told ``chmod -R`` (or
``chown -R``) of its own ``forest/`` for one unreadable file in it."""

from __future__ import annotations

import shlex
from pathlib import Path

from forest_files.kernel.access import regain_command
from tests.helpers.git import git
from tests.helpers.places import module_place
from tests.helpers.unprivileged import handed_copy, run_as_user

DOC = "# Doc\n\nThe sky is blue.\n"
FILES = {"HEAD": "ref: refs/heads/fixture\n", "forest/doc.md": DOC}


# A work tree with a file ``HEAD`` at its root and ``forest/doc.md`` adopted, in a
# folder the unprivileged user reaches, and the bin folder that user runs forest from.
place = module_place(FILES, "forest/doc.md")


def _fix(line: str) -> list[str]:
    """The command after ``; `` and before ``, then run``, as shell words."""
    return shlex.split(line.split(", then run")[0].rsplit("; ", 1)[-1])


def test_worktree_forest_folder_beside_head_file_names_file_only_refused(
    place: tuple[Path, Path],
) -> None:
    """``forest/doc.md`` at mode ``000`` in a work tree holding ``HEAD``: the line's fix
    is ``chmod u+rwX`` of that file and its folder, no ``-R`` over the user's tracked
    files; pasted, ``forest check`` passes."""
    base, bin_dir = place
    repo = handed_copy(base, "head-at-root")
    folder = repo / "forest"
    doc = folder / "doc.md"
    doc.chmod(0)
    done = run_as_user(repo, "forest check", bin_dir)
    assert done.returncode == 1, done.stderr
    [line] = done.stderr.strip().splitlines()
    assert _fix(line) == ["chmod", "u+rwX", str(folder), str(doc)], line
    fixed = run_as_user(repo, shlex.join(_fix(line)) + " && forest check", bin_dir)
    assert fixed.returncode == 0, fixed.stderr


def test_folder_named_forest_beside_head_not_state_refused(tmp_path: Path) -> None:
    """A ``HEAD`` file alone (no ``objects``/``refs``, no ``commondir``) beside a
    ``forest`` folder does not make it a state folder."""
    (tmp_path / "HEAD").write_text("ref: refs/heads/main\n")
    (tmp_path / "forest").mkdir()
    doc = tmp_path / "forest" / "doc.md"
    doc.write_text(DOC)
    doc.chmod(0)
    assert regain_command(str(doc)) == f"chmod u+rwX {tmp_path / 'forest'} {doc}"


def test_folder_named_dot_git_without_marks_not_state_refused(tmp_path: Path) -> None:
    """A folder merely named ``.git`` (no ``HEAD``) is not a git directory either."""
    state = tmp_path / ".git" / "forest"
    state.mkdir(parents=True)
    doc = state / "doc.md"
    doc.write_text(DOC)
    doc.chmod(0)
    assert regain_command(str(doc)) == f"chmod u+rwX {state} {doc}"


def test_state_folders_of_main_and_linked_worktree_whole_accepted(tmp_path: Path) -> None:
    """The real ones keep the whole-folder advice: ``<git-dir>/forest`` of a clone, of a
    bare repository, and of a linked worktree (its git directory holds ``commondir``)."""
    main = tmp_path / "main"
    git(tmp_path, "init", "-q", "-b", "main", str(main))
    (main / "f").write_text("x\n")
    git(main, "add", "f")
    git(main, "commit", "-q", "-m", "f")
    git(main, "worktree", "add", "-q", str(tmp_path / "linked"))
    bare = tmp_path / "bare.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    for git_dir in (main / ".git", main / ".git" / "worktrees" / "linked", bare):
        state = git_dir / "forest"
        state.mkdir()
        index = state / "woods.db"
        index.write_text("")
        index.chmod(0)
        assert regain_command(str(index)) == f"chmod -R u+rwX {state}", git_dir
