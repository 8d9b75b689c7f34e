"""A state folder held open while names in it are listed, dated, opened, renamed and
removed: the one way forest-files works on names in a folder whose owner may swap it
for a link (root in a repository another user owns).

Where the system works relative to a folder's descriptor (``BY_FD``, POSIX), the folder
is opened once (kernel/paths.py ``open_folder``: in a state directory, from its git
directory with no link followed) and every name is resolved in that descriptor, so a
folder swapped for a link after it was opened never leads an operation elsewhere.
Elsewhere (Windows) the folder is worked in by path, as before.

Stores: nothing itself; what its caller makes, renames and removes in the folder.
Refuses: nothing; ``hold`` raises OSError for a link or no folder on the way down.
Returns: ``HeldFolder`` (a context manager: its descriptor closed on exit), ``hold``,
``BY_FD``.
Test: tests/kernel/test_held.py
"""

from __future__ import annotations

import os

from forest_files.kernel.paths import name_in, open_folder

TYPE_CHECKING = False  # typing itself is not imported: the warm check pays for it
if TYPE_CHECKING:
    from collections.abc import Iterator
    from types import TracebackType

# Names opened, dated, renamed and removed relative to a folder's descriptor, and the
# folder listed through it (os.replace takes dir_fds where os.rename does: the set
# lists rename alone). Asked once, here, for every caller.
BY_FD = {os.open, os.stat, os.rename, os.unlink, os.link} <= os.supports_dir_fd and {
    os.listdir,
    os.scandir,
} <= os.supports_fd


class HeldFolder:
    """The folder ``path``: through the descriptor ``at`` (owned, closed by ``close``),
    or by path when ``at`` is None (``BY_FD`` off)."""

    __slots__ = ("_closed", "at", "path")

    def __init__(self, path: str, at: int | None = None) -> None:
        self.path = path
        self.at = at
        self._closed = False

    def __enter__(self) -> HeldFolder:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        """The descriptor closed (again: nothing); no name is resolved after."""
        if not self._closed and self.at is not None:
            os.close(self.at)
        self._closed = True

    def where(self, name: str) -> tuple[str, int | None]:
        """``name`` as ``os`` takes it: ``(name, descriptor)``, or ``(full path, None)``."""
        if self.at is None:
            return os.path.join(self.path, name), None
        return name, self._held()

    def through(self, name: str) -> str:
        """The name a library that takes no descriptor (SQLite) opens ``name`` by:
        through the held descriptor where kernel/paths.py ``name_in`` can (root, in a
        state directory), else its path."""
        full = os.path.join(self.path, name)
        if self.at is None:
            return full
        return name_in(self._held(), full)

    def open(self, name: str, flags: int, mode: int = 0o777) -> int:
        """A descriptor of ``name`` (``os.open``'s ``flags`` and ``mode``)."""
        path, at = self.where(name)
        return os.open(path, flags, mode, dir_fd=at)

    def stat(self, name: str) -> os.stat_result:
        """``name``'s own stat: a link's, never what it leads to."""
        path, at = self.where(name)
        return os.stat(path, dir_fd=at, follow_symlinks=False)

    def unlink(self, name: str, *, missing_ok: bool = False) -> None:
        """``name`` removed (a link itself, never what it leads to)."""
        path, at = self.where(name)
        try:
            os.unlink(path, dir_fd=at)
        except FileNotFoundError:
            if not missing_ok:
                raise

    def replace(self, name: str, new: str) -> None:
        """``name`` renamed to ``new`` in the folder, over what is there (``os.replace``)."""
        path, at = self.where(name)
        os.replace(path, self.where(new)[0], src_dir_fd=at, dst_dir_fd=at)

    def link(self, name: str, new: str) -> None:
        """``new`` made a hard link to ``name`` in the folder (FileExistsError when
        ``new`` is there): a file published whole, never half written."""
        path, at = self.where(name)
        # a link swapped in at ``name`` is linked itself, never the file it leads to
        own = {"follow_symlinks": False} if os.link in os.supports_follow_symlinks else {}
        os.link(path, self.where(new)[0], src_dir_fd=at, dst_dir_fd=at, **own)

    def listdir(self) -> list[str]:
        """The names in the folder."""
        return os.listdir(self._listed())

    def scandir(self) -> Iterator[os.DirEntry[str]]:
        """The folder's entries (``DirEntry.stat`` is taken in the same folder)."""
        return os.scandir(self._listed())

    def _listed(self) -> int | str:
        return self.path if self.at is None else self._held()

    def _held(self) -> int:
        """The descriptor, while held: a name is never resolved in a closed (and perhaps
        reused) descriptor number."""
        if self._closed or self.at is None:
            raise ValueError(f"{self.path}: folder no longer held")
        return self.at


def hold(folder: str | os.PathLike[str]) -> HeldFolder:
    """``folder`` held: opened by kernel/paths.py ``open_folder`` where ``BY_FD`` (OSError
    for a link or no folder on the way), else to be worked in by path."""
    path = os.fspath(folder)
    return HeldFolder(path, open_folder(path) if BY_FD else None)
