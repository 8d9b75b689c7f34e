"""A symlink a branch committed inside an unexpected folder of the ledger
(``.forest/ledger/other/x -> outside``): ``forest ci`` gives the folder one route, which
takes the folder, link and all, out of the commit that added the link.

Before, HEAD's verify named the folder a stray whose route removed it in a commit on
top; pasted, the gate then found the link in the commit that added it and refused
again with a second route (the take-out): two rounds of pasting and committing.

Real repositories, the hooks installed by ``forest hooks install``, the routes pasted
into bash.
"""

from __future__ import annotations

import json
import os
import re
import shlex
from pathlib import Path

import pytest

from forest_files.gate.ci import run_gate
from tests.helpers.git import git, pasted, pasted_under_hooks, write
from tests.helpers.ledger import hooked_repo

pytestmark = pytest.mark.slow  # git runs the installed hooks on every commit

LEDGER = ".forest/ledger"
FOLDER = f"{LEDGER}/other"
SECRET = "words-outside-the-repository"


def _linked_folder(tmp_path: Path, *, later_work: bool) -> str:
    """A branch whose commit adds ``other/x``, a link pointing outside the repository,
    and a regular file beside it (committed past the hook, which refuses them); with
    ``later_work`` a commit on top. Returns the commit that added the link."""
    root = hooked_repo(tmp_path)
    outside = tmp_path / "outside.txt"
    outside.write_text(f"{SECRET}\n")
    write(root, f"{FOLDER}/notes.txt", "beside the link\n")
    os.symlink(outside, root / FOLDER / "x")
    git(root, "add", "-A")
    git(root, "commit", "-q", "--no-verify", "-m", "a folder with a link in the ledger")
    added = git(root, "rev-parse", "HEAD")
    if later_work:
        write(root, "b.md", "later work\n")
        git(root, "add", "--", "b.md")
        git(root, "commit", "-q", "--no-verify", "-m", "later work")
    return added


def _folder_route(root: Path) -> tuple[str, str, str]:
    report = run_gate(root, "main")
    assert not report.ok
    assert SECRET not in json.dumps(report.as_dict())  # never read through the link
    (found,) = [f for f in report.check.extra if f.finding.path == FOLDER]
    (route,) = found.routes
    return route.command, route.note, route.label


def test_ci_link_in_unexpected_folder_by_head_one_route_under_hooks_recovers(
    tmp_path: Path,
) -> None:
    _linked_folder(tmp_path, later_work=False)
    root = tmp_path / "repo"
    command, _note, label = _folder_route(root)
    pasted_under_hooks(root, command)
    assert run_gate(root, "main").ok  # one round: the folder and its link both gone
    assert label == "take the folder out of HEAD"
    assert git(root, "log", "--format=", "--name-only", "main..HEAD", "--", LEDGER) == ""
    assert (tmp_path / "outside.txt").read_text() == f"{SECRET}\n"  # the target untouched


def test_ci_link_in_unexpected_folder_earlier_one_route_under_hooks_recovers(
    tmp_path: Path,
) -> None:
    bad = _linked_folder(tmp_path, later_work=True)
    root = tmp_path / "repo"
    command, note, label = _folder_route(root)
    editor = f"sed -i 's/^pick {bad[:7]}/edit {bad[:7]}/'"
    pasted_under_hooks(root, f"GIT_SEQUENCE_EDITOR={shlex.quote(editor)} {command}")
    (at_stop,) = [c for c in re.findall(r"`([^`]+)`", note) if c.startswith("git rm")]
    done = pasted(root, at_stop)
    assert done.returncode == 0 and "commit refused" not in done.stderr, done.stderr
    assert not (root / ".git" / "rebase-merge").exists()
    assert run_gate(root, "main").ok  # one round
    assert label == f"rewrite the branch: take the folder out of {bad[:12]}"
    assert git(root, "log", "--format=", "--name-only", "main..HEAD", "--", LEDGER) == ""
    assert (root / "b.md").read_text() == "later work\n"  # the later work kept
