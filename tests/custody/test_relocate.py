"""An old layout (local state under ``.forest/`` in the work tree) is moved into the
git directory on the first command, once: what a user wrote arrives byte for
byte, what the ledger rebuilds is dropped, nothing is lost (custody/relocate.py)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from forest_files.custody.proposals import ProposalStore
from forest_files.custody.relocate import relocate_once
from forest_files.custody.repository import Repository
from tests.helpers.cli import kinds
from tests.helpers.custody import DOC, propose_on_latest, two_bound_files
from tests.helpers.git import git
from tests.helpers.state import shared_state


def _old_layout(tmp_path: Path) -> tuple[Path, dict[str, bytes]]:
    """A repository whose local files sit where forest-files used to keep them: the
    proposals and audit files, a capture, the index, a view and a cache file."""
    root = two_bound_files(tmp_path)
    propose_on_latest(root, "b.md", "#Title/Keep", DOC.replace("second", "proposed"))
    state = shared_state(root)
    old = root / ".forest"
    (old / "cache" / "captures").mkdir(parents=True)
    (old / "cache" / "views").mkdir()
    (old / "cache" / "captures" / "2026-01-01T000000Z-abc.txt").write_text("captured\n")
    (old / "cache" / "views" / "x.db").write_bytes(b"view")
    (old / "cache" / "stat-cpython-311.bin").write_bytes(b"stat")
    for name in ("local.db", "audit.db", "woods.db"):
        for suffix in ("", "-wal", "-shm"):
            if (state / (name + suffix)).exists():
                shutil.move(state / (name + suffix), old / (name + suffix))
    (old / "woods.db.bindmap-x").write_bytes(b"map")
    shutil.rmtree(state)
    kept = {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in old.rglob("*")
        if (p.is_file() and "captures" in p.parts) or p.name.startswith(("local.db", "audit.db"))
    }
    return root, kept


def test_old_layout_first_command_moves_once_recovers(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    root, kept = _old_layout(tmp_path)
    done = relocate_once(root)  # what the first command (Repository) runs first
    assert done is not None and len(done.dropped) >= 4
    notice = capfd.readouterr().err
    assert notice.startswith("forest: local state now lives in the git directory")
    assert notice.count("\n") == 1
    state = shared_state(root)
    for rel, data in kept.items():
        name = Path(rel).name
        moved = state / ("captures" if "captures" in rel else "") / name
        assert moved.read_bytes() == data, rel
    left = [p.name for p in (root / ".forest").rglob("*") if "ledger" not in p.parts]
    assert left == [".gitignore"]
    assert not (root / ".forest" / "cache").exists()
    with ProposalStore(root) as local:
        assert len(local.open_proposals()) == 1  # the proposal survived the move
    with Repository(root) as repo:  # the index is rebuilt from the ledger
        repo.sync()
    assert kinds(root) == ["clean", "clean"]
    again = relocate_once(root)  # run twice: nothing left to do, nothing said
    assert again is None
    assert capfd.readouterr().err == ""


def test_old_layout_taken_place_kept_beside_recovers(tmp_path: Path) -> None:
    """A file whose new place is already taken is kept under ``legacy/``, not lost."""
    root, kept = _old_layout(tmp_path)
    state = shared_state(root)
    state.mkdir()
    (state / "audit.db").write_bytes(b"newer log")
    done = relocate_once(root)
    assert done is not None
    assert (state / "audit.db").read_bytes() == b"newer log"
    legacy = state / "legacy" / "1"
    assert (legacy / "audit.db").read_bytes() == kept[".forest/audit.db"]
    # the database moved with its journal files, to one place, none beside the new one
    for side in ("-wal", "-shm"):
        if ".forest/audit.db" + side in kept:
            assert (legacy / ("audit.db" + side)).read_bytes() == kept[".forest/audit.db" + side]
        assert not (state / ("audit.db" + side)).exists()


def test_old_layout_symlinked_capture_never_followed_refused(tmp_path: Path) -> None:
    """A symlink among the old captures is neither followed nor moved."""
    root, _kept = _old_layout(tmp_path)
    outside = tmp_path / "outside.txt"
    outside.write_text("outside\n")
    link = root / ".forest" / "cache" / "captures" / "link.txt"
    os.symlink(outside, link)
    done = relocate_once(root)
    assert done is not None and ".forest/cache/captures/link.txt" not in done.moved
    assert outside.read_text() == "outside\n"
    assert not (shared_state(root) / "captures" / "link.txt").exists()


def test_old_layout_tracked_file_left_in_place_refused(tmp_path: Path) -> None:
    root, _kept = _old_layout(tmp_path)
    git(root, "add", "-f", ".forest/local.db")
    done = relocate_once(root)
    assert done is not None and ".forest/local.db" in done.kept
    assert (root / ".forest" / "local.db").is_file()


def test_old_layout_move_across_file_systems_copied_recovers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The git directory on another file system than the work tree (a rename fails with
    EXDEV): each file is copied there and the old one removed, byte for byte (the copy
    written under a temporary name and renamed in: custody/relocate_copy.py)."""
    import errno

    root, kept = _old_layout(tmp_path)
    real = os.replace

    def across(src: object, dst: object, **dir_fds: int | None) -> None:
        if ".forest" in Path(str(src)).parts:
            raise OSError(errno.EXDEV, "Invalid cross-device link")
        real(str(src), str(dst), **dir_fds)  # kernel/cache.py renames in a folder's fd

    monkeypatch.setattr(os, "replace", across)
    done = relocate_once(root)
    assert done is not None and sorted(done.moved) == sorted(kept)
    state = shared_state(root)
    for rel, data in kept.items():
        moved = state / ("captures" if "captures" in rel else "") / Path(rel).name
        assert moved.read_bytes() == data, rel
        assert not (root / rel).exists(), rel
