"""A state folder held (kernel/held.py): every name resolved in the folder opened from
the git directory, even after its owner swapped it for a link; by path where the
system has no descriptors to work in."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from forest_files.kernel.held import BY_FD, HeldFolder, hold
from forest_files.kernel.state import ensure_dir, worktree_dir
from tests.helpers.git import make_repo

needs_fds = pytest.mark.skipif(not BY_FD, reason="this system works in no folder descriptor")


def _state_folder(tmp_path: Path) -> Path:
    """``.git/forest/cache`` of a new repository, holding ``old.bin``."""
    folder = Path(ensure_dir(worktree_dir(make_repo(tmp_path)) / "cache"))
    (folder / "old.bin").write_bytes(b"ours\n")
    return folder


def _swap(folder: Path, outside: Path) -> Path:
    """``folder`` moved aside and a link to ``outside`` (holding root's ``old.bin``) put
    at its name, as the folder's owner might; where the folder went."""
    outside.mkdir()
    (outside / "old.bin").write_bytes(b"root's own\n")
    moved = folder.with_name("cache-moved")
    folder.rename(moved)
    folder.symlink_to(outside)
    return moved


@needs_fds
def test_held_folder_swapped_for_link_names_land_in_original_accepted(tmp_path: Path) -> None:
    folder = _state_folder(tmp_path)
    outside = tmp_path / "roots"
    with hold(folder) as held:
        moved = _swap(folder, outside)
        fd = held.open("new.tmp", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        os.write(fd, b"made\n")
        os.close(fd)
        held.replace("new.tmp", "new.bin")
        assert held.stat("new.bin").st_size == len(b"made\n")
        held.unlink("old.bin")
        held.unlink("gone.bin", missing_ok=True)
        assert sorted(held.listdir()) == ["new.bin"]
        assert [e.name for e in held.scandir()] == ["new.bin"]
        assert held.where("new.bin") == ("new.bin", held.at)
    assert sorted(p.name for p in moved.iterdir()) == ["new.bin"]
    assert [p.name for p in outside.iterdir()] == ["old.bin"]
    assert (outside / "old.bin").read_bytes() == b"root's own\n"


@needs_fds
def test_held_folder_through_after_swap_opens_original_accepted(tmp_path: Path) -> None:
    """The name a library with no descriptor (SQLite) opens, as root: the original."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0 or not os.path.isdir("/proc/self/fd"):
        pytest.skip("names through /proc/self/fd are root's on Linux only (kernel/paths.py)")
    folder = _state_folder(tmp_path)
    with hold(folder) as held:
        moved = _swap(folder, tmp_path / "roots")
        with open(held.through("old.bin"), "rb") as fh:
            assert fh.read() == b"ours\n"
    assert (moved / "old.bin").read_bytes() == b"ours\n"


@needs_fds
def test_hold_folder_already_a_link_refused(tmp_path: Path) -> None:
    folder = _state_folder(tmp_path)
    outside = tmp_path / "roots"
    _swap(folder, outside)
    with pytest.raises(OSError):
        hold(folder)
    assert (outside / "old.bin").read_bytes() == b"root's own\n"


def test_held_folder_by_path_names_joined_accepted(tmp_path: Path) -> None:
    """The fallback where ``BY_FD`` is off (Windows): every name by its path."""
    folder = _state_folder(tmp_path)
    held = HeldFolder(str(folder))
    assert held.at is None
    assert held.where("old.bin") == (str(folder / "old.bin"), None)
    assert held.through("old.bin") == str(folder / "old.bin")
    fd = held.open("new.tmp", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    os.close(fd)
    held.replace("new.tmp", "new.bin")
    assert held.stat("new.bin").st_size == 0
    held.unlink("old.bin")
    assert held.listdir() == ["new.bin"] == [e.name for e in held.scandir()]
    with pytest.raises(FileNotFoundError):
        held.unlink("old.bin")
    held.unlink("old.bin", missing_ok=True)
    held.close()
    assert sorted(p.name for p in folder.iterdir()) == ["new.bin"]


@needs_fds
def test_held_folder_closed_resolves_no_name_refused(tmp_path: Path) -> None:
    """A closed hold never resolves a name in a descriptor number since reused."""
    folder = _state_folder(tmp_path)
    held = hold(folder)
    held.close()
    held.close()  # again: nothing
    with pytest.raises(ValueError, match="no longer held"):
        held.unlink("old.bin")
    with pytest.raises(ValueError, match="no longer held"):
        held.listdir()
    assert (folder / "old.bin").read_bytes() == b"ours\n"
