"""The history rewrite ``forest forget`` prints works pasted in the clone forget ran in.

With the real ``git filter-repo``: the printed line, pasted in the clone where forget
ran (once the forget's commit is pushed and the erased line put in the file it names),
rewrites a fresh clone; the force-push it prints apart (after the rewrite is looked
over) pushes it, so a clone of the remote holds the text nowhere in its history and
still holds the forget's commit; the rewrite alone pushes nothing. The remote is the
one the current branch tracks (``upstream``, a name full of shell syntax), else the only
one, else ``origin``; the others are named. Without a remote the line rewrites a fresh
clone of this one. A remote URL carrying a password is never printed.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from pathlib import Path

import pytest

from forest_files.governance.forget_rewrite import cannot_do, rewrite_place
from tests.helpers.cli import forest
from tests.helpers.filter_repo import PATH, needs_filter_repo
from tests.helpers.forgetting import SECRET, SENTINEL, WORDS, adopted_then_cleaned
from tests.helpers.git import commit_all, git, git_env, make_repo


def _forgotten(tmp_path: Path, *, remote: str | None) -> tuple[Path, str]:
    """A clone whose secret ground was forgotten through the CLI and committed (and
    pushed to a bare repository ``remote.git``, the remote ``remote`` its branch tracks,
    when given): the clone and forget's output."""
    root, old = adopted_then_cleaned(tmp_path)
    commit_all(root, "clean")
    if remote is not None:
        bare = make_repo(tmp_path, "remote.git", bare=True)
        git(root, "remote", "add", "--", remote, str(bare))
        git(root, "push", "-q", "-u", "--", remote, "main")
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
    root, output = _forgotten(tmp_path, remote="origin")
    _pasted_and_pushed(tmp_path, root, output)


# A remote's name is a ref name part: it may hold ``$``, ``(``, ``>``, a quote, a leading
# ``-``; read unquoted by a shell, the second would create the file ``pwned``.
@needs_filter_repo
@pytest.mark.parametrize("name", ["upstream", "-up$(>pwned)it's"])
def test_forget_rewrite_remote_not_named_origin_pasted_accepted(tmp_path: Path, name: str) -> None:
    """The branch tracks a remote not named ``origin``: the printed lines clone it, add it
    back under its own name and force-push to it (before: the no-remote route, a clone
    of the local path and not a word about pushing)."""
    root, output = _forgotten(tmp_path, remote=name)
    assert "wherever the old history was pushed" not in output
    assert f"remote add -- {shlex.quote(name)} " in output
    _pasted_and_pushed(tmp_path, root, output)
    assert not (root / "pwned").exists() and not (tmp_path / "pwned").exists()


def _pasted_and_pushed(tmp_path: Path, root: Path, output: str) -> None:
    """Paste the rewrite, see the remote untouched, paste the push, and see a clone of the
    remote hold the text nowhere and the forget's commit still."""
    assert SENTINEL.lower() in git(root, "log", "-p", "--all").lower()  # the test sees it
    proc = _pasted(root, output)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    untouched = tmp_path / "untouched"  # the rewrite alone pushes nothing
    git(tmp_path, "clone", "-q", str(tmp_path / "remote.git"), str(untouched))
    assert SENTINEL.lower() in git(untouched, "log", "-p", "--all").lower()
    pushed = _run(root, _printed(output, "push --force"))
    assert pushed.returncode == 0, pushed.stderr + pushed.stdout
    after = tmp_path / "after"
    git(tmp_path, "clone", "-q", str(tmp_path / "remote.git"), str(after))
    assert SENTINEL.lower() not in git(after, "log", "-p", "--all").lower()
    assert git(after, "log", "-1", "--format=%s") == "forget"  # the erase act kept
    (body,) = re.findall(r"--path (\S+)", output)
    assert git(after, "log", "--all", "--format=%H", "--", body) == ""  # in no commit


@needs_filter_repo
def test_forget_rewrite_without_remote_pasted_accepted(tmp_path: Path) -> None:
    root, output = _forgotten(tmp_path, remote=None)
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
    assert f"$(git -C {root} remote get-url -- origin)" in steps


def test_forget_rewrite_several_remotes_others_named_detected(tmp_path: Path) -> None:
    """Several remotes: the one the branch tracks is chosen, else ``origin``, else none
    (the no-remote route); every other remote is named as holding the old history."""
    root = make_repo(tmp_path)
    for name in ("github", "origin", "$backup"):
        git(root, "remote", "add", "--", name, str(tmp_path / f"{name}.git"))
    place = rewrite_place(root)
    assert (place.remote, place.others) == ("origin", ("$backup", "github"))
    git(root, "config", "branch.main.remote", "github")
    place = rewrite_place(root)
    assert (place.remote, place.others) == ("github", ("$backup", "origin"))
    said = " ".join(cannot_do("ab" * 32, place))
    assert "push --force --all -- github " in said
    assert "the other remotes of this clone ('$backup', origin) hold the old history" in said
    git(root, "config", "--unset", "branch.main.remote")
    git(root, "remote", "remove", "origin")
    place = rewrite_place(root)
    assert (place.url, place.others) == (None, ("$backup", "github"))
    said = " ".join(cannot_do("ab" * 32, place))
    assert "the remotes of this clone ('$backup', github) hold the old history" in said
