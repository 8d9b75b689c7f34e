"""Old views pruned: the six newest kept with their side files, the rest removed with
theirs, in the views folder opened with no link followed (custody/viewprune.py)."""

from __future__ import annotations

import os
from pathlib import Path

from forest_files.custody import bindmap
from forest_files.custody.viewprune import MAX_VIEWS, prune
from forest_files.kernel.state import ensure_dir, worktree_dir
from tests.helpers.git import make_repo

SIDES = (".bound", ".seal", ".manifest")


def _views(tmp_path: Path, count: int) -> Path:
    """``count`` views (oldest first), each with its side files and binding-map record."""
    folder = Path(ensure_dir(worktree_dir(make_repo(tmp_path)) / "views"))
    for n in range(count):
        view = folder / f"v{n}.db"
        for path in (
            view,
            *(view.with_suffix(s) for s in SIDES),
            Path(bindmap.view_record(str(view))),
        ):
            path.write_bytes(b"x")
            os.utime(path, ns=(n * 10**9, n * 10**9))
    return folder


def test_view_prune_past_max_views_oldest_removed_accepted(tmp_path: Path) -> None:
    folder = _views(tmp_path, MAX_VIEWS + 2)
    prune(folder)
    kept = sorted(p.name for p in folder.iterdir() if p.suffix == ".db")
    assert kept == [f"v{n}.db" for n in range(2, MAX_VIEWS + 2)]
    left = {p.name.split(".")[0] for p in folder.iterdir()}
    assert left == {f"v{n}" for n in range(2, MAX_VIEWS + 2)}  # side files went with theirs


def test_view_prune_folder_swapped_for_link_refused(tmp_path: Path) -> None:
    """``views/`` swapped for a link to a folder of databases: nothing there removed."""
    folder = _views(tmp_path, 1)
    outside = tmp_path / "lib"
    outside.mkdir()
    for n in range(MAX_VIEWS + 3):
        (outside / f"app{n}.db").write_bytes(b"keep")
    folder.rename(folder.with_name("views-moved"))
    folder.symlink_to(outside)
    prune(folder)
    assert len(list(outside.iterdir())) == MAX_VIEWS + 3
