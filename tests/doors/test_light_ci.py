"""``forest ci`` on the light door (doors/gatecmd.py): the same gate, report and exit
code as the typer command, without typer, click or pydantic; anything the light
parser does not plainly know is answered by the full CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.custody import DOC, init_and_adopt
from tests.helpers.git import commit_all, git, git_env, make_repo, write
from tests.helpers.imports import loaded
from tests.helpers.template import copied_from

# The slow lane (.ci/run runs it; the README's fast command leaves it out):
# the light and the full CLI run side by side in every format.
pytestmark = pytest.mark.slow

HEAVY = {"typer", "pydantic", "click", "rich", "git"}
ENTRY = "from forest_files.doors.entry import main; main()"
FULL = "from forest_files.doors.cli import main; main()"


def _build(where: Path) -> Path:
    root = make_repo(where)
    write(root, "a.md", DOC)
    init_and_adopt(root, ["a.md#Keep"])
    commit_all(root, "adopt")
    git(root, "checkout", "-q", "-b", "feature")
    write(root, "a.md", DOC.replace("kept words", "kept words, edited"))
    commit_all(root, "an edit of governed text")
    return root


repo = copied_from(_build)


def _run(
    root: Path, code: str, *args: str, imports: bool = False
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **git_env()}
    env.pop("GITHUB_STEP_SUMMARY", None)
    if imports:
        env["FOREST_DEBUG_IMPORTS"] = "1"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _imports(proc: subprocess.CompletedProcess[str]) -> set[str]:
    return loaded(proc.stderr)


@pytest.mark.parametrize("fmt", ["json", "text", "sarif"])
def test_light_ci_same_report_and_exit_as_full_cli_accepted(repo: Path, fmt: str) -> None:
    args = ("ci", "--base", "main", "--format", fmt)
    light = _run(repo, ENTRY, *args)
    full = _run(repo, FULL, *args)
    assert light.returncode == full.returncode == 1, light.stderr + full.stderr
    assert light.stdout == full.stdout
    # the routes went down a pipe of their own: not "above" on standard error
    went = "are in the JSON's routes fields" if fmt == "json" else "went to standard output"
    assert light.stderr == full.stderr == f"forest: 1 finding(s); its routes {went}\n"
    if fmt == "json":
        assert [f["kind"] for f in json.loads(light.stdout)["findings"]] == ["drifted"]


def test_light_ci_loads_no_cli_framework_accepted(repo: Path) -> None:
    proc = _run(repo, ENTRY, "ci", "--base=main", "--format=json", imports=True)
    assert proc.returncode == 1, proc.stderr
    assert not _imports(proc) & HEAVY


def test_light_ci_writes_each_report_accepted(repo: Path) -> None:
    proc = _run(repo, ENTRY, "ci", "--report", "junit=out/r.xml", "--report=json=out/r.json")
    assert proc.returncode == 1, proc.stderr
    assert (repo / "out" / "r.xml").read_text(encoding="utf-8").startswith("<?xml")
    assert json.loads((repo / "out" / "r.json").read_text(encoding="utf-8"))["door"] == "ci"


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--report", "sarif"], "is not FORMAT=FILE"),
        (["--report", "xml=x.xml"], "is not FORMAT=FILE"),
        (["--format", "xml"], "--format"),
        (["--base"], "--base"),
        (["--bogus"], "--bogus"),
    ],
)
def test_light_ci_unplain_option_answered_by_full_cli_refused(
    repo: Path, args: list[str], says: str
) -> None:
    """A bad option is the full CLI's usage error (exit 2), before the gate runs:
    nothing written, the same message as typer's own door."""
    light = _run(repo, ENTRY, "ci", *args)
    full = _run(repo, FULL, "ci", *args)
    assert light.returncode == full.returncode == 2
    assert says in light.stderr
    assert light.stderr == full.stderr
    assert not (repo / "x.xml").exists()


def test_light_ci_help_is_typers_accepted(repo: Path) -> None:
    proc = _run(repo, ENTRY, "ci", "--help")
    assert proc.returncode == 0
    assert "--report" in proc.stdout and "FORMAT=FILE" in proc.stdout
