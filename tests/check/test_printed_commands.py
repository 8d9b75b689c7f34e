"""Commands printed inside a refusal or a note, pasted into bash, act on the named
file only: one spelling of a ``forest`` command for every door
(kernel/shellword.py ``forest_step``, ``command_text``), so a name with a space or
a leading ``-`` is quoted and put after ``--`` there too, as in the routes.

Real repositories; each printed command is pasted as printed, the placeholder
words replaced as the user would.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from typer.testing import Result

import forest_files.doors.cli  # noqa: F401  (registers every command)
from forest_files.doors.cli import app
from tests.helpers.cli import runner
from tests.helpers.git import commit_all, git, make_repo, pasted, write


def forest(repo: Path, command: str, *args: str) -> Result:
    """``forest COMMAND --repo REPO ARGS``: ``--repo`` before any ``--``."""
    return runner.invoke(app, [command, "--repo", str(repo), *args])


def _between_backticks(text: str) -> list[str]:
    return re.findall(r"`([^`]+)`", text)


def _with_words(command: str) -> str:
    return command.replace("'…'", "'why it is right'").replace(" …", " 'why it is right'")


@pytest.mark.parametrize("name", ["sp ace.md", "-x.md", "q'uote.md"])
def test_already_bound_printed_supersede_pasted_acts_on_that_file_recovers(
    tmp_path: Path, name: str
) -> None:
    repo = make_repo(tmp_path)
    for each in ("sp", "ace.md", name):
        write(repo, each, f"# T\n\n{each}\n")
    commit_all(repo, "files")
    assert forest(repo, "init").exit_code == 0
    assert forest(repo, "adopt", "--words", "w", "--", "sp", "ace.md", name).exit_code == 0
    commit_all(repo, "adopt")
    write(repo, name, "# T\n\nedited\n")
    refused = forest(repo, "adopt", "--words", "w", "--", name)
    assert refused.exit_code == 1
    (command,) = _between_backticks(refused.stderr)
    done = pasted(repo, _with_words(command))
    assert done.returncode == 0, (command, done.stderr)
    check = forest(repo, "check")
    assert check.exit_code == 0, check.output  # that file superseded, the others untouched


def test_file_made_directory_note_restore_pasted_with_dash_name_recovers(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    write(repo, "-x.md", "# T\n\nbody\n")
    commit_all(repo, "file")
    assert forest(repo, "init").exit_code == 0
    assert forest(repo, "adopt", "--words", "w", "--", "-x.md").exit_code == 0
    commit_all(repo, "adopt")
    (repo / "-x.md").unlink()
    write(repo, "-x.md/f", "z\n")
    check = forest(repo, "check")
    assert check.exit_code == 1
    (note,) = [ln for ln in check.stdout.splitlines() if "put the file back" in ln]
    restore = next(c for c in re.findall(r"or (forest restore [^)]+) for a whole-file", note))
    assert restore == "forest restore -- -x.md", note
    shutil.move(repo / "-x.md", tmp_path / "away")
    assert pasted(repo, restore).returncode == 0
    assert forest(repo, "check").exit_code == 0
    assert git(repo, "status", "--porcelain") == ""


def test_staged_symlink_put_back_route_restores_work_tree_too_recovers(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    write(repo, "sp ace.md", "# T\n\nother\n")
    write(repo, "t.md", "x\n")
    commit_all(repo, "files")
    assert forest(repo, "init").exit_code == 0
    assert forest(repo, "adopt", "--words", "w", "sp ace.md").exit_code == 0
    commit_all(repo, "adopt")
    (repo / "sp ace.md").unlink()
    (repo / "sp ace.md").symlink_to("t.md")
    git(repo, "add", "-A")
    check = forest(repo, "check", "--staged")
    assert check.exit_code == 1
    (line,) = [ln for ln in check.stdout.splitlines() if "put the file back:" in ln]
    command = line.split(": ", 1)[1]
    assert command == "rm -- 'sp ace.md' && git checkout HEAD -- 'sp ace.md'", command
    assert pasted(repo, command).returncode == 0
    assert git(repo, "status", "--porcelain") == ""  # neither deleted nor a link: as HEAD
    assert not (repo / "sp ace.md").is_symlink()
    assert forest(repo, "check", "--staged").exit_code == 0


def test_partly_staged_drift_route_adopts_the_staged_text_only_recovers(tmp_path: Path) -> None:
    """The hook judged the staged text; the finding's own route adopted the working
    tree's and staged the file's other edits (an unbound section the user had left
    out on purpose). The route printed is now the one adopting the staged text."""
    repo = make_repo(tmp_path)
    write(repo, "sp ace.md", "# T\n\n## Hero\n\nbody\n\n## Other\n\nfree\n")
    commit_all(repo, "file")
    assert forest(repo, "init").exit_code == 0
    assert forest(repo, "adopt", "--words", "w", "sp ace.md#Hero").exit_code == 0
    commit_all(repo, "adopt")
    write(repo, "sp ace.md", "# T\n\n## Hero\n\nSTAGED\n\n## Other\n\nfree\n")
    git(repo, "add", "sp ace.md")
    write(repo, "sp ace.md", "# T\n\n## Hero\n\nWORKTREE\n\n## Other\n\nunstaged-other\n")
    check = forest(repo, "check", "--staged")
    assert check.exit_code == 1
    assert "forest supersede 'sp ace.md" not in check.stdout  # no route adopting WORKTREE
    (line,) = [ln for ln in check.stdout.splitlines() if ln.startswith("adopt the staged text:")]
    command = line.split(": ", 1)[1].rsplit("  (", 1)[0]
    assert command.startswith("forest supersede --staged --expect "), command
    assert pasted(repo, _with_words(command)).returncode == 0
    assert forest(repo, "check", "--staged").exit_code == 0
    staged = git(repo, "show", ":sp ace.md")
    assert "STAGED" in staged and "unstaged-other" not in staged  # nothing else staged
    assert "unstaged-other" in (repo / "sp ace.md").read_text(encoding="utf-8")
