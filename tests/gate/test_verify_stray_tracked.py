"""``forest verify``'s route for a stray git tracks under .forest/ledger (a forged name,
a temp file, a directory, a symlink), pasted where the forest hooks are installed:
the deletion is staged, so the commit after it clears ``forest verify`` and ``forest
ci`` alike.

verify printed ``rm -- PATH`` for every stray: a tracked one was gone from the disk
but still in the index, so verify passed while the next commit (and the gate) still
held it. A stray the index holds now gets ``git rm -f`` (a directory ``git rm -r
--cached``, then ``rm -r``: it may hold files git does not track), an untracked one
keeps its ``rm`` (ledger/strays.py ``removal_steps``).

Real repositories, the hooks installed by ``forest hooks install``, the routes pasted
into bash.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from forest_files.gate.ci import run_gate
from tests.helpers.cli import forest
from tests.helpers.git import git, pasted_under_hooks, write
from tests.helpers.ledger import hooked_repo

pytestmark = pytest.mark.slow  # git runs the installed hooks on every commit

LEDGER = ".forest/ledger"


def _committed_past_hooks(root: Path) -> None:
    git(root, "add", "-A")
    git(root, "commit", "-q", "--no-verify", "-m", "strays")


def _stray_routes(root: Path) -> list[dict[str, Any]]:
    """Each stray's one route of ``forest verify --json``."""
    result = forest(root, "verify", "--json")
    assert result.exit_code == 3, result.stdout
    faults = json.loads(result.stdout)["faults"]
    assert faults and all(f["code"] == "stray" for f in faults), faults
    routes = []
    for fault in faults:
        (route,) = fault["routes"]
        assert route["command"] == fault["fix"]
        routes.append(route)
    return routes


def test_verify_stray_tracked_git_rm_pasted_under_hooks_recovers(tmp_path: Path) -> None:
    root = hooked_repo(tmp_path)
    write(root, f"{LEDGER}/segments/notes.txt", "forged\n")
    write(root, f"{LEDGER}/bodies/ab/x.tmp", "temp\n")
    write(root, f"{LEDGER}/odd/y.txt", "a directory git tracks\n")
    _committed_past_hooks(root)
    write(root, f"{LEDGER}/odd/z.txt", "beside it, untracked\n")
    write(root, f"{LEDGER}/segments/left.part", "untracked\n")
    commands = {r["command"] for r in _stray_routes(root)}
    assert commands == {
        f"git rm -q -f -- {LEDGER}/segments/notes.txt",
        f"git rm -r -q -f --cached -- {LEDGER}/bodies/ab && rm -r -- {LEDGER}/bodies/ab",
        f"git rm -r -q -f --cached -- {LEDGER}/odd && rm -r -- {LEDGER}/odd",
        f"rm -- {LEDGER}/segments/left.part",
    }
    pasted_under_hooks(root, " && ".join(sorted(commands)))
    pasted_under_hooks(root, "git commit -q -m 'drop the strays'")
    assert forest(root, "verify").exit_code == 0
    assert git(root, "status", "--porcelain", "--", LEDGER) == ""
    assert run_gate(root, "main").ok


def test_verify_stray_tracked_symlink_git_rm_pasted_under_hooks_recovers(
    tmp_path: Path,
) -> None:
    root = hooked_repo(tmp_path)
    os.symlink("../../../a.md", root / LEDGER / "segments" / "link.jsonl")
    _committed_past_hooks(root)
    (route,) = _stray_routes(root)
    assert route["command"] == f"git rm -q -f -- {LEDGER}/segments/link.jsonl"
    pasted_under_hooks(root, f"{route['command']} && git commit -q -m 'drop the link'")
    assert forest(root, "verify").exit_code == 0
    assert (
        git(root, "ls-tree", "-r", "--name-only", "HEAD", "--", LEDGER + "/segments/link.jsonl")
        == ""
    )
