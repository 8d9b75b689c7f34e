"""A contest HEAD already holds, judged by the pre-commit hook of a later commit.

A merge that leaves a binding rebound on two branches (or two live heads of a ground
bound to no file) reaches HEAD without the pre-merge-commit hook refusing it: merged
with ``--no-verify``, or pulled fast-forward from a clone that did. A later commit
touching neither place: ``forest check --staged`` exits 1 on it, naming the contest,
but the installed hook let it through (it judged only the staged paths' bindings).
Now the hook says the same finding with the same routes and exits 1; once it built
the staged ledger's view (its first run: the decoded segments show a contest is
possible, test_hook_contest_clone.py), it starts no git process more than it does for
the same change in a clone with no contest.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from forest_files.custody.repository import Repository
from forest_files.doors import hooks as githooks
from forest_files.kernel.hashing import hash_body
from tests.helpers import rebound
from tests.helpers.cli import FOREST
from tests.helpers.custody import BY
from tests.helpers.git import commit_all, git, git_env, make_repo, write
from tests.helpers.gittrace import git_commands

HOOK = "from forest_files.doors.hooks.run import console; console()"
WORDS = "I adopt these words as written"


def _run(root: Path, *cmd: str, trace: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **git_env()}
    if trace is not None:
        env["GIT_TRACE"] = str(trace)
    return subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True, check=False)


def _hook_gits(repo: Path) -> tuple[int, list[str]]:
    """The pre-commit hook run as git runs it; its exit and the git commands it ran."""
    trace = repo.parent / f"{repo.name}-trace.txt"
    trace.unlink(missing_ok=True)
    done = _run(repo, sys.executable, "-c", HOOK, "pre-commit", trace=trace)
    return done.returncode, git_commands(trace)


def _shapes(gits: list[str]) -> list[str]:
    return [re.sub(r"\b[0-9a-f]{40}\b", "COMMIT", g) for g in gits]


def _judging(gits: list[str], path: str) -> list[str]:
    """The hook's git commands but the refusal's read of the refused binding's file
    at ``path`` (its index entry, then its blob)."""
    out = _shapes(gits)
    listing = f"git ls-files -s -z --full-name -- {path}"
    if path and listing in out:
        at = out.index(listing)
        del out[at : at + 2]
    return out


def _rebound_twice(tmp_path: Path) -> tuple[Path, Path]:
    """Clone ``b`` (hooks installed) merged ``c`` with ``--no-verify``: the binding
    ``A.md#X`` rebound to ``B.md#X`` and to ``C.md#X``; and ``plain``, a clone of the
    origin with its hooks, where nothing is contested."""
    rebound.origin(tmp_path)
    b = rebound.rebound_clone(tmp_path, "B.md", "b")
    c = rebound.rebound_clone(tmp_path, "C.md", "c")
    githooks.install(b)
    git(b, "pull", "-q", "--no-rebase", "--no-edit", "--no-verify", str(c), "HEAD")
    plain = tmp_path / "plain"
    git(tmp_path, "clone", "-q", str(tmp_path / "origin"), str(plain))
    githooks.install(plain)
    return b, plain


def _ground_contest(tmp_path: Path) -> tuple[Path, Path]:
    """Clone ``b`` (hooks installed) merged ``c`` with ``--no-verify``, each having
    superseded a ground adopted as text only; ``plain``: a clone with no contest."""
    origin = make_repo(tmp_path, "origin")
    write(origin, "canon.md", "# Canon\n\nwords\n")
    assert _run(origin, FOREST, "init").returncode == 0
    with Repository(origin) as r:
        ground = r.adopt_text("Ground adopted as text only.", words=WORDS, by=BY)
    commit_all(origin, "ground as text")
    clones = []
    for name in ("b", "c", "plain"):
        git(tmp_path, "clone", "-q", str(origin), str(tmp_path / name))
        clones.append(tmp_path / name)
    b, c, plain = clones
    for repo in (b, c):
        text = f"{repo.name}'s version."
        with Repository(repo) as r:
            r.supersede(ground, text, words=WORDS, by=BY, expected_body_hash=hash_body(text))
        commit_all(repo, repo.name)
    githooks.install(b)
    githooks.install(plain)
    git(b, "pull", "-q", "--no-rebase", "--no-edit", "--no-verify", str(c), "HEAD")
    return b, plain


@pytest.mark.parametrize("build", [_rebound_twice, _ground_contest], ids=["rebound", "ground"])
def test_hook_later_commit_over_a_committed_contest_refused(tmp_path: Path, build: object) -> None:
    assert callable(build)
    repo, plain = build(tmp_path)
    for where in (repo, plain):  # the same change, touching no place of the contest
        write(where, "notes.txt", "an unbound file\n")
        git(where, "add", "notes.txt")
    assert _hook_gits(repo)[0] == 1  # its first run builds the view (path_scan.forked)
    code, gits = _hook_gits(repo)
    assert code == 1
    _hook_gits(plain)  # its first run decodes the segments and remembers what they bind
    plain_code, plain_gits = _hook_gits(plain)
    assert plain_code == 0
    staged = _run(repo, FOREST, "check", "--staged", "--json")
    assert staged.returncode == 1, staged.stdout + staged.stderr
    (said,) = [f for f in json.loads(staged.stdout)["findings"] if f["kind"] == "contested"]
    # The contests are one query on the view the hook opens: once built, a run makes the
    # git calls a second run makes where nothing is contested; only the refusal reads the refused
    # binding's file, and only the accepted commit asks for custody files git does not track.
    advice = "git ls-files -z --full-name -o "
    alike = [g for g in _shapes(plain_gits) if not g.startswith(advice)]
    assert _judging(gits, said["path"]) == alike, (gits, plain_gits)
    head = git(repo, "rev-parse", "HEAD")
    proc = _run(repo, "git", "commit", "-m", "notes")
    assert proc.returncode != 0 and git(repo, "rev-parse", "HEAD") == head, "commit made"
    assert f"contested {said['selector']}" in proc.stderr, proc.stderr
    assert said["detail"] in proc.stderr
    for route in said["routes"]:  # the routes forest check --staged gives, every one
        assert route["command"] in proc.stderr, proc.stderr
    assert _run(plain, "git", "commit", "-q", "-m", "notes").returncode == 0
