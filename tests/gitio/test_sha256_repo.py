"""A repository made with ``git init --object-format=sha256``: 64-hex ids throughout.

The attributes a commit or the git index gives a bound file are asked of git in a
throwaway git directory (gitio/attr_source.py) that reaches the repository's objects.
That directory had no config, so git took it for SHA-1: the hook and ``check --staged``
read the SHA-256 index as nothing and let a staged ``ident`` rule for a bound file
through (the SHA-1 repository's hook refuses it), and ``forest ci`` and ``check --rev``
stopped at ``git update-index failed: fatal: malformed index info``, whatever the range
held. The throwaway now names the repository's object format.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from forest_files.check import checkout_rewrite
from forest_files.check.staged import judge_staged
from tests.helpers.custody import init_and_adopt
from tests.helpers.git import commit_all, git, pasted, write
from tests.helpers.template import reused

KIND = "rewritten-on-checkout"
CANON = "# Canon\n\n## Elias\n\nElias is tall.\n"


def _build(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    git(root, "init", "-q", "--object-format=sha256")
    write(root, "canon.md", CANON)
    init_and_adopt(root, ["canon.md#Elias"])
    commit_all(root, "adopt")
    return root


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A SHA-256 repository with canon.md#Elias adopted and committed."""
    root = reused((__name__, "repo"), tmp_path / "repo", _build)
    assert len(git(root, "rev-parse", "HEAD")) == 64
    return root


def test_attributes_sha256_staged_ident_rule_detected(repo: Path) -> None:
    """A staged ``ident`` rule for the bound file: the index judged in the throwaway
    git directory as SHA-256 (before: read as SHA-1, nothing found, the commit let
    through)."""
    write(repo, ".gitattributes", (repo / ".gitattributes").read_text() + "canon.md ident\n")
    git(repo, "add", "--", ".gitattributes")
    assert [r.kind for r in judge_staged(repo).extra if r.failed] == [KIND]


def test_attributes_sha256_committed_ident_rule_detected(repo: Path) -> None:
    """The same rule committed, judged at the commit (``check --rev``, ``forest ci``):
    found (before: ``git update-index failed: fatal: malformed index info``)."""
    write(repo, ".gitattributes", (repo / ".gitattributes").read_text() + "canon.md ident\n")
    head = commit_all(repo, "ident")
    (found,) = checkout_rewrite.findings(repo, head, ["canon.md"])
    assert found.kind == KIND and found.path == "canon.md"


@pytest.mark.slow  # the installed hook, a clone and the gate
def test_doors_sha256_repo_silent_edit_refused(repo: Path, tmp_path: Path) -> None:
    """End to end in a SHA-256 repository: the hook refuses a silent edit of the bound
    section; committed with ``--no-verify`` and pushed, ``forest ci`` on a clone fails
    it as drift (before: ``update-index failed`` instead of the finding)."""
    assert pasted(repo, "forest hooks install").returncode == 0
    write(repo, "canon.md", CANON.replace("tall", "short"))
    refused = pasted(repo, "git commit -q -am edit")
    assert refused.returncode == 1 and "drifted canon.md" in refused.stderr, refused.stderr
    assert pasted(repo, "git commit -q --no-verify -am edit").returncode == 0
    git(tmp_path, "clone", "-q", "--bare", str(repo), "shared.git")
    git(tmp_path, "clone", "-q", "shared.git", "clone")
    gate = pasted(tmp_path / "clone", "forest ci --base HEAD~1")
    assert gate.returncode == 1, gate.stdout + gate.stderr
    assert "drifted canon.md#Canon/Elias" in gate.stdout, gate.stdout + gate.stderr
    assert "failed" not in gate.stdout + gate.stderr, gate.stdout + gate.stderr
