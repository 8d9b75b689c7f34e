"""Contested ground bound to no file, judged alike by every door.

Two clones each supersede the same ground, and the ground is bound to no file: its
binding was retired first, or it was adopted as text only. Merged, the ground has
two live heads. The pre-commit hook always refused that merge; ``forest check``,
``check --staged``, ``check --rev`` and ``forest ci`` reported it clean. Now every
door reports one ``contested`` finding of no path, with the same routes (one
``forest resolve`` per head), and all are clean once it is resolved.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

import pytest

from forest_files.custody.repository import Repository
from forest_files.doors import hooks as githooks
from forest_files.kernel.hashing import hash_body
from tests.helpers import cli as in_process
from tests.helpers.cli import FOREST
from tests.helpers.custody import BY, init_and_adopt, retire
from tests.helpers.git import commit_all, git, git_env, make_repo, write
from tests.helpers.git import pasted as pasted_in
from tests.helpers.template import built_once, copy_repo

CANON = "# Canon\n\n## Rules\n\nThe rule stands.\n\n## Other\n\nOther words.\n"
RULES = "canon.md#Canon/Rules"
WORDS = "I adopt these words as written"


def run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **git_env()}
    return subprocess.run(
        list(args), cwd=root, env=env, capture_output=True, text=True, timeout=300, check=False
    )


def _ground_of(root: Path) -> str:
    doc = json.loads(in_process.ok(root, "status", "--json").stdout)
    (finding,) = doc["findings"]
    return str(finding["ground"])


def _adopt_text(root: Path, text: str) -> str:
    with Repository(root) as r:
        return r.adopt_text(text, words=WORDS, by=BY)


def _supersede(root: Path, old: str, text: str) -> None:
    with Repository(root) as r:
        r.supersede(old, text, words=WORDS, by=BY, expected_body_hash=hash_body(text))


def _origin(tmp_path: Path, how: str) -> tuple[Path, str]:
    """A repository whose ground is live but bound to no file; its content id."""
    origin = make_repo(tmp_path, "origin")
    write(origin, "canon.md", CANON)
    init_and_adopt(origin, [RULES])
    commit_all(origin, "adopt")
    if how == "retired":
        ground = _ground_of(origin)
        retire(origin, RULES)
        commit_all(origin, "retire the binding; the ground stays")
    else:
        ground = _adopt_text(origin, "Ground adopted as text only.")
        commit_all(origin, "ground as text")
    return origin, ground


def _build_sides(tmp_path: Path, how: str) -> Path:
    """Clones b and c each supersede the ground; b has fetched c's main (FETCH_HEAD)."""
    origin, ground = _origin(tmp_path, how)
    b, c = tmp_path / "b", tmp_path / "c"
    git(tmp_path, "clone", "-q", str(origin), str(b))
    git(tmp_path, "clone", "-q", str(origin), str(c))
    _supersede(b, ground, "B's version.")
    commit_all(b, "b")
    _supersede(c, ground, "C's version.")
    commit_all(c, "c")
    git(b, "fetch", "-q", str(c), "main")
    return b


Sides = Callable[[Path, str], Path]


@pytest.fixture(scope="module")
def sides(tmp_path_factory: pytest.TempPathFactory) -> Sides:
    """``sides(tmp_path, how)``: a private copy of clone b of ``_build_sides``, the
    three repositories built once per ``how`` for this module."""
    built: dict[str, Path] = {}

    def _copy(tmp_path: Path, how: str) -> Path:
        if how not in built:
            built[how] = built_once(tmp_path_factory, lambda d: _build_sides(d, how))
        return copy_repo(built[how], tmp_path / "b")

    return _copy


def _merged(sides: Sides, tmp_path: Path, how: str) -> Path:
    b = sides(tmp_path, how)
    git(b, "merge", "-q", "--no-ff", "--no-verify", "--no-edit", "FETCH_HEAD")
    return b


def _contest(doc: dict[str, Any]) -> dict[str, Any]:
    """The one contested finding of no path in a door's JSON, checked."""
    found = [f for f in doc["findings"] if f["kind"] != "clean"]
    assert [(f["kind"], f["path"]) for f in found] == [("contested", "")], found
    (contest,) = found
    heads = contest["candidates"]
    assert len(heads) == 2 and heads == sorted(heads) and contest["selector"] == heads[0]
    assert contest["ground"] is None  # no single ground: the heads are the candidates
    picks = [r["argv"][0] for r in contest["routes"]]
    assert picks == [["forest", "resolve", heads[0], "--pick", h, "--words", "…"] for h in heads]
    assert doc["ok"] is False
    return contest


HOW = ["retired", "text-only"]


