"""``forest verify`` and ``forest log`` of a binding rebound on two merged branches.

Every check door reports the binding ``contested`` (check/contests.py), but verify
and log listed ground contests only: verify said ``ledger ok`` and exited 0, log named
nothing. Now both list the binding's finding with the routes ``forest check`` prints
(route_contest.py); verify exits 1 as for a contest, its ``--json`` finding in the
findings schema's shape; the route, pasted, settles it and verify exits 0.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import jsonschema

from tests.helpers.cli import FOREST
from tests.helpers.git import git, git_env, pasted
from tests.helpers.rebound import merged_clones

ROOT = Path(__file__).resolve().parents[2]


def _run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **git_env()}
    return subprocess.run(
        [FOREST, *args], cwd=root, env=env, capture_output=True, text=True, check=False
    )


def _contested(findings: list[dict[str, Any]]) -> dict[str, Any]:
    found = [f for f in findings if f["kind"] == "contested"]
    assert len(found) == 1, findings
    return found[0]


def _finding_schema() -> dict[str, Any]:
    doc = json.loads((ROOT / "docs" / "findings.schema.json").read_text(encoding="utf-8"))
    return {"$ref": "#/$defs/FindingModel", "$defs": doc["$defs"]}


def test_verify_and_log_of_binding_rebound_twice_detected(tmp_path: Path) -> None:
    b, _ = merged_clones(tmp_path)
    checked = _contested(json.loads(_run(b, "check", "--json").stdout)["findings"])
    proc = _run(b, "verify", "--json")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    said = _contested(json.loads(proc.stdout)["findings"])
    jsonschema.Draft202012Validator(_finding_schema()).validate(said)
    for key in ("selector", "binding", "detail", "routes"):
        assert said[key] == checked[key], key  # the one route builder
    text = _run(b, "verify")
    assert text.returncode == 1 and text.stderr.startswith("forest: 1 binding"), text.stderr
    assert "rebound on two merged branches" in text.stdout
    assert checked["routes"][0]["command"] in text.stdout
    log = _run(b, "log")
    assert log.returncode == 0 and "rebound on two merged branches" in log.stdout, log.stdout
    assert checked["routes"][1]["command"] in log.stdout


def test_verify_rebound_twice_route_pasted_recovers(tmp_path: Path) -> None:
    b, _ = merged_clones(tmp_path)
    printed = _run(b, "verify").stdout
    (line,) = [x for x in printed.splitlines() if "or move it to" in x]
    command = line.split(": ", 1)[1]
    done = pasted(b, command)  # the line as verify prints it
    assert done.returncode == 0, done.stderr
    git(b, "commit", "-q", "-m", "settle")
    again = _run(b, "verify")
    assert again.returncode == 0, again.stdout + again.stderr
    assert "rebound" not in _run(b, "log").stdout
