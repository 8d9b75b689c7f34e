"""The line ``forest check``, ``forest ci`` and ``forest verify`` end with on standard
error points at where their routes went (doors/streams.py ``routes_where``): above it
only when standard output went where standard error goes (the terminal, ``2>&1``); the
JSON's ``routes`` fields after ``--json``; the file standard output was sent to.

The installed console script in a process of its own, standard output sent to a file.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from tests.helpers.cli import FOREST
from tests.helpers.custody import adopted_repo
from tests.helpers.git import commit_all, git_env, write

DOC = "# Doc\n\nthe sky is blue\n"


def _check(
    root: Path, out: Path, *args: str, merged: bool = False, door: str = "check"
) -> list[str]:
    """``forest DOOR ARGS > out`` (``2>&1`` when ``merged``): its standard error lines."""
    with out.open("wb") as sink:
        done = subprocess.run(
            [FOREST, door, *args],
            cwd=root,
            env={**os.environ, **git_env()},
            stdout=sink,
            stderr=subprocess.STDOUT if merged else subprocess.PIPE,
            check=False,
        )
    assert done.returncode == (3 if door == "verify" else 1), done.stderr
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


def test_ci_and_verify_routes_sent_to_file_points_there_detected(tmp_path: Path) -> None:
    """``forest ci --format json > out.json`` ended with "1 finding(s); see above", and
    ``forest verify --json > out.json`` with "see above, then …", on a terminal where
    nothing was printed above: both now say what ``forest check`` says."""
    root = adopted_repo(tmp_path, "doc.md", DOC)
    write(root, "doc.md", DOC.replace("blue", "green"))
    commit_all(root, "drift")
    out, text = tmp_path / "out.json", tmp_path / "out.txt"
    err = _check(root, out, "--format", "json", door="ci")
    assert err == ["forest: 1 finding(s); its routes are in the JSON's routes fields"], err
    err = _check(root, text, door="ci")
    assert err == [f"forest: 1 finding(s); its routes are in {text}"], err
    _check(root, text, merged=True, door="ci")
    assert text.read_text().splitlines()[-1] == "forest: 1 finding(s); see the routes above"
    write(root, ".forest/ledger/stray", "not a segment\n")
    err = _check(root, out, "--json", door="verify")
    shown = "forest: ledger has 1 fault(s); its routes are in the JSON's routes fields, then "
    assert len(err) == 1 and err[0].startswith(shown), err
    (fault,) = json.loads(out.read_text())["faults"]
    assert fault["routes"][0]["command"] == "rm -- .forest/ledger/stray", fault
    err = _check(root, text, door="verify")
    assert len(err) == 1 and f"fault(s); its routes are in {text}, then " in err[0], err
