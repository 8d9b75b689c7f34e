"""``forest restore`` all or nothing when a target cannot be written
(custody/restore_commit.py).

Real repositories. A file or directory that cannot be written is made immutable
with ``chattr +i`` (root gets around ``chmod a-w``; it cannot get around that),
undone in a ``finally``; where chattr does not work the test is skipped. The one
failure chattr cannot make — a file that cannot be put back after a later rename
failed — is made by failing ``os.replace`` in process for named targets.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, make_repo, write
from tests.helpers.state import shared_state

WORDS = "I adopt these words as written"
CANON = "# Canon\n\n## Hero\n\nThe hero is brave.\n"
ORIGINAL = {"a.md": "# A\n\nA text.\n", "canon.md": CANON, "z.md": "# Z\n\nZ text.\n"}
EDITED = {
    "a.md": "# A\n\nA edited.\n",
    "canon.md": CANON.replace("brave", "bold"),
    "z.md": "# Z\n\nZ edited.\n",
}


def _chattr(flag: str, path: Path) -> None:
    subprocess.run(["chattr", flag, str(path)], check=True, capture_output=True)


@contextmanager
def immutable(path: Path) -> Iterator[None]:
    """``path`` immutable (chattr +i) for the block; the test is skipped where the
    file system or the user cannot set the flag."""
    try:
        _chattr("+i", path)
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("chattr +i does not work here")
    try:
        yield
    finally:
        _chattr("-i", path)


def captures(repo: Path) -> list[Path]:
    folder = shared_state(repo) / "captures"
    return sorted(folder.iterdir()) if folder.is_dir() else []


def restore_audits(repo: Path) -> list[str]:
    db = repo / ".git" / "forest" / "audit.db"
    if not db.exists():
        return []
    conn = sqlite3.connect(db)
    try:
        rows = conn.execute("SELECT reason FROM audit WHERE reason LIKE 'restore-%'").fetchall()
    finally:
        conn.close()
    return [str(r[0]) for r in rows]


def leftovers(repo: Path) -> list[str]:
    """Temporary files a restore left beside its targets."""
    return sorted(p.name for p in repo.rglob("*.forest-restore"))


@pytest.fixture
def drifted(tmp_path: Path) -> Path:
    """a.md, z.md (whole files) and canon.md#Hero adopted and committed, then all three
    edited in the working tree (sub/c.md too, when a test binds it)."""
    repo = make_repo(tmp_path)
    ok(repo, "init")
    for name, text in ORIGINAL.items():
        write(repo, name, text)
    write(repo, "sub/c.md", "# C\n\nC text.\n")
    commit_all(repo, "base")
    ok(repo, "adopt", "a.md", "canon.md#Hero", "z.md", "sub/c.md", "--words", WORDS)
    commit_all(repo, "adopt")
    for name, text in EDITED.items():
        write(repo, name, text)
    write(repo, "sub/c.md", "# C\n\nC edited.\n")
    return repo


def _texts(repo: Path) -> dict[str, str]:
    return {name: (repo / name).read_text(encoding="utf-8") for name in EDITED}


def test_restore_many_unwritable_middle_target_refused(drifted: Path) -> None:
    with immutable(drifted / "canon.md"):
        result = forest(drifted, "restore", "a.md", "canon.md", "z.md")
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.splitlines()
    assert line.startswith("forest: canon.md: ") and "internal error" not in line, line
    assert "nothing was restored" in line and "writable" in line, line
    assert _texts(drifted) == EDITED  # a.md, renamed before canon.md failed, is put back
    assert captures(drifted) == []
    assert restore_audits(drifted) == []
    assert leftovers(drifted) == []
    # the fix named: once canon.md can be written, the same command restores all three
    ok(drifted, "restore", "a.md", "canon.md", "z.md")
    assert _texts(drifted) == ORIGINAL
    assert len(captures(drifted)) == 3
    assert sorted(restore_audits(drifted)) == ["restore-restored"] * 3


def test_restore_single_unwritable_target_refused(drifted: Path) -> None:
    with immutable(drifted / "canon.md"):
        result = forest(drifted, "restore", "canon.md")
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.splitlines()
    assert line.startswith("forest: canon.md: ") and "nothing was restored" in line, line
    assert (drifted / "canon.md").read_text(encoding="utf-8") == EDITED["canon.md"]
    assert captures(drifted) == []
    assert leftovers(drifted) == []


def test_restore_many_unwritable_directory_refused_before_any_rename(drifted: Path) -> None:
    """sub/ cannot take a temporary file: refused while preparing, before a.md is
    renamed; the temporary file already written for a.md is removed."""
    with immutable(drifted / "sub"):
        result = forest(drifted, "restore", "a.md", "sub/c.md", "z.md")
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.splitlines()
    assert line.startswith("forest: sub/c.md: ") and "nothing was restored" in line, line
    assert _texts(drifted) == EDITED
    assert (drifted / "sub/c.md").read_text(encoding="utf-8") == "# C\n\nC edited.\n"
    assert captures(drifted) == []
    assert restore_audits(drifted) == []
    assert leftovers(drifted) == []


def test_restore_many_failed_rename_not_put_back_names_what_was_restored_refused(
    drifted: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """canon.md's rename fails, and so does putting a.md back: the message names
    a.md as restored and where its replaced text is kept; z.md is left alone."""
    real = os.replace
    seen: list[str] = []

    def failing(src: str | os.PathLike[str], dst: str | os.PathLike[str], **at: int) -> None:
        name = Path(dst).name
        if Path(src).name.endswith(".forest-restore") and name in {"a.md", "canon.md"}:
            seen.append(name)
            if name == "canon.md" or seen.count("a.md") > 1:
                raise PermissionError(1, "Operation not permitted", str(dst))
        real(src, dst, **at)  # the capture is renamed in its folder's descriptor

    monkeypatch.setattr(os, "replace", failing)
    result = forest(drifted, "restore", "a.md", "canon.md", "z.md")
    monkeypatch.undo()
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.splitlines()
    assert line.startswith("forest: canon.md: ") and "internal error" not in line, line
    (kept,) = captures(drifted)
    assert "a.md" in line and str(kept) in line, line
    assert "A edited." in kept.read_text(encoding="utf-8")
    assert _texts(drifted) == {**EDITED, "a.md": ORIGINAL["a.md"]}
    assert leftovers(drifted) == []


def test_restore_many_captures_unwritable_refused(drifted: Path) -> None:
    """The replaced texts cannot be kept: refused before any rename, no capture left."""
    folder = shared_state(drifted) / "captures"
    folder.mkdir(mode=0o700, exist_ok=True)
    with immutable(folder):
        result = forest(drifted, "restore", "a.md", "canon.md", "z.md")
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.splitlines()
    assert str(folder) in line and "nothing was restored" in line, line
    assert "internal error" not in line, line
    assert _texts(drifted) == EDITED
    assert captures(drifted) == []
    assert leftovers(drifted) == []
