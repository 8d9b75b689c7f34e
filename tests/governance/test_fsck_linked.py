"""``forest fsck`` with a symlink or a folder where forest-files keeps one of its files
(``woods.db``, ``local.db``, ``audit.db``): a ``linked`` fault whose line is the one
every other command refuses with (kernel/state.py ``refuse_linked_file``: ``rm --``,
``rm -r --`` for a folder), never ``forest rebuild``, which refuses it too; nothing is
opened through the link. Pasted, the line clears the way: rebuild, then fsck ok."""

from __future__ import annotations

import json
import shlex
import subprocess
from pathlib import Path

import pytest

from tests.helpers.cli import console
from tests.helpers.lanes import lanes
from tests.helpers.state import local_state, shared_state
from tests.helpers.watch import bound_repo


def _plant(root: Path, name: str, kind: str) -> tuple[Path, Path]:
    folder = local_state(root) if name == "woods.db" else shared_state(root)
    db = folder / name
    for side in ("", "-wal", "-shm"):
        Path(f"{db}{side}").unlink(missing_ok=True)
    elsewhere = root.parent / "elsewhere.db"
    if kind == "folder":
        db.mkdir()
    elif kind == "symlink":
        elsewhere.write_bytes(b"")
        db.symlink_to(elsewhere)
    else:  # a link to nothing
        db.symlink_to(root.parent / "nothing.db")
    return db, elsewhere


@pytest.mark.parametrize("kind", ["folder", "symlink", "dangling"])
@pytest.mark.parametrize("name", lanes(["woods.db", "local.db", "audit.db"], fast={"local.db"}))
def test_fsck_link_or_folder_at_a_store_names_its_removal_detected(
    tmp_path: Path, name: str, kind: str
) -> None:
    root = bound_repo(tmp_path)
    db, elsewhere = _plant(root, name, kind)
    done = console(root, "fsck", "--json")
    assert done.returncode == 3, done.stderr
    faults = json.loads(done.stdout)["faults"]
    (linked,) = [f for f in faults if f["code"] == "linked"]
    assert linked["where"] == name, faults
    assert not [f for f in faults if name in f["where"] and f["code"] != "linked"], faults
    fix = linked["detail"].partition("remove it (")[2].partition(") and")[0]
    assert shlex.split(fix)[:2] == (["rm", "-r"] if kind == "folder" else ["rm", "--"]), fix
    (summary,) = done.stderr.strip().splitlines()
    assert "forest rebuild" not in summary and summary.endswith(f"`{fix}`"), summary
    assert linked["fix"] == fix
    if kind == "symlink":  # never opened through the link
        assert elsewhere.read_bytes() == b"" and not list(root.parent.glob("elsewhere.db-*"))
    subprocess.run(fix, shell=True, cwd=root, check=True)
    assert not db.is_symlink() and not db.exists()
    assert console(root, "rebuild").returncode == 0
    after = console(root, "fsck")  # an audit.db removed: rebuild's record starts a new log
    assert after.returncode == 0, after.stdout + after.stderr
