"""``forest verify --json``'s ``ok`` says what its exit status says.

Of a binding rebound on two merged branches, verify exits 1 and lists the
``contested`` finding, but its JSON said ``"ok": true`` (the ledger itself has no
fault): a consumer reading ``ok`` passed what the exit refused. Now ``ok`` is true
exactly when verify exits 0, and ``ledger_ok`` keeps the old meaning (no fault in
the ledger), true on both sides of the settling rebind.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from tests.helpers.cli import FOREST
from tests.helpers.git import git, git_env, pasted
from tests.helpers.rebound import merged_clones


def _verify(root: Path) -> tuple[int, dict[str, object]]:
    env = {**os.environ, **git_env()}
    proc = subprocess.run(
        [FOREST, "verify", "--json"], cwd=root, env=env, capture_output=True, text=True
    )
    return proc.returncode, json.loads(proc.stdout)


def test_verify_json_ok_of_binding_rebound_twice_detected(tmp_path: Path) -> None:
    b, _ = merged_clones(tmp_path)
    code, doc = _verify(b)
    assert code == 1 and doc["ok"] is False and doc["ledger_ok"] is True, doc
    (said,) = [f for f in doc["findings"] if isinstance(f, dict) and f["kind"] == "contested"]
    done = pasted(b, said["routes"][1]["command"])  # settled at the other place
    assert done.returncode == 0, done.stderr
    git(b, "commit", "-q", "-m", "settle")
    code, doc = _verify(b)
    assert code == 0 and doc["ok"] is True and doc["ledger_ok"] is True, doc
