"""A binding rebound on two merged branches, judged by a check given a path.

``forest check C.md`` (where the binding stands), ``forest check B.md`` (where the
other branch rebound it), the same with ``--staged`` and ``--rev``: the whole-tree
check reports the binding ``contested`` (check/contests.py), but a check given paths
added no contest, so these said clean, or refused ``B.md`` as naming no binding.
Now each reports the same finding with the same routes when any place of the
binding lies under a path given; a path under none of them is still refused.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.cli import FOREST
from tests.helpers.git import git_env
from tests.helpers.rebound import merged_clones


def _run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **git_env()}
    return subprocess.run(
        [FOREST, *args], cwd=root, env=env, capture_output=True, text=True, check=False
    )


def _contested(root: Path, *args: str) -> dict[str, Any]:
    proc = _run(root, "check", "--json", *args)
    assert proc.returncode == 1, (args, proc.stdout, proc.stderr)
    doc = json.loads(proc.stdout)
    found = [f for f in doc["findings"] if f["kind"] == "contested"]
    assert len(found) == 1 and doc["ok"] is False, (args, doc["findings"])
    return found[0]


@pytest.fixture(scope="module")
def merged(tmp_path_factory: pytest.TempPathFactory) -> Path:
    b, _ = merged_clones(tmp_path_factory.mktemp("rebound"))
    return b


def test_binding_rebound_twice_under_a_path_every_check_detected(merged: Path) -> None:
    whole = _contested(
        merged,
    )
    stands = whole["selector"]
    other = ({"B.md#X", "C.md#X"} - {stands}).pop()
    asked = [
        (stands.split("#")[0],),
        (other.split("#")[0],),  # the other branch's place: no binding stands there
        (other,),  # its selector, as the finding names it
        (".",),
        ("--staged", stands.split("#")[0]),
        ("--staged", other.split("#")[0]),
        ("--rev", "HEAD", other.split("#")[0]),
        ("--rev", "HEAD", stands.split("#")[0]),
    ]
    for args in asked:
        said = _contested(merged, *args)
        assert said["routes"] == whole["routes"], args  # the same routes, every door
        assert (said["selector"], said["detail"]) == (stands, whole["detail"]), args
    text = _run(merged, "check", other.split("#")[0])
    assert text.returncode == 1 and "rebound on two merged branches" in text.stdout
    assert whole["routes"][0]["command"] in text.stdout  # the route to paste, printed


def test_path_under_no_place_of_a_binding_rebound_twice_refused(merged: Path) -> None:
    proc = _run(merged, "check", "A.md")  # where it stood before both rebinds
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert proc.stderr.startswith("forest: check: A.md names no binding"), proc.stderr
