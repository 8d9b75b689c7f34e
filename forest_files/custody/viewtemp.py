"""A view's temporary database while custody/viewbuild.py builds it: named, renamed
over the view and discarded in one descriptor of the views folder.

Stores: ``.git/forest/views/.view-<random>.db`` (SQLite makes it, and its ``-wal``,
``-shm`` or ``-journal``), renamed over the view when built, else removed with those
side files. The views folder is opened once, from the git directory with no link
followed (kernel/held.py ``hold``), and held while the view is built: SQLite is
handed the file through that descriptor (``HeldFolder.through``), and the rename and
removals are made in it, so a views folder its owner swapped for a link meanwhile
never leads root to make, rename or remove a file in the folder the link leads to.
Refuses: a views folder that cannot be so opened (a link swapped in since
kernel/state.py ``ensure_dir`` looked: ``refuse_unopened``, its ``rm`` named).
Returns: ``ViewTemp``, a context manager (its file discarded and folder closed on exit).
Test: tests/doors/test_hostile_owner_views.py, tests/custody/test_viewbuild.py
"""

from __future__ import annotations

import os
from pathlib import Path
from types import TracebackType

from forest_files.kernel.handover import hand_over_path
from forest_files.kernel.held import HeldFolder, hold
from forest_files.kernel.state import refuse_unopened


class ViewTemp:
    """The temporary database of the view ``target``, in ``target``'s folder: ``db`` the
    name SQLite opens it by; ``place`` renames it over ``target``."""

    def __init__(self, target: Path) -> None:
        self.folder = target.parent
        self.name = f".view-{os.urandom(8).hex()}.db"  # SQLite makes it, with its mode
        self.target = target
        try:
            self.held: HeldFolder = hold(self.folder)
        except OSError as exc:
            raise refuse_unopened(str(self.folder / self.name), exc) from exc
        self.db = Path(self.held.through(self.name))

    def __enter__(self) -> ViewTemp:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        with self.held:
            self.discard()

    def discard(self) -> None:
        """The temporary database and its side files removed (absent is fine)."""
        for suffix in ("", "-wal", "-shm", "-journal"):
            self.held.unlink(self.name + suffix, missing_ok=True)

    def place(self) -> os.stat_result:
        """The built database handed to the owner of another user's git directory (root's
        there), then renamed over the view; the view's stat, found in the folder."""
        hand_over_path(str(self.folder / self.name), dir_fd=self.held.at)
        self.held.replace(self.name, self.target.name)
        return self.held.stat(self.target.name)
