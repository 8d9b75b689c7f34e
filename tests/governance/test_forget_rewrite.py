"""The history rewrite ``forest forget`` prints works pasted in the clone forget ran in.

With the real ``git filter-repo``: the printed line, pasted in the clone where forget
ran (once the forget's commit is pushed and the erased line put in the file it names),
rewrites a fresh clone; the force-push it prints apart (after the rewrite is looked
over) pushes it, so a clone of the remote holds the text nowhere in its history and
still holds the forget's commit; the rewrite alone pushes nothing. Without an ``origin``
remote the line rewrites a fresh clone of this one. A remote URL carrying a password
is never printed.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from pathlib import Path

from forest_files.governance.forget_rewrite import rewrite_place
from tests.helpers.cli import forest
from tests.helpers.filter_repo import PATH, needs_filter_repo
from tests.helpers.forgetting import SECRET, SENTINEL, WORDS, adopted_then_cleaned
from tests.helpers.git import commit_all, git, git_env, make_repo


def _forgotten(tmp_path: Path, *, remote: bool) -> tuple[Path, str]:
    """A clone whose secret ground was forgotten through the CLI and committed (and
    pushed to a bare ``origin`` when ``remote``): the clone and forget's output."""
    root, old = adopted_then_cleaned(tmp_path)
    commit_all(root, "clean")
    if remote:
        origin = make_repo(tmp_path, "origin.git", bare=True)
        git(root, "remote", "add", "origin", str(origin))
        git(root, "push", "-q", "-u", "origin", "main")
    result = forest(root, "forget", old, "--words", WORDS, "--as", "t <t@example.org>")
    assert result.exit_code == 0, result.stderr
    git(root, "add", "-A", ".forest/ledger")
    git(root, "commit", "-q", "-m", "forget")
    if remote:
        git(root, "push", "-q")
    return root, result.output


def _printed(output: str, needle: str) -> str:
    """The one backticked command of forget's output that holds ``needle``."""
    (line,) = [c for c in re.findall(r"`([^`]*)`", output) if needle in c]
    return line


def _run(root: Path, line: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(git_env(), PATH=PATH)
    return subprocess.run(
        ["bash", "-c", line], cwd=root, env=env, capture_output=True, text=True, check=False
    )


def _pasted(root: Path, output: str) -> subprocess.CompletedProcess[str]:
    """The printed rewrite line, pasted in ``root`` after the erased line is put in the
    file its ``--replace-text`` names (read as a shell reads it, from ``root``)."""
    line = _printed(output, " filter-repo ")
    words = shlex.split(line)
    erased = root / words[words.index("--replace-text") + 1]  # an absolute path stays
    erased.write_text(f"{SECRET}\n", encoding="utf-8")
    return _run(root, line)


@needs_filter_repo
def test_forget_rewrite_pasted_in_its_clone_accepted(tmp_path: Path) -> None:
    root, output = _forgotten(tmp_path, remote=True)
    assert SENTINEL.lower() in git(root, "log", "-p", "--all").lower()  # the test sees it
    proc = _pasted(root, output)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    untouched = tmp_path / "untouched"  # the rewrite alone pushes nothing
    git(tmp_path, "clone", "-q", str(tmp_path / "origin.git"), str(untouched))
    assert SENTINEL.lower() in git(untouched, "log", "-p", "--all").lower()
    pushed = _run(root, _printed(output, "push --force"))
    assert pushed.returncode == 0, pushed.stderr + pushed.stdout
    after = tmp_path / "after"
    git(tmp_path, "clone", "-q", str(tmp_path / "origin.git"), str(after))
    assert SENTINEL.lower() not in git(after, "log", "-p", "--all").lower()
    assert git(after, "log", "-1", "--format=%s") == "forget"  # the erase act kept
    (body,) = re.findall(r"--path (\S+)", output)
    assert git(after, "log", "--all", "--format=%H", "--", body) == ""  # in no commit


@needs_filter_repo
def test_forget_rewrite_without_remote_pasted_accepted(tmp_path: Path) -> None:
    root, output = _forgotten(tmp_path, remote=False)
    proc = _pasted(root, output)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    fresh = tmp_path / "repo-rewrite"
    assert f"use {fresh} in place of this clone" in output
    assert SENTINEL.lower() not in git(fresh, "log", "-p", "--all").lower()
    assert git(fresh, "log", "-1", "--format=%s") == "forget"


def test_forget_rewrite_url_with_password_accepted(tmp_path: Path) -> None:
    """A remote URL carrying a password is read at paste time, never printed."""
    root = make_repo(tmp_path)
    git(root, "remote", "add", "origin", "https://u:tok3n-abc@example.org/r.git")
    steps = rewrite_place(root).steps(".forest/ledger/bodies/ab/ab.txt")
    assert "tok3n" not in steps
    assert f"$(git -C {root} remote get-url origin)" in steps
