"""The old layout's move when an old file cannot be removed after its copy (``chattr
+i`` on it, or, for a user other than root, its folder made read-only): it stays in
both places, and no later command copies it again or keeps it under ``legacy/``
(custody/relocate_copy.py ``Noted``).

The copy at the new place is the one in use: the commands after the first add to
the audit log there. Before the fix the next command saw the new place taken by
another file and filed the old log under ``legacy/<n>/``, again in every command
that opened the log (a new ``legacy/<n>`` each time). Now the first command notes
the file it copied and could not remove (``relocated.json``: its size, mtime and
inode), later ones leave it alone, and the first one that can remove it does.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

from forest_files.custody.relocate_copy import NOTED
from tests.custody.test_relocate import _old_layout
from tests.helpers.cli import console
from tests.helpers.immutable import immutable
from tests.helpers.state import shared_state


@contextmanager
def _undeletable(path: Path) -> Iterator[None]:
    """``path`` that this user cannot remove, while the block runs."""
    if os.geteuid() == 0:  # root removes a file from a read-only folder: make it immutable
        with immutable(path):
            yield
        return
    os.chmod(path.parent, 0o555)
    try:
        yield
    finally:
        os.chmod(path.parent, 0o755)


def _records(path: Path) -> list[tuple[object, ...]]:
    with closing(sqlite3.connect(path)) as conn:
        return conn.execute("SELECT * FROM audit ORDER BY seq").fetchall()


def test_old_layout_unremovable_source_never_copied_again_recovers(tmp_path: Path) -> None:
    root, kept = _old_layout(tmp_path)
    old_log = root / ".forest" / "audit.db"
    (tmp_path / "old-audit.db").write_bytes(kept[".forest/audit.db"])
    old = _records(tmp_path / "old-audit.db")
    state = shared_state(root)
    with _undeletable(old_log):
        first = console(root, "status")
        assert first.returncode == 0, first.stderr
        (root / "a.md").write_text((root / "a.md").read_text().replace("kept", "changed"))
        assert console(root, "check").returncode == 1  # a drift: the log in use grows
        grown = _records(state / "audit.db")
        assert len(grown) > len(old)
        for _ in range(2):  # each opens the log in use (a drift recorded), after the move
            again = console(root, "check")
            assert again.returncode == 1, again.stderr
            assert "legacy" not in again.stderr, again.stderr
        assert not (state / "legacy").exists(), sorted(p.name for p in state.iterdir())
        assert old_log.read_bytes() == kept[".forest/audit.db"]  # still there, whole
        assert (state / NOTED).exists()
        assert "could not remove .forest/audit.db after copying it" in first.stderr
    last = console(root, "check")  # it can be removed now: removed, the note with it
    assert last.returncode == 1, last.stderr
    assert not old_log.exists()
    assert not (state / NOTED).exists()
    assert not (state / "legacy").exists()
    assert _records(state / "audit.db")[: len(old)] == old  # every old record, once
    assert _records(state / "audit.db")[: len(grown)] == grown
    assert "local state" not in last.stderr  # nothing more to say
