"""Cache records are claims this machine made for itself: one format, one MAC under a
key in the git directory; a record that does not verify is ignored and rebuilt,
never believed (kernel/cache.py, custody/viewkey.py)."""

from __future__ import annotations

import marshal
import os
import shutil
from pathlib import Path

import pytest

from forest_files.custody import verdict
from forest_files.kernel import cache
from forest_files.kernel.state import shared_dir, worktree_dir
from tests.helpers.cli import kinds
from tests.helpers.custody import DOC, two_bound_files
from tests.helpers.git import git, make_repo, write

DRIFTED = DOC.replace("kept words", "kept words, changed")


def _state(tmp_path: Path) -> Path:
    root = make_repo(tmp_path)
    return worktree_dir(root)


def test_cache_record_round_trip_accepted(tmp_path: Path) -> None:
    state = _state(tmp_path)
    path = state / "cache" / "x.bin"
    assert cache.write(path, "demo", {"a": (1, "two")})
    assert cache.read(path, "demo") == {"a": (1, "two")}
    key = shared_dir(state.parent.parent) / cache.KEY_NAME
    assert key.stat().st_size == 32 and (key.stat().st_mode & 0o077) == 0


def test_cache_record_tampered_payload_refused(tmp_path: Path) -> None:
    state = _state(tmp_path)
    path = state / "cache" / "x.bin"
    cache.write(path, "demo", ("clean", 10))
    data = bytearray(path.read_bytes())
    data[-2] ^= 0x01  # one bit of the marshalled value
    path.write_bytes(bytes(data))
    assert cache.read(path, "demo") is None


def test_cache_record_of_another_kind_refused(tmp_path: Path) -> None:
    state = _state(tmp_path)
    path = state / "cache" / "x.bin"
    cache.write(path, "demo", 1)
    assert cache.read(path, "other") is None


def test_cache_record_without_mac_refused(tmp_path: Path) -> None:
    """A record in the old format (bare marshal), or one with a forged header and no
    key, is never decoded as a value."""
    state = _state(tmp_path)
    path = state / "cache" / "x.bin"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(marshal.dumps(("clean", 10)))
    assert cache.read(path, "demo") is None
    forged = cache.MAGIC + bytes((4,)) + b"demo" + b"\0" * 32 + marshal.dumps(("clean", 10))
    path.write_bytes(forged)
    assert cache.read(path, "demo") is None


def test_cache_record_from_another_clone_refused(tmp_path: Path) -> None:
    """Each clone has its own key: a record copied from another clone is not believed."""
    one = _state(tmp_path / "one")
    two = _state(tmp_path / "two")
    cache.write(one / "cache" / "x.bin", "demo", "value")
    (two / "cache").mkdir(parents=True, exist_ok=True)
    shutil.copy(one / "cache" / "x.bin", two / "cache" / "x.bin")
    assert cache.read(two / "cache" / "x.bin", "demo") is None


def test_cache_record_symlink_never_followed_refused(tmp_path: Path) -> None:
    state = _state(tmp_path)
    real = state / "cache" / "real.bin"
    cache.write(real, "demo", "value")
    link = state / "cache" / "link.bin"
    link.symlink_to(real)
    assert cache.read(link, "demo") is None
    outside = tmp_path / "outside.bin"
    outside.write_bytes(b"keep")
    (state / "cache" / "out.bin").symlink_to(outside)
    assert cache.write(state / "cache" / "out.bin", "demo", "value")  # replaces the link
    assert outside.read_bytes() == b"keep"
    assert not (state / "cache" / "out.bin").is_symlink()


def test_verdict_forged_clean_record_never_believed_detected(tmp_path: Path) -> None:
    """A remembered clean verdict rewritten by another program (no key) does not make
    a drifted file clean."""
    root = two_bound_files(tmp_path)
    assert kinds(root) == ["clean", "clean"]
    record = Path(verdict.record_path(str(root)))
    assert record.is_file()
    write(root, "a.md", DRIFTED)
    data = record.read_bytes()
    head = len(cache.MAGIC) + 1 + data[len(cache.MAGIC)]
    record.write_bytes(data[:head] + os.urandom(32) + data[head + 32 :])
    assert "drifted" in kinds(root)


def test_view_replaced_by_another_file_rebuilt(tmp_path: Path) -> None:
    """A view file swapped for another SQLite file (same name) is not read: the seal
    names the file this machine built, so the view is built again."""
    from forest_files.custody.viewkey import view_detail, view_ready

    root = two_bound_files(tmp_path)
    base = git(root, "rev-parse", "HEAD")
    write(root, "a.md", DRIFTED)
    git(root, "add", "a.md")
    git(root, "commit", "-q", "--no-verify", "-m", "drift")
    from tests.helpers.cli import forest

    first = forest(root, "ci", "--base", base)
    assert first.exit_code == 1
    views = sorted((worktree_dir(root) / "views").glob("*.db"))
    assert views
    for view in views:
        assert view_detail(view) is not None
        other = views[0] if view != views[0] else views[-1]
        forged = view.with_name("forged.tmp")
        shutil.copy(other, forged)
        os.replace(forged, view)
        assert view_detail(view) is None or other == view
    again = forest(root, "ci", "--base", base)
    assert again.exit_code == 1 and again.output == first.output
    assert all(view_ready(v) for v in sorted((worktree_dir(root) / "views").glob("*.db")))


def test_cache_write_folder_swapped_for_link_after_check_refused(tmp_path: Path) -> None:
    """The state folder's owner swaps ``cache/`` for a link to another folder after
    ``ensure_dir`` looked at it (as root writes in their repository): the record's temp
    file was made, and renamed in, through the link. Now the folder is opened from the
    git directory with no link followed: OSError, nothing written anywhere."""
    state = _state(tmp_path)
    folder = state / "cache"
    assert cache.write(folder / "a.bin", "demo", 1)  # the folder made and checked
    outside = tmp_path / "outside"
    outside.mkdir()
    folder.rename(state / "cache-moved")
    folder.symlink_to(outside)
    with pytest.raises(OSError):
        cache.replace_atomically(str(folder / "b.bin"), b"record")
    assert list(outside.iterdir()) == []
    assert sorted(p.name for p in (state / "cache-moved").iterdir()) == ["a.bin"]
