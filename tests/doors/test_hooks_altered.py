"""A hook that carries forest-files' marker but not its script is never called ours.

With ``core.hooksPath`` set to a folder of the work tree (``.githooks``), the hooks
travel with commits: a pulled ``pre-commit`` reading ``# forest-files-hook v2`` and
``exit 0`` would accept any drift. ``forest hooks status`` compares each script with
the template for the interpreter it names (doors/hooks/installer.py), and install
and status warn that such a folder is no gate.
"""

from __future__ import annotations

from pathlib import Path

from forest_files.doors.hooks import MARKER
from tests.helpers.cli import forest
from tests.helpers.custody import init_and_adopt
from tests.helpers.git import commit_all, git, make_repo, write


def _repo(tmp_path: Path) -> Path:
    root = make_repo(tmp_path)
    write(root, "canon.md", "# Canon\n\nThe rule.\n")
    init_and_adopt(root, ["canon.md"])
    git(root, "config", "core.hooksPath", ".githooks")
    commit_all(root, "adopt")
    return root


def test_hooks_in_work_tree_warned_and_forged_hook_altered_refused(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    installed = forest(root, "hooks", "install")
    assert installed.exit_code == 0, installed.stderr
    assert "lies in the work tree" in installed.stderr
    forged = f"#!/bin/sh\n# {MARKER}\nexit 0\n"
    (root / ".githooks" / "pre-commit").write_text(forged)
    shown = forest(root, "hooks", "status")
    line = next(x for x in shown.stdout.splitlines() if x.startswith("pre-commit "))
    assert line.split()[1] == "altered", shown.stdout
    assert "carry forest-files' marker but not its script" in shown.stderr
    again = forest(root, "hooks", "install")  # puts the real script back
    line = next(x for x in again.stdout.splitlines() if x.startswith("pre-commit "))
    assert line.split()[1] == "ours"


def test_hooks_in_git_dir_no_warning_accepted(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    git(root, "config", "--unset", "core.hooksPath")
    installed = forest(root, "hooks", "install")
    assert installed.exit_code == 0 and installed.stderr == ""
    assert all(x.split()[1] == "ours" for x in installed.stdout.splitlines())
