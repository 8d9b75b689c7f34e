"""forest-files as a hook of the real pre-commit framework, end to end.

A clone of this repository at its HEAD is the hook repository (so uncommitted
work never leaks in; a file the hook needs that is not committed shows up as a
failure here). pre-commit builds its own virtualenv for it (pip, from PyPI),
then real ``git commit`` runs the ``forest-check`` hook.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import forest_files.doors.cli  # noqa: F401  (registers every command)
from forest_files.doors.cli import app
from tests.helpers.git import commit_all, git, make_repo, write

SOURCE = Path(__file__).resolve().parents[2]
PRE_COMMIT = Path(sys.executable).parent / "pre-commit"
WORDS = "I adopt these words as written"
CANON = "# Canon\n\nIntro.\n\n## Rules\n\nThe first rule stands.\n\n## Elsewhere\n\nOther.\n"


def run(cwd: Path, *cmd: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        list(cmd), cwd=cwd, env=env, capture_output=True, text=True, check=False, timeout=600
    )


@pytest.mark.slow
def test_precommit_framework_forest_check(tmp_path: Path) -> None:
    """The real pre-commit tool, with the config docs/hooks-and-ci.md shows, installs our
    hooks from a clone and runs them on commits, a revert and a merge commit (one hook
    environment built for all: pip builds it in about two minutes)."""
    head = git(SOURCE, "rev-parse", "HEAD")
    hook_repo = tmp_path / "forest-files"
    git(tmp_path, "clone", "-q", "--no-hardlinks", str(SOURCE), str(hook_repo))
    git(hook_repo, "checkout", "-q", head)

    canon = make_repo(tmp_path, "canon")
    runner = CliRunner()
    assert runner.invoke(app, ["init", "--repo", str(canon)]).exit_code == 0
    write(canon, "canon.md", CANON)
    commit_all(canon, "file")
    done = runner.invoke(app, ["adopt", "canon.md#Rules", "--words", WORDS, "--repo", str(canon)])
    assert done.exit_code == 0, done.stderr
    write(canon, ".pre-commit-config.yaml", doc_config(hook_repo, head))
    commit_all(canon, "adopt")

    env = dict(os.environ)
    env["PRE_COMMIT_HOME"] = str(tmp_path / "pre-commit-home")
    # A plain install, as the docs say: their config names the stages to install.
    installed = run(canon, str(PRE_COMMIT), "install", env=env)
    assert installed.returncode == 0, installed.stdout + installed.stderr

    # Clean: a change outside the bound section (the first run builds the hook env).
    write(canon, "canon.md", CANON + "\nAn appendix.\n")
    git(canon, "add", "canon.md")
    clean = run(canon, "git", "commit", "-m", "appendix", env=env)
    out = clean.stdout + clean.stderr
    assert clean.returncode == 0, out
    assert "forest-files custody check" in out and "Passed" in out

    # Drifted: the bound section changed, staged without a supersession.
    before = git(canon, "rev-parse", "HEAD")
    write(canon, "canon.md", CANON.replace("stands", "bends"))
    git(canon, "add", "canon.md")
    staged = git(canon, "diff", "--cached")
    drifted = run(canon, "git", "commit", "-m", "drift", env=env)
    out = drifted.stdout + drifted.stderr
    assert drifted.returncode != 0, out
    assert "Failed" in out and "- hook id: forest-check" in out
    assert "drifted canon.md#Canon/Rules" in out
    assert git(canon, "rev-parse", "HEAD") == before
    assert git(canon, "diff", "--cached") == staged

    # A revert of an adoption (git asks no pre-commit hook): the framework's
    # post-commit stage says what it took out of the ledger.
    git(canon, "reset", "-q", "--hard", "HEAD")
    done = runner.invoke(
        app, ["adopt", "canon.md#Elsewhere", "--words", WORDS, "--repo", str(canon)]
    )
    assert done.exit_code == 0, done.stderr
    git(canon, "add", "-A")
    adopted = run(canon, "git", "commit", "-m", "adopt elsewhere", env=env)
    assert adopted.returncode == 0, adopted.stdout + adopted.stderr
    assert "removes acts from the ledger" not in adopted.stdout + adopted.stderr
    reverted = run(canon, "git", "revert", "--no-edit", "HEAD", env=env)
    out = reverted.stdout + reverted.stderr
    assert reverted.returncode == 0, out
    assert "- hook id: forest-after-commit" in out and "removes acts from the ledger" in out

    # A merge git makes without a conflict (the pre-merge-commit stage): a branch that
    # drifted with --no-verify is refused, HEAD unchanged.
    main = git(canon, "rev-parse", "--abbrev-ref", "HEAD")
    git(canon, "checkout", "-q", "-b", "side")
    write(canon, "canon.md", CANON.replace("stands", "bends"))
    git(canon, "add", "canon.md")
    git(canon, "commit", "-q", "--no-verify", "-m", "drift past the hook")
    git(canon, "checkout", "-q", main)
    before = git(canon, "rev-parse", "HEAD")
    merged = run(canon, "git", "merge", "--no-ff", "-m", "merge side", "side", env=env)
    out = merged.stdout + merged.stderr
    assert merged.returncode != 0, out
    assert "- hook id: forest-check" in out and "drifted canon.md#Canon/Rules" in out
    assert git(canon, "rev-parse", "HEAD") == before


def doc_config(hook_repo: Path, rev: str) -> str:
    """The ``.pre-commit-config.yaml`` docs/hooks-and-ci.md shows, pointed at ``hook_repo``."""
    doc = (SOURCE / "docs" / "hooks-and-ci.md").read_text(encoding="utf-8")
    section = doc.split("## The pre-commit framework", 1)[1]
    block = section.split("```yaml\n", 1)[1].split("```", 1)[0]
    block = block.replace("https://example.com/your-mirror/forest-files", str(hook_repo))
    return block.replace("0123456789abcdef0123456789abcdef01234567", rev)
