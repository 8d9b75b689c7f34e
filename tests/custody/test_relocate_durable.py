"""The old layout's move renamed into place on one file system, made durable: both
folders of the rename fsynced after it (custody/relocate_copy.py ``place``).

A directory fsync itself cannot be seen without a power cut, so this test holds what
a test can: the rename's result (every file whole at its new place, nothing left in
``.forest/`` but the ledger, no temporary file), and, in a process of its own with an
audit hook (PEP 578; no product code changed), that after each rename the new folder
and then the old one are opened read-only, as ``kernel/cache.py`` ``fsync_dir`` opens
a folder to fsync it. Before the fix a rename was followed by neither: a crash after
it could lose the move on a file system that does not order a rename with its data.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.custody.test_relocate import _old_layout
from tests.helpers.git import git_env
from tests.helpers.state import shared_state

# The child: every rename, and every folder opened read-only, in order, then the move.
_CHILD = r"""
import json, os, sys
from pathlib import Path

seen = []
_WRITES = os.O_WRONLY | os.O_RDWR | os.O_CREAT


def hook(event, args):
    if event == "os.rename":
        seen.append(["rename", os.fsdecode(args[0]), os.fsdecode(args[1])])
    elif event == "open" and not isinstance(args[0], int) and isinstance(args[2], int):
        path = os.fsdecode(args[0])
        if not args[2] & _WRITES and os.path.isdir(path):
            seen.append(["folder", path])


sys.addaudithook(hook)
from forest_files.custody.relocate import relocate_once

relocate_once(Path(sys.argv[1]))
print(json.dumps(seen))
"""


def test_old_layout_rename_into_place_folders_synced_recovers(tmp_path: Path) -> None:
    root, kept = _old_layout(tmp_path)
    env = {**os.environ, **git_env()}
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(root)],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    renames = [i for i, step in enumerate(seen) if step[0] == "rename"]
    assert len(renames) == len(kept), seen  # each file renamed, none copied
    for at in renames:
        _, old, new = seen[at]
        until_next = seen[at + 1 :]
        later = next((i for i, s in enumerate(until_next) if s[0] == "rename"), None)
        opened = [s[1] for s in until_next[:later] if s[0] == "folder"]
        assert opened[:2] == [os.path.dirname(new), os.path.dirname(old)], (old, new, seen)
    state = shared_state(root)
    for rel, data in kept.items():
        sub = "captures" if "captures" in rel else ""
        assert (state / sub / Path(rel).name).read_bytes() == data, rel
    left = [p for p in (root / ".forest").rglob("*") if "ledger" not in p.parts]
    assert [p.name for p in left] == [".gitignore"], left
    assert not list(state.rglob("*.tmp"))
