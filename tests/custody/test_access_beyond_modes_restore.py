"""The state folders and a restore say kernel/access.py's one advice for a path this
user owns whose modes allow it already, yet cannot be written (``chattr +i``, standing
in for an ACL or a read-only share): ``beyond_modes``, naming the folder and the file,
quoted; as a user who is not root, a mode that stops a restore is told its ``chmod``
(``regain_access``), which pasted lets the restore go through.

Before: a state folder that could not be created said "make FOLDER writable" (unquoted,
nothing on why a ``chmod`` would not help); a restore's file "make a.md and its
directory writable" (relative, neither quoted; as a user not root, no command to
paste); its capture "make FOLDER writable": with the store's and the audit log's
wording (tests/store/test_access_beyond_modes.py), four wordings of one case."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from forest_files.kernel.access import beyond_modes
from forest_files.kernel.shellword import shell_word
from tests.helpers.cli import console
from tests.helpers.custody import adopted_repo
from tests.helpers.git import write
from tests.helpers.immutable import immutable
from tests.helpers.places import module_place
from tests.helpers.state import local_state, shared_state
from tests.helpers.unprivileged import handed_copy, run_as_user

DOC = "# Doc\n\nThe sky is blue.\n"
EDITED = DOC.replace("blue", "green")
AGAIN = "then run the same command again"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """doc.md adopted whole in docs/ and edited since, in a repository named with a
    space and a quote (each path the advice names must be quoted to paste)."""
    root = adopted_repo(tmp_path, "docs/doc.md", DOC, name="my repo's")
    write(root, "docs/doc.md", EDITED)
    return root


def _refused(root: Path, *args: str) -> str:
    done = console(root, *args)
    assert done.returncode == 1, done.stderr
    (line,) = done.stderr.splitlines()
    assert "internal error" not in line, line
    return line


def test_state_folder_beyond_modes_create_one_advice_refused(repo: Path) -> None:
    """``.git/forest`` immutable, ``views`` not made yet: ``forest check --staged``."""
    state = local_state(repo)
    views = state / "views"
    if views.exists():
        for child in views.iterdir():
            child.unlink()
        views.rmdir()
    with immutable(state):
        line = _refused(repo, "check", "--staged")
    assert line == (
        f"forest: cannot create {views} (Operation not permitted): "
        f"{beyond_modes(str(views))}, then run the command again"
    ), line
    assert f"make {shell_word(str(state))} writable (their modes allow it already" in line


def test_restore_file_beyond_modes_one_advice_refused(repo: Path) -> None:
    """docs/doc.md immutable: its rename is refused, the file and folder named."""
    bound = repo / "docs" / "doc.md"
    with immutable(bound):
        line = _refused(repo, "restore", "docs/doc.md")
    assert line == (
        "forest: docs/doc.md: cannot be replaced (Operation not permitted); nothing was "
        f"restored — {beyond_modes(str(bound))}, {AGAIN}"
    ), line
    named = f"{shell_word(str(bound.parent))} and {shell_word(str(bound))}"
    assert f"make {named} writable (their modes allow it already" in line, line
    assert bound.read_text(encoding="utf-8") == EDITED


def test_restore_folder_beyond_modes_one_advice_refused(repo: Path) -> None:
    """docs/ immutable: its temporary file cannot be made beside the file."""
    bound = repo / "docs" / "doc.md"
    with immutable(bound.parent):
        line = _refused(repo, "restore", "docs/doc.md")
    assert line == (
        "forest: docs/doc.md: its new text cannot be written beside it (Operation not "
        f"permitted); nothing was restored — {beyond_modes(str(bound))}, {AGAIN}"
    ), line
    assert bound.read_text(encoding="utf-8") == EDITED


def test_restore_capture_beyond_modes_one_advice_refused(tmp_path: Path) -> None:
    """The captures folder immutable: the section's text cannot be kept."""
    root = adopted_repo(tmp_path, "doc.md", DOC, "doc.md#Doc", name="my repo's")
    write(root, "doc.md", EDITED)
    folder = shared_state(root) / "captures"
    folder.mkdir(mode=0o700, exist_ok=True)
    with immutable(folder):
        line = _refused(root, "restore", "doc.md#Doc")
    assert line.endswith(f"nothing was restored — {beyond_modes(str(folder / 'x'))}, {AGAIN}")
    assert f"make {shell_word(str(folder))} writable (their modes allow it already" in line
    assert (root / "doc.md").read_text(encoding="utf-8") == EDITED


place = module_place({"docs/doc.md": DOC}, "docs/doc.md")


def test_restore_folder_read_only_chmod_pasted_recovers(place: tuple[Path, Path]) -> None:
    """As a user who is not root, docs/ at ``0555``: the line names the ``chmod`` of
    the folder and the file, which pasted lets the same restore go through."""
    base, bin_dir = place
    repo = handed_copy(base, "read-only-docs")
    bound = repo / "docs" / "doc.md"
    bound.write_text(EDITED, encoding="utf-8")
    bound.parent.chmod(0o555)
    done = run_as_user(repo, "forest restore docs/doc.md", bin_dir)
    assert done.returncode == 1, done.stderr
    [line] = done.stderr.strip().splitlines()
    fix = line.split(" — ", 1)[1].removesuffix(f", {AGAIN}")
    assert shlex.split(fix) == ["chmod", "u+rwX", str(bound.parent), str(bound)], line
    assert bound.read_text(encoding="utf-8") == EDITED
    fixed = run_as_user(repo, f"{fix} && forest restore docs/doc.md", bin_dir)
    assert fixed.returncode == 0, fixed.stderr
    assert bound.read_text(encoding="utf-8") == DOC
