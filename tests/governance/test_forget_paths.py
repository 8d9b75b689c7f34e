"""``forest forget`` of a secret that arrived by any path: supersede, resolve, proposal adoption.

The README's "Forgetting a pasted secret" block, followed literally after the
secret was committed through ``forest supersede``, passes the installed hook,
``forest verify``, ``forest ci --base`` over the forget commit, ``forest check
--rev HEAD`` and a fresh clone's ``forest status``: an act whose body was
erased replays with an erased body (content id, hash and edges kept).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.cli import forest, ok
from helpers.custody import BY, MAX, supersede_as_it_stands
from helpers.forgetting import CLEAN, DOC, SENTINEL
from helpers.git import commit_all, git, make_repo, write
from helpers.template import built_once, copy_repo

from forest_files.custody.record import adopt_sections
from forest_files.custody.repository import Repository
from forest_files.custody.targets import read_section
from forest_files.doors import hooks as githooks

FOREST = str(Path(sys.executable).parent / "forest")


def run(cwd: Path, *cmd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        list(cmd), cwd=cwd, env=dict(os.environ), capture_output=True, text=True, check=False
    )


def _pasted_by_supersede(tmp: Path) -> Path:
    """Clean ground adopted and committed; the secret pasted in and recorded with
    ``forest supersede``, committed."""
    root = make_repo(tmp)
    write(root, "doc.md", CLEAN)
    with Repository.init(root, project_id="p") as repo:
        section = read_section(root, "doc.md#Keys", (), max_bytes=MAX)
        adopt_sections(repo, [section], words="ok", by=BY)
    commit_all(root, "adopt")
    write(root, "doc.md", DOC)
    supersede_as_it_stands(root, "doc.md#Keys", words="the new keys note")
    commit_all(root, "paste")
    return root


@pytest.fixture(scope="module")
def pasted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_once(tmp_path_factory, _pasted_by_supersede)


def _secret_id(root: Path) -> str:
    with Repository(root) as repo:
        (cid,) = [g.content_id for g in repo.ground()]
    return cid


def _readme_block(root: Path, secret: str) -> subprocess.CompletedProcess[str]:
    """The README block, literally: take the secret out, supersede, forget, commit."""
    write(root, "doc.md", CLEAN)
    ok(root, "supersede", "doc.md#Keys", "--words", "the token does not belong here")
    ok(root, "forget", secret, "--words", "an API key was pasted here by mistake")
    git(root, "add", "-A", ".forest/ledger", "doc.md")
    return run(root, "git", "commit", "-q", "-m", "forget a pasted key")


def test_forget_after_committed_supersede_readme_block_accepted(
    pasted: Path, tmp_path: Path
) -> None:
    root = copy_repo(pasted, tmp_path / "repo")
    githooks.install(root)
    commit = _readme_block(root, _secret_id(root))
    assert commit.returncode == 0, commit.stdout + commit.stderr
    assert SENTINEL not in commit.stdout + commit.stderr
    for args in (("verify",), ("ci", "--base", "HEAD~1"), ("check", "--rev", "HEAD")):
        result = forest(root, *args)
        assert result.exit_code == 0, (args, result.stdout, result.stderr)
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(root), str(clone))
    status = run(clone, FOREST, "status")
    assert status.returncode == 0, status.stdout + status.stderr
    assert "clean" in status.stdout and SENTINEL not in status.stdout + status.stderr
    assert run(clone, FOREST, "check").returncode == 0
