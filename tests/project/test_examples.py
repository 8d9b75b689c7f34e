"""The examples run as a user runs them: one command each, the installed ``forest`` on PATH,
in a temporary copy, leaving nothing behind; their key lines show.

Stores: temporary directories only.
Refuses: nothing; fails when an example stops running or stops showing what it says.
Returns: nothing.
Test: this file.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from forest_files.doors.tour.session import forest_argv

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
NAMES = ("writer-canon", "research-notes", "adr-gate")


def _run(name: str, tmp_path: Path) -> str:
    """``bash examples/NAME/run.sh`` from a copy of examples/, with ``forest`` on PATH,
    TMPDIR in ``tmp_path`` (checked empty afterwards) and a HOME with no git identity."""
    copy = tmp_path / "examples"
    shutil.copytree(EXAMPLES / name, copy / name)
    shutil.copy2(EXAMPLES / "lib.sh", copy / "lib.sh")
    before = sorted(p.relative_to(copy) for p in copy.rglob("*"))
    tmp, home = tmp_path / "tmp", tmp_path / "home"
    tmp.mkdir()
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    bin_dir = str(Path(forest_argv()[0]).parent)
    env.update(
        PATH=os.pathsep.join([bin_dir, env.get("PATH", "")]), TMPDIR=str(tmp), HOME=str(home)
    )
    done = subprocess.run(
        ["bash", f"examples/{name}/run.sh"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert list(tmp.iterdir()) == [], "an example must remove its temporary repository"
    assert sorted(p.relative_to(copy) for p in copy.rglob("*")) == before
    return done.stdout


def _shows(out: str, *expected: str) -> None:
    for line in expected:
        assert line in out, f"{line!r} not in the example's output:\n{out}"


@pytest.mark.slow  # the watcher's step: 15-40 s on a shared 2-core machine
def test_example_writer_canon_runs_accepted(tmp_path: Path) -> None:
    out = _run("writer-canon", tmp_path)
    _shows(
        out,
        "bound canon/characters/elias.md#Elias/History",
        "$ git commit -q -m 'Elias leaves in spring'\n    forest-files: commit refused",
        "restored canon/characters/elias.md#Elias/History",
        "1 open proposal(s)",
        "adopted proposal ",
        "unbound canon/characters/tobias.md#Tobias/Voice",
        "forest-files: warning: unbound canon/characters/tobias.md#Tobias/Appearance",
        "3 finding(s)\n    forest: 3 finding(s); see the routes above\n    [exit 1]",
        "forest ci: 9 binding(s); range ",
        "writer-canon: done",
    )
    assert out.rstrip().splitlines()[-3].endswith("judged; clean")


@pytest.mark.slow  # a whole example end to end: 5-15 s; the doors it shows are tested fast
def test_example_research_notes_runs_accepted(tmp_path: Path) -> None:
    out = _run("research-notes", tmp_path)
    _shows(
        out,
        "bound notes/commons.md@quote-ostrom",
        "bound notes/lighthouses.md@synthesis-tolls",
        "5 binding(s) checked against the working tree: 0 not clean\n$ git commit",
        "drifted notes/commons.md@quote-ostrom",
        "restored notes/commons.md@quote-ostrom",
        "by Ben Reader <ben@example.org>: Synthesis by Ben Reader, from Coase 1974",
        "recall 'commons': 3 lead(s)",
        "- [home, ground] > Institutions are rarely",
        "ground, adopted by Ben Reader <ben@example.org>: Synthesis by Ben Reader",
        "research-notes: done",
    )


@pytest.mark.slow  # a whole example end to end: 5-15 s; the doors it shows are tested fast
def test_example_adr_gate_runs_accepted(tmp_path: Path) -> None:
    out = _run("adr-gate", tmp_path)
    _shows(
        out,
        "bound docs/adr/0001-record-architecture-decisions.md",
        "unbound docs/adr/0004-keep-the-index-in-the-git-directory.md required by [require]",
        "4 binding(s) checked against the working tree: 0 not clean",
        "forest-files: commit refused",
        "$ forest ci --base main --format sarif > forest.sarif",
        "forest/drifted error docs/adr/0002-use-madr-for-new-decisions.md:1",
        "forest ci: 4 binding(s); range ",
        "adr-gate: done",
    )


def test_examples_each_documented_accepted() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in NAMES:
        command = f"bash examples/{name}/run.sh"
        assert command in (EXAMPLES / name / "README.md").read_text(encoding="utf-8")
        assert command in (EXAMPLES / name / "run.sh").read_text(encoding="utf-8")
        assert command in readme, f"README.md's Examples section should name {command}"


def test_example_without_forest_on_path_refused(tmp_path: Path) -> None:
    """No ``forest`` on PATH: one line saying how to get it, exit 2, nothing written."""
    bash = shutil.which("bash")
    assert bash is not None
    env = {"PATH": "/nonexistent", "TMPDIR": str(tmp_path), "HOME": str(tmp_path)}
    done = subprocess.run(
        [bash, str(EXAMPLES / "adr-gate" / "run.sh")],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("run.sh: no forest on PATH") and done.stderr.count("\n") == 1
    assert list(tmp_path.iterdir()) == []
