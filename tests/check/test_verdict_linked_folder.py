"""A ledger folder turned into a link after a clean verdict was remembered: the next
``forest check`` judges, and refuses the link, instead of answering from memory.

The remembered verdict and the binding map beside the index are keyed by the ledger's
stat (custody/verdict.py ``ledger_key``). That key listed the segments through
whatever ``segments`` was, and never looked at the folders themselves, so a pull whose
commit turned a body folder (``bodies/<xx>``) into a link left the key as it was:
``forest check`` said clean from memory while ``forest verify``, the hook and ``forest
ci`` refused the link. The key now holds each ledger folder's own ``lstat``.

Real repositories, a real ``git pull`` from a second clone, no hooks installed (so no
post-merge sync refuses the link first), ``forest`` as a user types it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from forest_files.custody import verdict
from tests.helpers.cli import FOREST
from tests.helpers.custody import age_files, init_and_adopt
from tests.helpers.git import commit_all, git, git_env, make_repo, write

LEDGER = Path(".forest/ledger")


def _forest(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **git_env()}
    return subprocess.run(
        [FOREST, *args], cwd=root, env=env, capture_output=True, text=True, timeout=120
    )


def _remembered_clone(tmp_path: Path) -> Path:
    """A clone of an adopted ``canon.md`` whose clean verdict ``forest check`` has
    remembered (its inputs aged past the racy-clean window first)."""
    origin = make_repo(tmp_path, "origin")
    write(origin, "canon.md", "# Canon\n\n## Family\n\nHer brother.\n")
    init_and_adopt(origin, ["canon.md#Canon/Family"])
    commit_all(origin, "adopt")
    git(origin, "checkout", "-q", "--detach")  # the branch free for a push
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(origin), str(clone))
    age_files(clone)
    for _ in range(2):  # the first check syncs the index, the second remembers
        done = _forest(clone, "check")
        assert done.returncode == 0, (done.stdout, done.stderr)
    assert verdict.recall(str(clone)) == 1
    return clone


def _pulled_link(tmp_path: Path, clone: Path) -> str:
    """Another clone commits a body folder of the ledger as a link to a copy outside
    (every body unchanged), pushes; ``clone`` pulls it. Returns the folder's path."""
    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", str(tmp_path / "origin"), str(other))
    bodies = other / LEDGER / "bodies"
    folder = sorted(p for p in bodies.iterdir())[0]
    (tmp_path / "outside").mkdir()
    shutil.copytree(folder, tmp_path / "outside" / folder.name)
    shutil.rmtree(folder)
    os.symlink(tmp_path / "outside" / folder.name, folder)
    git(other, "add", "-A")
    git(other, "commit", "-q", "--no-verify", "-m", "a body folder linked outside")
    git(other, "push", "-q", "origin", "HEAD:main")
    git(clone, "pull", "-q", "--ff-only")
    rel = f"{LEDGER}/bodies/{folder.name}"
    assert (clone / rel).is_symlink()
    return rel


def test_verdict_pulled_linked_body_folder_check_refused(tmp_path: Path) -> None:
    clone = _remembered_clone(tmp_path)
    rel = _pulled_link(tmp_path, clone)
    done = _forest(clone, "check")
    assert "clean" not in done.stdout, done.stdout  # never answered from memory
    assert done.returncode == 3, (done.stdout, done.stderr)
    assert f"{rel} is a symlink" in done.stderr
    assert done.stderr.count("forest:") == 1


def test_verdict_segments_moved_behind_link_check_refused(tmp_path: Path) -> None:
    """The segments moved whole (each file's own stat kept) and a link left in their
    place: a key read through the link matched the remembered one."""
    clone = _remembered_clone(tmp_path)
    ledger = clone / LEDGER
    os.rename(ledger / "segments", tmp_path / "moved-segments")
    os.symlink(tmp_path / "moved-segments", ledger / "segments")
    assert verdict.recall(str(clone)) is None
    done = _forest(clone, "check")
    assert done.returncode == 3 and "clean" not in done.stdout, (done.stdout, done.stderr)
    assert f"{LEDGER}/segments is a symlink" in done.stderr
