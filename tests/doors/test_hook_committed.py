"""The pre-commit hook asks git what HEAD and the index hold of custody in one process
(doors/hooks/committed.py): a clean commit ran two ``rev-parse`` processes, one for the
root and whether forest.toml is committed, one for HEAD's commit and custody key (three
when HEAD held no ledger or no forest.toml). Each case rev-parse stops early in is
checked against the answers asked one at a time (viewkey.head_custody,
gitio.head_commit, forest.toml at ``:`` and ``HEAD:``). Counted from git's own trace
of a real ``git commit`` running the installed hook; no timing."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from forest_files import gitio
from forest_files.custody.viewkey import head_custody
from forest_files.doors import hooks as githooks
from forest_files.doors.hooks.committed import Committed, committed_custody
from tests.helpers.custody import DOC, adopted_repo, two_bound_files
from tests.helpers.git import commit_all, git, git_env, make_repo, write


def _git_run(root: Path, *args: str, trace: Path) -> subprocess.CompletedProcess[bytes]:
    env = {**git_env(), "GIT_TRACE": str(trace)}
    return subprocess.run(["git", *args], cwd=root, env=env, capture_output=True, check=False)


def _pre_commit_gits(trace: Path) -> list[str]:
    """The git processes git's run of the pre-commit hook started (post-commit's not)."""
    gits: list[str] = []
    running = False
    for line in trace.read_text(encoding="utf-8").splitlines():
        if "trace: run_command: " in line:
            running = line.endswith("hooks/pre-commit")
        elif "run_processes_parallel: done" in line:
            running = False
        elif running and "trace: built-in: git " in line:
            gits.append(line.split("trace: built-in: ", 1)[1])
    return gits


def test_clean_commit_hook_one_rev_parse_detected(tmp_path: Path) -> None:
    """Hostile: a clean commit (an unbound file staged) through git's own run of the
    installed hook asks rev-parse once: it asked twice, the second time for HEAD's
    commit and custody key, which the root's call can say."""
    root = two_bound_files(tmp_path)
    githooks.install(root)
    trace = tmp_path / "trace.txt"
    for name in ("first.txt", "second.txt"):  # the first builds HEAD's view: counted next
        write(root, name, "an unbound file\n")
        git(root, "add", name)
        trace.unlink(missing_ok=True)
        done = _git_run(root, "commit", "-q", "-m", name, trace=trace)
        assert done.returncode == 0, done.stderr
    gits = _pre_commit_gits(trace)
    asked = [g for g in gits if g.startswith("git rev-parse")]
    assert len(asked) == 1 and "--show-toplevel" in asked[0], gits


def _asked_alone(root: Path) -> Committed:
    """What the hook asked in separate processes before, each as git answers it."""

    def holds(name: str) -> bool:
        proc = gitio.run_git(root, ["rev-parse", "-q", "--verify", name], ok_codes=(0, 1))
        return proc.returncode == 0

    held = holds(":forest.toml") or holds("HEAD:forest.toml")
    return Committed(gitio.toplevel(root), held, gitio.head_commit(root) or "", head_custody(root))


def _unborn_empty(tmp_path: Path) -> Path:
    return make_repo(tmp_path)


def _unborn_config_staged(tmp_path: Path) -> Path:
    root = two_bound_files(tmp_path)
    git(root, "checkout", "-q", "--orphan", "fresh")  # the index kept, HEAD unborn
    return root


def _unborn_plain_file_staged(tmp_path: Path) -> Path:
    root = make_repo(tmp_path)
    write(root, "notes.txt", "x\n")
    git(root, "add", "notes.txt")
    return root


def _head_custody(tmp_path: Path) -> Path:
    return two_bound_files(tmp_path)


def _head_config_without_ledger(tmp_path: Path) -> Path:
    root = make_repo(tmp_path)
    write(root, "forest.toml", "")
    commit_all(root, "config alone")
    return root


def _config_staged_not_at_head(tmp_path: Path) -> Path:
    root = make_repo(tmp_path)
    write(root, "a.md", DOC)
    commit_all(root, "before custody")
    write(root, "forest.toml", "")
    git(root, "add", "forest.toml")
    return root


def _no_config_anywhere(tmp_path: Path) -> Path:
    root = make_repo(tmp_path)
    write(root, "a.md", DOC)
    commit_all(root, "no custody")
    write(root, "forest.toml", "")  # in the working tree only: never asked
    return root


def _config_unstaged_at_head(tmp_path: Path) -> Path:
    root = two_bound_files(tmp_path)
    git(root, "rm", "-q", "--cached", "forest.toml")
    return root


def _config_in_conflict(tmp_path: Path) -> Path:
    root = adopted_repo(tmp_path, "f.md", "# A\n\nwords\n", "f.md#A")
    git(root, "checkout", "-q", "-b", "side")
    write(root, "forest.toml", (root / "forest.toml").read_text() + "\n# side\n")
    commit_all(root, "side")
    git(root, "checkout", "-q", "-")
    write(root, "forest.toml", (root / "forest.toml").read_text() + "\n# main\n")
    commit_all(root, "main")
    merging = subprocess.run(["git", "merge", "-q", "side"], cwd=root, capture_output=True)
    assert merging.returncode != 0  # forest.toml in conflict: no ``:forest.toml``
    return root


def _ledger_file_not_tree(tmp_path: Path) -> Path:
    root = make_repo(tmp_path)
    write(root, "forest.toml", "")
    write(root, ".forest/ledger", "a file where the ledger's directory belongs\n")
    commit_all(root, "odd")
    return root


def _root_with_newline(tmp_path: Path) -> Path:
    root = make_repo(tmp_path / "odd\nname")
    write(root, "forest.toml", "")
    git(root, "add", "forest.toml")
    return root


CASES: dict[str, Callable[[Path], Path]] = {
    "unborn-empty": _unborn_empty,
    "unborn-config-staged": _unborn_config_staged,
    "unborn-plain-file-staged": _unborn_plain_file_staged,
    "head-custody": _head_custody,
    "head-config-without-ledger": _head_config_without_ledger,
    "config-staged-not-at-head": _config_staged_not_at_head,
    "no-config-anywhere": _no_config_anywhere,
    "config-unstaged-at-head": _config_unstaged_at_head,
    "config-in-conflict": _config_in_conflict,
    "ledger-file-not-tree": _ledger_file_not_tree,
    "root-with-newline": _root_with_newline,
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_committed_custody_same_as_asked_alone_accepted(tmp_path: Path, case: str) -> None:
    """Hostile: every case where rev-parse stops at a name that fails (an unborn
    branch, no forest.toml or no ledger at HEAD, forest.toml staged but not committed
    or committed but unstaged, in conflict): one process, the answers of four."""
    root = CASES[case](tmp_path)
    assert committed_custody(root) == _asked_alone(root)


def test_committed_custody_temporary_index_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``git commit FILE…`` judges a temporary index (``GIT_INDEX_FILE``): its
    forest.toml is the one asked, not the repository's index's."""
    root = make_repo(tmp_path)
    write(root, "a.md", DOC)
    commit_all(root, "no custody")
    write(root, "forest.toml", "")
    git(root, "add", "forest.toml")
    temporary = root / ".git" / "next-index"
    git(root, "read-tree", "HEAD", env={"GIT_INDEX_FILE": str(temporary)})
    assert committed_custody(root).held
    monkeypatch.setenv("GIT_INDEX_FILE", str(temporary))
    assert not committed_custody(root).held
    assert committed_custody(root).commit == git(root, "rev-parse", "HEAD")