@pytest.mark.parametrize("how", HOW)
def test_check_contested_ground_bound_to_no_file_detected(
    sides: Sides, tmp_path: Path, how: str
) -> None:
    b = _merged(sides, tmp_path, how)
    proc = run(b, FOREST, "check", "--json")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    _contest(json.loads(proc.stdout))
    text = run(b, FOREST, "check")
    assert text.returncode == 1 and "contested " in text.stdout and "forest resolve" in text.stdout
    for head in _contest(json.loads(proc.stdout))["candidates"]:  # which head is whose
        assert f"  head {head} adopted by {BY}: “{WORDS}”\n" in text.stdout, text.stdout
    again = run(b, FOREST, "check")  # the cached contests (check/contests.py) say the same
    assert again.returncode == 1 and again.stdout == text.stdout
    rev = run(b, FOREST, "check", "--rev", "HEAD", "--json")
    assert rev.returncode == 1
    _contest(json.loads(rev.stdout))
    status = json.loads(run(b, FOREST, "status", "--json").stdout)
    _contest(status)


@pytest.mark.parametrize("how", HOW)
def test_status_text_names_where_a_contests_routes_are_pasted_detected(
    sides: Sides, tmp_path: Path, how: str
) -> None:
    """``forest status``'s table row of a contest bound to no file holds only its head
    and ``-``: the line under the table names the check that prints its routes, and
    that line's command, pasted, prints each head's ``forest resolve``."""
    b = _merged(sides, tmp_path, how)
    status = run(b, FOREST, "status")
    assert status.returncode == 0 and "contested " in status.stdout, status.stdout
    assert "forest resolve" not in status.stdout  # the table stays rows
    assert status.stderr == "forest: 1 contested: `forest check` prints its routes\n"
    (pasted,) = re.findall(r"`([^`]+)`", status.stderr)
    proc = pasted_in(b, pasted)
    heads = _contest(json.loads(run(b, FOREST, "check", "--json").stdout))["candidates"]
    assert proc.returncode == 1 and all(f"--pick {h}" in proc.stdout for h in heads)
    clean = sides(tmp_path / "clean", how)  # before the merge: no line under the table
    quiet = run(clean, FOREST, "status")
    assert quiet.returncode == 0 and quiet.stderr == "", quiet.stderr


@pytest.mark.parametrize("how", HOW)
def test_check_staged_contested_merge_bound_to_no_file_detected(
    sides: Sides, tmp_path: Path, how: str
) -> None:
    b = sides(tmp_path, how)
    assert run(b, FOREST, "check", "--staged", "--json").returncode == 0  # HEAD judged clean
    git(b, "merge", "-q", "--no-ff", "--no-commit", "FETCH_HEAD")
    full = run(b, FOREST, "check", "--staged", "--json")
    assert full.returncode == 1, full.stdout + full.stderr
    heads = _contest(json.loads(full.stdout))["candidates"]
    quick = run(b, FOREST, "check", "--staged")  # the hook's own path: HEAD judged clean
    assert "the staged change; HEAD judged clean" in quick.stdout, quick.stdout
    assert quick.returncode == 1 and "contested " in quick.stdout, quick.stdout
    assert all(f"  head {h} adopted by {BY}: “{WORDS}”" in quick.stdout for h in heads)


@pytest.mark.parametrize("how", HOW)
def test_installed_hook_contested_merge_bound_to_no_file_refused(
    sides: Sides, tmp_path: Path, how: str
) -> None:
    b = sides(tmp_path, how)
    githooks.install(b)
    head = git(b, "rev-parse", "HEAD")
    proc = run(b, "git", "merge", "--no-ff", "--no-edit", "FETCH_HEAD")
    assert proc.returncode != 0 and git(b, "rev-parse", "HEAD") == head, "merge committed"
    assert "contested " in proc.stderr and "forest resolve" in proc.stderr, proc.stderr
    assert "finding(s) not clean" in proc.stderr  # a contest is no bound section


@pytest.mark.parametrize("how", HOW)
def test_ci_contested_ground_bound_to_no_file_detected_then_resolved_recovers(
    sides: Sides, tmp_path: Path, how: str
) -> None:
    b = _merged(sides, tmp_path, how)
    proc = run(b, FOREST, "ci", "--format", "json")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    contest = _contest(json.loads(proc.stdout))
    for fmt in ("text", "sarif", "junit", "github"):  # the other formats in process
        out = in_process.forest(b, "ci", "--format", fmt)
        assert out.exit_code == 1 and "forest resolve" in out.stdout, (fmt, out.stdout)
        # Each head with who adopted it; never their words (CI logs are often public).
        by = escape(BY) if fmt == "junit" else BY  # XML writes <t@example.org> escaped
        shown = [f"head {h} adopted by {by}" for h in contest["candidates"]]
        assert all(s in out.stdout for s in shown), (fmt, out.stdout)
        assert WORDS not in out.stdout, (fmt, out.stdout)
    heads = contest["candidates"]
    in_process.ok(b, "resolve", heads[0], "--pick", heads[1], "--words", "C is canon")
    commit_all(b, "resolved")
    for args in (["check"], ["check", "--rev", "HEAD"], ["ci"], ["verify"]):
        after = run(b, FOREST, *args)
        assert after.returncode == 0, (args, after.stdout, after.stderr)
