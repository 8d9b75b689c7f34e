"""The README's Quick start is what it says: two commands (tour, tests), CI in step;
no page installs forest-files by a name no index serves; the README's JSON paragraph
names every field of docs/findings.schema.json.

Stores: temporary directories only.
Refuses: nothing; fails when the README, the tour or .ci/run drift apart.
Returns: nothing.
Test: this file.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
QUICKSTART = ROOT / "examples" / "quickstart.py"
CI_RUN = ROOT / ".ci" / "run"
CHANGELOG = ROOT / "CHANGELOG.md"
SCHEMA = ROOT / "docs" / "findings.schema.json"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md")), *sorted(ROOT.glob("examples/*/README.md"))]
# ``pip install 'forest-files[mcp]'``: the distribution by name (a URL's ``/forest-files@``
# and ``pip install --user`` of forest-files in prose are not).
BY_NAME = re.compile(r"pipx? install (?:-\S+ )*['\"]?forest-files(?![\w@/-])")
FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)


def _section(text: str, title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert match, f"README.md has no '## {title}' section"
    return match.group(1)


def _quick_start_commands() -> list[str]:
    blocks = FENCE.findall(_section(README.read_text(encoding="utf-8"), "Quick start"))
    commands = []
    for block in blocks:
        lines = [line for line in block.splitlines() if line.strip()]
        assert len(lines) == 1, f"a Quick start block must be one shell line: {block!r}"
        commands.append(lines[0].strip())
    return commands


def _python_blocks() -> list[str]:
    text = README.read_text(encoding="utf-8")
    pattern = re.compile(r"^```python\n(.*?)^```", re.M | re.S)
    return pattern.findall(text)


def test_readme_quick_start_has_two_commands_accepted() -> None:
    commands = _quick_start_commands()
    assert len(commands) == 2, commands
    tour, tests = commands
    assert tour.startswith("python3 -m venv .venv && ")
    assert tour.endswith(" && .venv/bin/forest tour")  # tests/doors/test_tour.py runs it
    assert "pip install" in tour and "-e" not in tour.split()
    assert tests.startswith("python3 -m venv .venv && ")
    assert "'.[test]'" in tests
    assert tests.endswith('-m pytest -n auto -m "not slow"')


def test_quickstart_runs_from_any_directory_accepted(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, str(QUICKSTART)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    for expected in (
        "commit_turn wrote pair",
        "recall_similar('Elias') keys: ['jurisdiction', 'id', 'excerpt'",
        "root_to_ground: inference is ground: True",
        "old entry is ground: False",
        "new entry is ground: True",
        "refused praise-only root: enthusiasm is not root",
        "refused raw UPDATE: entries are append-only",
        "tour complete",
    ):
        assert expected in out, f"{expected!r} not in quickstart output:\n{out}"
    assert list(tmp_path.iterdir()) == [], "the tour must leave the working directory alone"


def test_readme_python_examples_run_accepted(tmp_path: Path) -> None:
    blocks = _python_blocks()
    assert blocks, "README.md should show the library in a python block"
    for block in blocks:
        result = subprocess.run(
            [sys.executable, "-c", block],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode == 0, f"README example failed:\n{block}\n{result.stderr}"


def test_ci_run_uses_readme_test_command_accepted() -> None:
    tests = _quick_start_commands()[1]
    install, _, run = (part.strip() for part in tests.rpartition("&&"))
    # ".venv/bin/python -m pytest" -> the interpreter-independent part "-m pytest".
    run_args = run.split("bin/python", 1)[1].strip()
    script = CI_RUN.read_text(encoding="utf-8")
    assert script.startswith("#!/usr/bin/env bash\n")
    assert "set -euo pipefail" in script
    assert "python3 -m venv" in script
    runs = [
        line
        for line in script.splitlines()
        if re.search(r"bin/python\"?\s+" + re.escape(run_args) + r"\s*$", line)
    ]
    assert runs, f".ci/run must run `python {run_args}` as the README does"
    extra = install.rsplit("pip install", 1)[1].split()[-1]
    installs = [
        line
        for line in script.splitlines()
        if "pip install" in line and line.rstrip().endswith(extra)
    ]
    assert installs, f".ci/run must install {extra} as the README does"
    assert all(" -e " not in line for line in installs), ".ci/run must not install editable"


def test_docs_install_forest_files_by_name_refused() -> None:
    """Until a release is tagged (CHANGELOG.md has no ``## [X.Y.Z]``), no index serves
    forest-files: a page that installs it by name (``pip install 'forest-files[mcp]'``)
    fails pasted, or installs whatever else holds the name. Install from the checkout."""
    assert BY_NAME.search("pip install 'forest-files[mcp]'")
    assert not BY_NAME.search("pipx install 'git+https://x/forest-files@C'")
    if re.search(r"^## \[\d", CHANGELOG.read_text(encoding="utf-8"), re.M):
        pytest.skip("a release is tagged: an index may serve forest-files by name")
    shown = [
        f"{page.relative_to(ROOT)}:{n}: {line.strip()}"
        for page in PAGES
        for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
        if BY_NAME.search(line)
    ]
    assert shown == []


def test_readme_json_names_every_schema_field_accepted() -> None:
    """A newcomer reads the JSON a door prints from the README's **JSON.** paragraph:
    every field of the document, of a finding, a route and ``forest ci``'s range is
    named there, in a code span (``where`` and the range's fields were not)."""
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    fields = {*schema["properties"]}
    for model in schema["$defs"].values():
        fields |= {*model["properties"]}
    text = README.read_text(encoding="utf-8")
    match = re.search(r"^\*\*JSON\.\*\* (.*?)\n\n", text, re.M | re.S)
    assert match, "README.md has no **JSON.** paragraph"
    named = set(re.findall(r"`([a-z_]+)`", match.group(1)))
    assert sorted(fields - named) == []
