"""A binding rebound on three merged branches: a route to every place it was rebound to.

``forest rebind A.md#X B.md#X``, ``... C.md#X`` and ``... D.md#X`` on three branches,
merged: the ``contested`` finding names every place, but its routes offered a move to
the second place only (route_contest.py took the one other place of two), so the
third branch's place could only be reached by writing the rebind oneself. Now there
is one route per place: kept where it stands, or moved to each other place, each
working pasted, and after it the check is clean at that place.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.cli import FOREST
from tests.helpers.git import git, git_env, pasted
from tests.helpers.rebound import three_merged

PLACES = {"B.md#X", "C.md#X", "D.md#X"}


def _run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **git_env()}
    return subprocess.run(
        [FOREST, *args], cwd=root, env=env, capture_output=True, text=True, check=False
    )


def _contested(root: Path) -> dict[str, Any]:
    proc = _run(root, "check", "--json")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    (found,) = [f for f in json.loads(proc.stdout)["findings"] if f["kind"] == "contested"]
    return dict(found)


@pytest.mark.parametrize("pick", [0, 1, 2])
def test_binding_rebound_on_three_merged_branches_every_place_routed_recovers(
    tmp_path: Path, pick: int
) -> None:
    b = three_merged(tmp_path)
    said = _contested(b)
    stands = said["selector"]
    assert all(p in said["detail"] for p in PLACES), said["detail"]
    argv = [r["argv"][0] for r in said["routes"]]
    assert argv[0] == ["forest", "rebind", stands, stands]
    moves = sorted(a[-1] for a in argv[1:])
    assert moves == sorted(PLACES - {stands}), argv
    assert all(a[:3] == ["forest", "rebind", stands] for a in argv)
    text = _run(b, "check").stdout
    assert all(r["command"] in text for r in said["routes"]), text
    assert "both branches" not in text  # three: the keep route's note says every branch's
    route = said["routes"][pick]
    done = pasted(b, route["command"])  # the one line, as printed
    assert done.returncode == 0, done.stderr
    git(b, "commit", "-q", "-m", "settle")
    doc = json.loads(_run(b, "check", "--json").stdout)
    assert doc["ok"] is True, doc["findings"]
    assert [f["selector"] for f in doc["findings"]] == [route["argv"][0][-1]]


def test_binding_rebound_on_three_merged_branches_count_said_detected(tmp_path: Path) -> None:
    """The detail and verify's refusal said "rebound on two merged branches" of a binding
    three merged branches rebound; now they say three (check, its JSON, verify)."""
    b = three_merged(tmp_path)
    said = _contested(b)
    assert said["detail"].startswith("binding rebound on three merged branches:"), said
    assert "rebound on three merged branches" in _run(b, "check").stdout
    verify = _run(b, "verify")
    assert verify.returncode == 1, verify.stdout + verify.stderr
    assert "rebound on three merged branches" in verify.stdout, verify.stdout
    line = verify.stderr.strip()
    assert line == (
        "forest: 1 binding(s) rebound on three merged branches; rebind each as a route above says"
    ), line
    assert "two merged" not in verify.stdout + verify.stderr


def test_merged_branch_counts_in_words_accepted() -> None:
    """Bindings rebound on different counts of branches, in one line: the count is not
    said (verify's refusal of several); one count is, in words up to nine."""
    from forest_files.check.contests import on_branches

    assert on_branches([2]) == "on two merged branches"
    assert on_branches([3, 3]) == "on three merged branches"
    assert on_branches([9]) == "on nine merged branches"
    assert on_branches([10]) == "on 10 merged branches"
    assert on_branches([2, 3]) == "on merged branches"
