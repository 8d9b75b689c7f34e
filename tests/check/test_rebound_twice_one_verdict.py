"""Every door's JSON of a binding rebound on two merged branches: one verdict, contested.

A door's JSON lists every binding judged (docs/findings.schema.json): the check's
report holds the binding's ``clean`` finding (its section holds its ground where it
stands) and the ``contested`` finding of its two rebinds (check/contests.py), and
``forest check --json``, ``check --staged``, ``check --rev``, ``check PATH`` and ``forest
ci --format json`` listed both: one binding, two verdicts. Each now lists the one,
contested, at the binding's place in the list (CheckReport.rows: status's rows too),
schema-valid; the text and the exit codes are as they were.
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

DOORS = (
    ("check", "--json"),
    ("check", "--staged", "--json"),
    ("check", "--rev", "HEAD", "--json"),
    ("check", "--json", "B.md"),
    ("check", "--json", "C.md"),
    ("ci", "--format", "json"),
    ("status", "--json"),
)


def _run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **git_env()}
    return subprocess.run(
        [FOREST, *args], cwd=root, env=env, capture_output=True, text=True, check=False
    )


def _schema() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((ROOT / "docs" / "findings.schema.json").read_text("utf-8"))
    return doc


def test_every_door_json_of_binding_rebound_twice_one_verdict_detected(tmp_path: Path) -> None:
    b, _ = merged_clones(tmp_path)
    validator = jsonschema.Draft202012Validator(_schema())
    for args in DOORS:
        proc = _run(b, *args)
        assert proc.returncode == (0 if args[0] == "status" else 1), (args, proc.stderr)
        doc = json.loads(proc.stdout)
        validator.validate(doc)
        bound = [f for f in doc["findings"] if f["binding"]]
        assert [f["kind"] for f in bound] == ["contested"], (args, bound)
        assert doc["summary"].endswith(": 1 not clean"), (args, doc["summary"])  # as before
