"""The count line of a check given the place where a binding rebound twice does not stand.

``forest check C.md``, the binding rebound to ``B.md#X`` on one branch and to
``C.md#X`` on another and standing at the first: the check reports the binding
``contested`` (check/contests.py ``within``), yet its line read "0 binding(s) checked
… 1 not clean". Now the contested binding counts as checked at every door that prints
the line (``check PATH``, ``--staged PATH``, ``--rev HEAD PATH``, text and JSON), and
the whole-tree check still counts it once.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.helpers.cli import FOREST
from tests.helpers.git import git_env
from tests.helpers.rebound import merged_clones


def _run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **git_env()}
    return subprocess.run(
        [FOREST, *args], cwd=root, env=env, capture_output=True, text=True, check=False
    )


@pytest.fixture(scope="module")
def merged(tmp_path_factory: pytest.TempPathFactory) -> Path:
    b, _ = merged_clones(tmp_path_factory.mktemp("rebound"))
    return b


def test_check_of_place_where_rebound_binding_does_not_stand_count_adds_up_detected(
    merged: Path,
) -> None:
    (said,) = json.loads(_run(merged, "check", "--json").stdout)["findings"]
    stands = said["selector"].split("#")[0]
    other = ({"B.md", "C.md"} - {stands}).pop()
    for args in ((), (stands,), (other,), ("--staged", other), ("--rev", "HEAD", other)):
        text = _run(merged, "check", *args)
        assert text.returncode == 1, (args, text.stdout, text.stderr)
        assert "\n1 binding(s) checked against" in f"\n{text.stdout}", (args, text.stdout)
        assert text.stdout.rstrip().endswith(": 1 not clean"), (args, text.stdout)
        doc = json.loads(_run(merged, "check", "--json", *args).stdout)
        assert doc["summary"].startswith("1 binding(s) checked against"), (args, doc["summary"])
