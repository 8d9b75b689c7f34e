"""The pre-commit hook decides custody from what is committed, and the ledger only grows.

Real repositories, the real installed hook, driven by real ``git commit``:
moving forest.toml out of the working tree, un-staging it or the ledger, never
switches the check off; a staged change that modifies, retypes (a symlink, a
gitlink) or deletes a ledger file HEAD holds is refused with the git command
that puts HEAD's file back, and that command works pasted. A repository that
never held custody costs the hook one git call.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from forest_files.custody.record import adopt_sections
from forest_files.custody.repository import Repository
from forest_files.custody.targets import read_section
from forest_files.doors import hooks as githooks
from tests.helpers.cli import FOREST
from tests.helpers.custody import BY, MAX, init_and_adopt
from tests.helpers.forgetting import SENTINEL, forgotten_with_hooks
from tests.helpers.git import commit_all, git, make_repo, pasted, write

# The slow lane (.ci/run runs it; the README's fast command leaves it out):
# the installed hook through real commits, each ledger forgery in turn.
pytestmark = pytest.mark.slow

BIN = Path(sys.executable).parent
FOREST_HOOK = str(BIN / "forest-hook")
DOC = "# Doc\n\n## Rules\n\nCanon as agreed.\n"


def run(cwd: Path, *cmd: str, path: str | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if path is not None:
        env["PATH"] = path
    return subprocess.run(list(cmd), cwd=cwd, env=env, capture_output=True, text=True, check=False)


def refused(repo: Path, message: str) -> str:
    """``git commit`` must fail and leave HEAD where it was; its stderr."""
    head = git(repo, "rev-parse", "HEAD")
    proc = run(repo, "git", "commit", "-q", "-m", message)
    assert proc.returncode != 0, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr, proc.stderr
    assert git(repo, "rev-parse", "HEAD") == head
    return proc.stderr


def route(err: str, label: str) -> str:
    """The command of the route line starting with ``label``."""
    (line,) = [ln.strip() for ln in err.splitlines() if ln.strip().startswith(label)]
    return line.split("  (", 1)[0].rsplit(": ", 1)[1]


@pytest.fixture
def bound(tmp_path: Path) -> Path:
    """doc.md#Rules adopted and committed, our hooks installed."""
    repo = make_repo(tmp_path)
    write(repo, "doc.md", DOC)
    init_and_adopt(repo, ["doc.md#Rules"], words="Canon as agreed")
    commit_all(repo, "adopt")
    githooks.install(repo)
    return repo


def drift(repo: Path) -> None:
    write(repo, "doc.md", DOC.replace("as agreed", "as drifted"))
    git(repo, "add", "doc.md")


def test_hook_config_moved_out_of_worktree_drift_staged_refused(
    bound: Path, tmp_path: Path
) -> None:
    drift(bound)
    (bound / "forest.toml").rename(tmp_path / "keep.toml")  # still staged, still in HEAD
    err = refused(bound, "drift")
    assert "drifted doc.md#Doc/Rules" in err, err
    staged = run(bound, FOREST, "check", "--staged")  # the staged forest.toml decides
    assert staged.returncode == 1 and "drifted doc.md#Doc/Rules" in staged.stdout, staged
    assert "forest init" not in staged.stderr


def test_hook_config_unstaged_with_drift_refused(bound: Path) -> None:
    drift(bound)
    git(bound, "rm", "-q", "--cached", "forest.toml")
    err = refused(bound, "un-custody")
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("forest-files: commit refused"), err
    assert "removes forest.toml, which HEAD holds" in err
    assert "put it back: git restore --staged -- forest.toml" in err
    assert run(bound, FOREST, "check", "--staged").returncode == 1
    assert pasted(bound, "git restore --staged -- forest.toml").returncode == 0
    assert "drifted doc.md#Doc/Rules" in refused(bound, "drift")  # judged again


def test_hook_config_deleted_everywhere_with_drift_refused(bound: Path) -> None:
    drift(bound)
    git(bound, "rm", "-q", "forest.toml")
    err = refused(bound, "un-custody")
    assert "put it back: git checkout HEAD -- forest.toml" in err, err
    assert pasted(bound, "git checkout HEAD -- forest.toml").returncode == 0
    assert "drifted doc.md#Doc/Rules" in refused(bound, "drift")


def test_hook_whole_ledger_unstaged_with_drift_refused(bound: Path) -> None:
    drift(bound)
    git(bound, "rm", "-q", "-r", "--cached", ".forest/ledger")
    err = refused(bound, "no ledger")
    assert "removes .forest/ledger, which HEAD holds" in err, err
    assert "put it back: git checkout HEAD -- .forest/ledger" in err
    assert pasted(bound, "git checkout HEAD -- .forest/ledger").returncode == 0
    assert "drifted doc.md#Doc/Rules" in refused(bound, "drift")


