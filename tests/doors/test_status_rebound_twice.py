"""``forest status`` of a binding rebound on two merged branches: one row, contested.

The check's report holds the binding's ``clean`` finding (its section holds its
ground where it stands) and, beside it, the ``contested`` finding of its two
rebinds (check/contests.py); status printed both, so one binding had two rows, one
saying clean. Now status shows one row per binding, the contested one, in text and
``--json`` (valid in the findings schema), and, once a route settles it, clean.
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


def _status(root: Path) -> tuple[list[str], dict[str, Any]]:
    text = _run(root, "status")
    assert text.returncode == 0, text.stderr
    proc = _run(root, "status", "--json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    schema = json.loads((ROOT / "docs" / "findings.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(doc)
    return text.stdout.splitlines(), doc


def test_status_of_binding_rebound_twice_one_contested_row_detected(tmp_path: Path) -> None:
    b, _ = merged_clones(tmp_path)
    rows, doc = _status(b)
    assert len(rows) == 1 and rows[0].startswith("contested "), rows
    (finding,) = doc["findings"]
    assert finding["kind"] == "contested" and finding["routes"], finding
    assert doc["summary"].startswith("1 binding(s) checked") and doc["summary"].endswith(
        "1 not clean"
    )
    done = pasted(b, finding["routes"][0]["command"])
    assert done.returncode == 0, done.stderr
    git(b, "commit", "-q", "-m", "settle")
    rows, doc = _status(b)
    assert len(rows) == 1 and rows[0].startswith("clean "), rows
    assert [f["kind"] for f in doc["findings"]] == ["clean"]
