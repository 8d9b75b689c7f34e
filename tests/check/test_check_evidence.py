"""A check believes only bytes it read (or a cache this machine computed from them).

The index's ``binding_events`` table is a local cache of the ledger; a file hash
written there by hand stands for a forged rebind act. Whatever it says, a
tampered section must be ``drifted`` in every door: ``forest check``, the fast
entry, ``forest check --staged`` and the pre-commit hook.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from forest_files.custody import bindmap
from forest_files.doors import hooks as githooks
from forest_files.text.normalise import normalised_hash
from tests.helpers.custody import age_files, init_and_adopt
from tests.helpers.git import commit_all, git, git_env, make_repo, write
from tests.helpers.state import local_state

# The slow lane (.ci/run runs it; the README's fast command leaves it out):
# whole repositories judged door by door.
pytestmark = pytest.mark.slow

CANON = "# Canon\n\n## Rules\n\nThe first rule stands.\n\n## Elsewhere\n\nOther words.\n"
RULES = "canon.md#Canon/Rules"


def _run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **git_env()}
    return subprocess.run(
        list(args), cwd=root, env=env, capture_output=True, text=True, timeout=120, check=False
    )


def _forest(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    code = "from forest_files.doors.cli import main; main()"
    return _run(root, sys.executable, "-c", code, *args)


def _forge_file_hash(db: Path, file_hash: str) -> None:
    """Write ``file_hash`` as every binding's recorded hash in the index ``db`` (a local
    cache table, no trigger; format 2 records no file hash, so the section hash stands
    for what a hand-written act could claim), and drop the binding map derived from it."""
    conn = sqlite3.connect(db)
    try:
        with conn:
            changed = conn.execute(
                "UPDATE binding_events SET section_hash = ? WHERE kind != 'retire'", (file_hash,)
            ).rowcount
    finally:
        conn.close()
    assert changed >= 1
    bindmap.forget(bindmap.view_record(str(db)))


def _views(root: Path) -> list[Path]:
    return sorted((local_state(root) / "views").glob("*.db"))


@pytest.fixture
def tampered(tmp_path: Path) -> tuple[Path, str]:
    """A committed, checked (every cache warm) binding of ``#Rules`` whose section is
    then edited, with the edited file's hash written into the index as the binding's."""
    root = make_repo(tmp_path)
    write(root, "canon.md", CANON)
    init_and_adopt(root, [RULES])
    commit_all(root, "adopt")
    githooks.install(root)
    age_files(root)
    assert _forest(root, "check").returncode == 0
    assert _forest(root, "check", "--staged").returncode == 0
    write(root, "canon.md", CANON.replace("first rule stands", "first rule bends"))
    forged = normalised_hash((root / "canon.md").read_bytes())
    assert forged is not None
    _forge_file_hash(local_state(root) / "woods.db", forged)
    return root, forged


def test_check_forged_file_hash_in_index_detected(tampered: tuple[Path, str]) -> None:
    root, _ = tampered
    proc = _forest(root, "check")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert f"drifted {RULES}" in proc.stdout


def test_fastcheck_forged_file_hash_in_index_detected(tampered: tuple[Path, str]) -> None:
    root, _ = tampered
    proc = _run(root, sys.executable, "-m", "forest_files.doors.fastcheck")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert f"drifted {RULES}" in proc.stdout


def test_hook_forged_file_hash_in_staged_view_detected(tampered: tuple[Path, str]) -> None:
    root, forged = tampered
    git(root, "add", "canon.md")
    views = _views(root)
    assert views, "the staged check built no view"
    for view in views:
        _forge_file_hash(view, forged)
    staged = _forest(root, "check", "--staged")
    assert staged.returncode == 1, staged.stdout + staged.stderr
    assert f"drifted {RULES}" in staged.stdout
    fast = _run(root, sys.executable, "-m", "forest_files.doors.fastcheck", "--staged")
    assert fast.returncode == 1 and f"drifted {RULES}" in fast.stdout
    head = git(root, "rev-parse", "HEAD")
    commit = _run(root, "git", "commit", "-q", "-m", "smuggle")
    assert commit.returncode != 0, commit.stdout + commit.stderr
    assert f"drifted {RULES}" in commit.stderr
    assert git(root, "rev-parse", "HEAD") == head
