"""Real throwaway git repositories for tests, in a fixed, isolated environment.

No user or system config leaks in (GIT_CONFIG_GLOBAL/SYSTEM → an empty file),
author and committer are fixed, the default branch is ``main``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

AUTHOR = "Test Author"
AUTHOR_EMAIL = "author@example.org"

# Variables that would point git at some other repository (e.g. when the
# suite itself runs inside a git hook).
_REPO_VARS = (
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_COMMON_DIR",
    "GIT_DIR",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_PREFIX",
    "GIT_WORK_TREE",
    "GIT_CONFIG_PARAMETERS",
)


def git_env() -> dict[str, str]:
    """The variables every test git process runs with."""
    return {
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_CONFIG_SYSTEM": os.devnull,
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_COUNT": "3",
        "GIT_CONFIG_KEY_0": "init.defaultBranch",
        "GIT_CONFIG_VALUE_0": "main",
        "GIT_CONFIG_KEY_1": "protocol.file.allow",
        "GIT_CONFIG_VALUE_1": "always",
        # A commit starts `git maintenance run --auto` (a process of its own, ~2 ms) that a
        # throwaway repository of a few objects never needs: about one per test.
        "GIT_CONFIG_KEY_2": "maintenance.auto",
        "GIT_CONFIG_VALUE_2": "false",
        "GIT_AUTHOR_NAME": AUTHOR,
        "GIT_AUTHOR_EMAIL": AUTHOR_EMAIL,
        "GIT_AUTHOR_DATE": "2024-01-01T00:00:00Z",
        "GIT_COMMITTER_NAME": AUTHOR,
        "GIT_COMMITTER_EMAIL": AUTHOR_EMAIL,
        "GIT_COMMITTER_DATE": "2024-01-01T00:00:00Z",
        "GIT_TERMINAL_PROMPT": "0",
        "LC_ALL": "C",
    }


def isolate(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make code under test (which inherits os.environ) see the same fixed git."""
    for name in _REPO_VARS:
        monkeypatch.delenv(name, raising=False)
    for name, value in git_env().items():
        monkeypatch.setenv(name, value)


def _env(extra: dict[str, str] | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _REPO_VARS}
    env.update(git_env())
    if extra:
        env.update(extra)
    return env


def git(
    repo: Path,
    *args: str,
    env: dict[str, str] | None = None,
    stdin: bytes | None = None,
) -> str:
    """Run git in ``repo``; return stdout (stripped of the final newline)."""
    proc = subprocess.run(
        ["git", *args],
        cwd=repo,
        env=_env(env),
        input=stdin,
        capture_output=True,
        check=False,
    )
    if proc.returncode != 0:
        raise AssertionError(
            f"git {' '.join(args)} failed ({proc.returncode}): {proc.stderr.decode()}"
        )
    return proc.stdout.decode("utf-8", "surrogateescape").rstrip("\n")


def make_repo(tmp_path: Path, name: str = "repo", *, bare: bool = False) -> Path:
    """A fresh repository at ``tmp_path / name`` with no commits."""
    repo = tmp_path / name
    repo.mkdir(parents=True)
    git(repo, "init", "-q", *(["--bare"] if bare else []))
    return repo


def write(repo: Path, relpath: str, content: str | bytes) -> Path:
    """Write a file (parents created) and return its path."""
    path = repo / relpath
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def commit_all(repo: Path, msg: str = "commit") -> str:
    """Stage everything and commit (empty commits allowed); return the id."""
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--allow-empty", "-m", msg)
    return git(repo, "rev-parse", "HEAD")


def conflicted_merge(root: Path) -> None:
    """A merge stopped with ``notes.md`` in conflict (both sides wrote it on branches
    of the current one): git refuses any commit until it is resolved."""
    git(root, "checkout", "-q", "-b", "side")
    write(root, "notes.md", "side\n")
    commit_all(root, "side")
    git(root, "checkout", "-q", "-")
    write(root, "notes.md", "main\n")
    commit_all(root, "main")
    assert pasted(root, "git merge -q side").returncode != 0  # notes.md in conflict


def pasted(
    root: Path, command: str, *, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``command`` pasted into bash in ``root`` as a user would, with this
    interpreter's ``forest`` first on PATH and the fixed test git (``env``: variables
    set over it, such as a global config of the test's own)."""
    bin_dir = str(Path(sys.executable).parent)
    path = f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"
    env = {**os.environ, **git_env(), "PATH": path, **(env or {})}
    return subprocess.run(
        ["bash", "-c", command], cwd=root, env=env, capture_output=True, text=True, check=False
    )


def pasted_under_hooks(root: Path, command: str) -> None:
    """``command`` pasted (``pasted``) where forest's hooks are installed: it must
    succeed, no commit refused by a hook on the way."""
    done = pasted(root, command)
    assert done.returncode == 0, (command, done.stdout, done.stderr)
    assert "commit refused" not in done.stderr
