"""A refused commit over a contested ledger opens the staged ledger's view once.

The pre-commit hook of a later commit over a contest HEAD holds (a binding rebound on
two merged branches, or a ground with two live heads, merged with ``--no-verify``)
opened the view's SQLite file twice: once for the commit's judgement (the reader a
finding's words come from), once more for the contests (check/staged_contests.py).
Now the contests are asked on the one connection, and the hook says the same bytes.
Counted by Python's audit event ``sqlite3.connect``, in the hook's own process.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.doors.test_hook_contest_later import _ground_contest, _rebound_twice
from tests.helpers.git import git, git_env, write
from tests.helpers.sqlite_opens import RECORD_OPENS

COUNTED = (
    RECORD_OPENS
    + """
from forest_files.doors.hooks.run import main
code = main(["pre-commit"])
with open(sys.argv[1], "w", encoding="utf-8") as out:
    out.write("\\n".join(opened))
sys.exit(code)
"""
)


def _hook(repo: Path) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    """The pre-commit hook as git runs it; what it said and the databases it opened."""
    record = repo.parent / f"{repo.name}-opened.txt"
    env = {**os.environ, **git_env()}
    cmd = [sys.executable, "-c", COUNTED, str(record)]
    done = subprocess.run(cmd, cwd=repo, env=env, capture_output=True, text=True, check=False)
    return done, record.read_text(encoding="utf-8").splitlines()


def _views(opened: list[str]) -> list[str]:
    """The staged ledger's view among the databases opened (not the audit log)."""
    return [p for p in opened if "/forest/views/" in p]


@pytest.mark.parametrize("build", [_rebound_twice, _ground_contest], ids=["rebound", "ground"])
@pytest.mark.parametrize("drift", [False, True], ids=["unbound-change", "drifted-too"])
def test_hook_refused_over_a_contest_opens_its_view_once_detected(
    tmp_path: Path, build: object, drift: bool
) -> None:
    assert callable(build)
    repo, _ = build(tmp_path)
    write(repo, "notes.txt", "an unbound file\n")
    git(repo, "add", "notes.txt")
    if drift:  # a bound file edited too: the commit's own finding fails as well
        bound = "B.md" if (repo / "B.md").exists() else "canon.md"
        write(repo, bound, (repo / bound).read_text(encoding="utf-8") + "\nmore\n")
        git(repo, "add", bound)
    first, _ = _hook(repo)  # its first run builds the view (path_scan.forked)
    assert first.returncode == 1, first.stderr
    done, opened = _hook(repo)
    assert done.returncode == 1 and "contested" in done.stderr, done.stderr
    assert (done.stdout, done.stderr) == (first.stdout, first.stderr)
    assert len(_views(opened)) == 1, opened