def test_hook_segment_deleted_with_drift_refused(bound: Path) -> None:
    (segment,) = git(bound, "ls-files", ".forest/ledger/segments").splitlines()
    write(bound, "other.md", DOC)
    with Repository(bound) as repo:  # a second segment: the ledger is not emptied
        adopt_sections(
            repo, [read_section(bound, "other.md#Rules", (), max_bytes=MAX)], words="w", by=BY
        )
    commit_all(bound, "adopt other")
    drift(bound)
    git(bound, "rm", "-q", segment)
    err = refused(bound, "drop the act")
    assert f"ledger-deleted {segment}" in err, err
    command = route(err, "put HEAD's file back")
    assert command == f"git checkout HEAD -- {segment}"
    assert pasted(bound, command).returncode == 0
    assert "drifted doc.md#Doc/Rules" in refused(bound, "drift")


def test_hook_repository_without_custody_accepted(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    write(repo, "a.md", "a\n")
    commit_all(repo, "a")
    githooks.install(repo)
    write(repo, "a.md", "b\n")
    git(repo, "add", "a.md")
    calls = tmp_path / "calls"
    shim = tmp_path / "shim"
    shim.mkdir()
    real = subprocess.run(["which", "git"], capture_output=True, text=True).stdout.strip()
    write(shim, "git", f'#!/bin/sh\necho "$@" >> {calls}\nexec {real} "$@"\n').chmod(0o755)
    hook = run(repo, FOREST_HOOK, "pre-commit", path=f"{shim}{os.pathsep}{os.environ['PATH']}")
    assert hook.returncode == 0 and hook.stderr == "", hook.stderr
    # the root's call, then one ls-files: does the index hold a ledger without forest.toml?
    assert len(calls.read_text().splitlines()) == 2, calls.read_text()
    assert run(repo, "git", "commit", "-q", "-m", "b").returncode == 0


@pytest.mark.parametrize("retype", ["gitlink", "symlink"])
def test_hook_erase_segment_retyped_body_restaged_refused(tmp_path: Path, retype: str) -> None:
    root, segment, body = forgotten_with_hooks(tmp_path)
    erased = subprocess.run(["git", "show", f"HEAD~1:{body}"], cwd=root, capture_output=True)
    write(root, body, erased.stdout)
    git(root, "add", "-f", body)
    if retype == "gitlink":
        head = git(root, "rev-parse", "HEAD")
        git(root, "update-index", "--cacheinfo", f"160000,{head},{segment}")
    else:
        (root / segment).unlink()
        (root / segment).symlink_to(os.devnull)
        git(root, "add", "-A", ".forest/ledger")
    err = refused(root, "sneaky revert of the forget")
    assert f"ledger-rewritten {segment}" in err, err
    assert "changes the type of" in err and "erase act" in err
    assert SENTINEL not in err
    command = route(err, "keep the erase")
    assert command.endswith("forest sync")
    assert pasted(root, command).returncode == 0
    assert git(root, "status", "--porcelain", "--untracked-files=all") == ""
    assert not (root / body).exists()


def test_hook_ledger_committed_without_config_refused_until_restored(bound: Path) -> None:
    git(bound, "rm", "-q", "forest.toml")
    git(bound, "commit", "-q", "--no-verify", "-m", "drop forest.toml")
    dropper = git(bound, "rev-parse", "HEAD")
    drift(bound)
    err = refused(bound, "drift with custody gone")
    (line,) = err.splitlines()
    assert "forest.toml is not committed but the ledger (.forest/ledger) is" in line, err
    command = line.split("put it back with `", 1)[1].split("`", 1)[0]
    assert command == f"git checkout '{dropper}~1' -- forest.toml"
    assert pasted(bound, command).returncode == 0
    assert "drifted doc.md#Doc/Rules" in refused(bound, "drift")  # judged again


def test_hook_first_commit_ledger_without_config_refused(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    write(repo, "doc.md", DOC)
    init_and_adopt(repo, ["doc.md#Rules"])
    githooks.install(repo)
    git(repo, "add", "doc.md", ".forest", ".gitattributes")  # forest.toml left out
    proc = run(repo, "git", "commit", "-q", "-m", "first")
    assert proc.returncode != 0, proc.stderr
    assert "put it back with `git add -- forest.toml`" in proc.stderr, proc.stderr
    assert pasted(repo, "git add -- forest.toml").returncode == 0
    assert run(repo, "git", "commit", "-q", "-m", "first").returncode == 0
