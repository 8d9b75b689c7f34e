"""The remembered clean verdict (files/verdict.py): it answers an unchanged tree
without opening the store, and any change to an input makes it miss, never lie."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from forest_files.custody import verdict
from tests.helpers.custody import DOC, age_files, retire, two_bound_files
from tests.helpers.git import git_env
from tests.helpers.imports import loaded


def _fast(root: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **git_env(), "FOREST_DEBUG_IMPORTS": "1"}
    return subprocess.run(
        [sys.executable, "-m", "forest_files.doors.fastcheck"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _answered_from_record(proc: subprocess.CompletedProcess[str]) -> bool:
    return "sqlite3" not in loaded(proc.stderr)


def _recorded(root: Path) -> bool:
    return Path(verdict.record_path(str(root))).exists()


def test_clean_check_is_remembered_and_repeated_without_the_store(tmp_path: Path) -> None:
    root = two_bound_files(tmp_path)
    first = _fast(root)
    assert first.returncode == 0, first.stderr
    assert _recorded(root)
    assert not _answered_from_record(first)
    second = _fast(root)
    assert second.returncode == 0
    assert _answered_from_record(second)
    assert second.stdout == first.stdout  # same summary line, same count


def test_edit_keeping_size_and_mtime_is_not_answered_from_the_record(tmp_path: Path) -> None:
    root = two_bound_files(tmp_path)
    assert _fast(root).returncode == 0 and _recorded(root)
    target = root / "a.md"
    st = target.stat()
    target.write_text(DOC.replace("kept words", "keen words"), encoding="utf-8")  # same size
    os.utime(target, ns=(st.st_atime_ns, st.st_mtime_ns))  # mtime forged back
    proc = _fast(root)
    assert proc.returncode == 1, proc.stdout
    assert "drifted" in proc.stdout
    assert not _recorded(root)  # a failing check drops the record


def test_new_ledger_segment_invalidates(tmp_path: Path) -> None:
    root = two_bound_files(tmp_path)
    assert _fast(root).returncode == 0 and _recorded(root)
    before = verdict.ledger_key(str(root))
    retire(root, "b.md#Keep")  # a retire is a new segment: one binding fewer
    assert verdict.ledger_key(str(root)) != before
    age_files(root)
    proc = _fast(root)
    assert proc.returncode == 0
    assert not _answered_from_record(proc)
    assert "1 binding(s) checked" in proc.stdout


def test_forest_toml_change_invalidates(tmp_path: Path) -> None:
    root = two_bound_files(tmp_path)
    assert _fast(root).returncode == 0 and _recorded(root)
    with open(root / "forest.toml", "a", encoding="utf-8") as fh:
        fh.write("\n")
    assert not _answered_from_record(_fast(root))


def test_file_swapped_for_a_symlink_is_a_miss(tmp_path: Path) -> None:
    root = two_bound_files(tmp_path)
    assert _fast(root).returncode == 0 and _recorded(root)
    (root / "copy.md").write_text(DOC, encoding="utf-8")
    (root / "a.md").unlink()
    (root / "a.md").symlink_to("copy.md")
    assert verdict.recall(str(root)) is None


def test_deleted_bound_file_is_a_miss(tmp_path: Path) -> None:
    root = two_bound_files(tmp_path)
    assert _fast(root).returncode == 0 and _recorded(root)
    (root / "b.md").unlink()
    proc = _fast(root)
    assert proc.returncode == 1 and "missing" in proc.stdout


@pytest.mark.parametrize("junk", [b"", b"\x00garbage", b"not marshal at all"])
def test_corrupt_record_is_a_miss(tmp_path: Path, junk: bytes) -> None:
    root = two_bound_files(tmp_path)
    assert _fast(root).returncode == 0
    Path(verdict.record_path(str(root))).write_bytes(junk)
    assert verdict.recall(str(root)) is None
    proc = _fast(root)
    assert proc.returncode == 0 and not _answered_from_record(proc)


def test_racily_clean_ledger_is_not_remembered(tmp_path: Path) -> None:
    root = two_bound_files(tmp_path)
    ledger = verdict.ledger_key(str(root))
    assert ledger is not None
    segments, _config, _folders = ledger
    newest = max(k[1] for _, k in segments)
    # A stamp not later than a segment's mtime: an edit in that tick could keep its stat.
    assert not verdict.remember(str(root), ledger, newest, {}, 2)
    assert verdict.remember(str(root), ledger, verdict.stamp(str(root)), {}, 2)


def test_record_of_another_version_is_a_miss(tmp_path: Path) -> None:
    root = two_bound_files(tmp_path)
    assert _fast(root).returncode == 0 and _recorded(root)
    from forest_files.kernel import cache

    path = verdict.record_path(str(root))
    got = cache.read(path, "verdict")
    assert isinstance(got, tuple)
    doc = list(got)
    doc[1] = "0.0.0-other"
    assert cache.write(path, "verdict", tuple(doc))  # this clone's own key: a valid record
    assert verdict.recall(str(root)) is None


def test_cli_check_writes_the_record_fastcheck_reads(tmp_path: Path) -> None:
    root = two_bound_files(tmp_path)
    env = {**os.environ, **git_env()}
    cli = subprocess.run(
        [sys.executable, "-c", "from forest_files.doors.cli import main; main()", "check"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert cli.returncode == 0, cli.stderr
    proc = _fast(root)
    assert _answered_from_record(proc)
    assert proc.stdout.splitlines()[-1] == cli.stdout.splitlines()[-1]


def test_git_dir_redirect_skips_the_quick_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = two_bound_files(tmp_path)
    assert verdict.quick_root(str(root / "sub")) == str(root)
    monkeypatch.setenv("GIT_DIR", str(root / ".git"))
    assert verdict.quick_root(str(root)) is None
