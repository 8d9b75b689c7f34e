"""A binding rebound on two merged branches is said by every door, not accepted silently.

``forest rebind A.md#X B.md#X`` on one branch and ``... C.md#X`` on another, merged:
every index settles the binding at one place (custody/rebind_tips.py), but ``forest
check``, ``check --staged`` (the hook), ``forest status`` and ``forest ci`` all said
clean, so the other branch's rebind was dropped with no door saying so. Now each
reports a ``contested`` finding of the binding naming both places, routed to one more
``forest rebind`` from where it stands (there, or to the other place); pasted, the
finding goes, and every clone agrees after a pull.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from forest_files.check import contests
from forest_files.custody.repository import Repository
from tests.helpers import rebound
from tests.helpers.cli import FOREST, forest, ok
from tests.helpers.git import commit_all, git, git_env, pasted, write
from tests.helpers.rebound import BODY, merged_clones


def _run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **git_env()}
    return subprocess.run(
        [FOREST, *args], cwd=root, env=env, capture_output=True, text=True, check=False
    )


@pytest.fixture
def merged(tmp_path: Path) -> tuple[Path, Path]:
    return merged_clones(tmp_path)


def _said(doc: dict[str, Any]) -> dict[str, Any]:
    """The one ``contested`` finding of a door's JSON: the binding rebound twice."""
    found = [f for f in doc["findings"] if f["kind"] == "contested"]
    assert len(found) == 1, doc["findings"]
    assert doc["ok"] is False
    return found[0]


def test_binding_rebound_on_two_merged_branches_every_door_detected(
    merged: tuple[Path, Path],
) -> None:
    b, c = merged
    said = []
    for repo in (b, c):
        proc = _run(repo, "check", "--json")
        assert proc.returncode == 1, proc.stdout + proc.stderr
        said.append(_said(json.loads(proc.stdout)))
    assert said[0]["selector"] == said[1]["selector"]  # both clones: the same place
    stands = said[0]["selector"]
    other = ({"B.md#X", "C.md#X"} - {stands}).pop()
    assert stands in said[0]["detail"] and other in said[0]["detail"]
    argv = [r["argv"][0] for r in said[0]["routes"]]
    assert argv == [["forest", "rebind", stands, stands], ["forest", "rebind", stands, other]]
    text = _run(b, "check")
    assert text.returncode == 1 and "rebound on two merged branches" in text.stdout
    status = _run(b, "status")
    assert status.returncode == 0 and "contested" in status.stdout, status.stdout
    staged = _run(b, "check", "--staged", "--json")  # what the pre-commit hook runs
    assert staged.returncode == 1 and _said(json.loads(staged.stdout))["selector"] == stands
    ci = _run(b, "ci", "--format", "json")
    assert ci.returncode == 1 and _said(json.loads(ci.stdout))["selector"] == stands


@pytest.mark.parametrize("pick", [0, 1])
def test_binding_rebound_twice_routes_pasted_recovers(merged: tuple[Path, Path], pick: int) -> None:
    b, c = merged
    said = _said(json.loads(_run(b, "check", "--json").stdout))
    route = said["routes"][pick]
    assert route["argv"][1] == ["git", "add", "--", ".forest/ledger"]  # the ledger, for the commit
    done = pasted(b, route["command"])  # the one line, as printed
    assert done.returncode == 0, done.stderr
    git(b, "commit", "-q", "-m", "settle")  # what the route staged: the ledger
    place = route["argv"][0][-1]
    assert _run(b, "check").returncode == 0
    git(c, "pull", "-q", "--no-rebase", "--no-edit", str(b), "HEAD")
    for repo in (b, c):
        doc = json.loads(_run(repo, "check", "--json").stdout)
        assert doc["ok"] is True and [f["selector"] for f in doc["findings"]] == [place]


def test_no_binding_rebound_twice_costs_no_query_more_accepted(tmp_path: Path) -> None:
    """A history where no binding was rebound more than once: the doors' contest read
    asks the one query it asked before. Rebound twice in one history (each rebind
    depending on the last): its events are read, and nothing is said."""
    origin = rebound.origin(tmp_path)
    counts = []
    for dest in ("B.md", "C.md"):
        write(origin, dest, BODY)
        commit_all(origin, dest)
        ok(origin, "rebind", forest_place(origin), f"{dest}#X")
        commit_all(origin, f"rebind to {dest}")
        asked: list[str] = []
        with Repository(origin) as r:
            conn = r.store().conn
            conn.set_trace_callback(asked.append)
            try:
                assert contests.of_store(conn, []) == []
            finally:
                conn.set_trace_callback(None)
        counts.append(len(asked))
    assert counts == [1, 3]  # the contests' query; then its events and their deps


def forest_place(repo: Path) -> str:
    (finding,) = json.loads(forest(repo, "check", "--json").stdout)["findings"]
    return str(finding["selector"])
