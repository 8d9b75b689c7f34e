"""The line ``forest check`` ends with on standard error points at where its routes went
(doors/fastcheck.py): above it only when standard output went where standard error
goes (the terminal, ``2>&1``); the JSON's ``routes`` fields after ``--json``; the file
standard output was sent to.

The installed console script in a process of its own, standard output sent to a file.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from tests.helpers.cli import FOREST
from tests.helpers.custody import adopted_repo
from tests.helpers.git import git_env, write

DOC = "# Doc\n\nthe sky is blue\n"


def _check(root: Path, out: Path, *args: str, merged: bool = False) -> list[str]:
    """``forest check ARGS > out`` (``2>&1`` when ``merged``): its standard error lines."""
    with out.open("wb") as sink:
        done = subprocess.run(
            [FOREST, "check", *args],
            cwd=root,
            env={**os.environ, **git_env()},
            stdout=sink,
            stderr=subprocess.STDOUT if merged else subprocess.PIPE,
            check=False,
        )
    assert done.returncode == 1
    return [] if merged else done.stderr.decode().splitlines()


def test_check_routes_sent_to_file_points_there_detected(tmp_path: Path) -> None:
    """``forest check --json > out.json`` said ``see the routes above`` on the terminal,
    where nothing was printed above it: the line now names the JSON's routes fields;
    ``forest check > out.txt`` names the file; ``2>&1`` keeps ``see the routes above``,
    true there."""
    root = adopted_repo(tmp_path, "doc.md", DOC)
    write(root, "doc.md", DOC.replace("blue", "green"))
    out = tmp_path / "out.json"
    err = _check(root, out, "--json")
    assert err == ["forest: 1 finding(s) not clean; its routes are in the JSON's routes fields"]
    (finding,) = [f for f in json.loads(out.read_text())["findings"] if f["kind"] != "clean"]
    assert [r["label"] for r in finding["routes"]] == ["restore ground", "adopt the change"]
    text = tmp_path / "out.txt"
    err = _check(root, text)
    assert err == [f"forest: 1 finding(s) not clean; its routes are in {text}"], err
    assert "restore ground: forest restore doc.md" in text.read_text()
    _check(root, text, merged=True)  # one file: the routes are above the line
    said = text.read_text().splitlines()
    assert said[-1] == "forest: 1 finding(s) not clean; see the routes above", said
    assert any(line.startswith("  restore ground: ") for line in said), said
