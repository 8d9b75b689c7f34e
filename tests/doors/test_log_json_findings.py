"""``forest log --json`` of a ledger holding a binding rebound on two merged branches.

The text log prints the binding's ``contested`` finding with its routes, and verify's
``--json`` lists it in ``findings``; ``forest log --json`` had no ``findings`` key (its
acts and the ground contests' ids only), so a script reading it saw nothing contested.
Now it lists the findings the text shows, each in the findings schema's shape, the same
as verify's.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import jsonschema

from tests.helpers.cli import FOREST
from tests.helpers.git import git_env
from tests.helpers.rebound import merged_clones

ROOT = Path(__file__).resolve().parents[2]


def _json(root: Path, *args: str) -> dict[str, Any]:
    env = {**os.environ, **git_env()}
    done = subprocess.run(
        [FOREST, *args, "--json"], cwd=root, env=env, capture_output=True, text=True, check=False
    )
    out: dict[str, Any] = json.loads(done.stdout)
    return out


def test_log_json_lists_the_rebound_binding_as_verify_does_detected(tmp_path: Path) -> None:
    b, _ = merged_clones(tmp_path)
    logged = _json(b, "log")
    verified = _json(b, "verify")
    assert logged["findings"] == verified["findings"]  # one finding model, one route builder
    (said,) = logged["findings"]
    assert said["kind"] == "contested" and said["binding"], said
    assert said["routes"] and all(r["command"] for r in said["routes"]), said
    doc = json.loads((ROOT / "docs" / "findings.schema.json").read_text(encoding="utf-8"))
    finding = {"$ref": "#/$defs/FindingModel", "$defs": doc["$defs"]}
    for found in logged["findings"]:
        jsonschema.Draft202012Validator(finding).validate(found)
    assert logged["acts"] and logged["contested"] == []  # as before
