"""One file of the old layout's move put in its new place, whole or not at all.

A rename where it can be one, both its folders fsynced after it (kernel/cache.py
``fsync_dir``, the one directory fsync). Across file systems, a copy written under a temporary
name beside its new place and renamed in once complete and fsynced (kernel/cache.py
``replace_atomically``: ``NAME.<pid>.tmp``), so a kill at any moment leaves the new
place empty or whole, never torn; a killed run's temporary file is removed by the
next (``sweep_leftovers``), never read. A file at the new place whose bytes begin
the old one's (that very copy, renamed in before the kill that stopped the move, or
a torn copy an older forest-files left) holds nothing the old one lacks: it is no
taken place (``covered``). An old file that could not be removed after its copy is
noted in ``relocated.json`` (its size, mtime and inode), so no later run copies it
again or keeps it under ``legacy/``; the first run that can removes it. A run killed
after it made its ``legacy/<n>`` folder, before a file landed there whole, leaves the
folder (and a copy's temporary file); the next run sweeps them first (``sweep_kept``),
so its files go under that same number, never beside an unused folder. Before the
first file of a database and its journal files moves, the folder they go to is noted
in ``relocated.json`` too (``begin``), fsynced: a run killed between two of their
moves leaves the rest to follow the database into that folder (``bound``), never
parted from it (SQLite opens a database without its ``-wal``: the transactions the WAL
holds lost, silently); the note goes once the group is in.

Stores: the copy; ``relocated.json`` in the shared state directory; removes what
``sweep_kept`` names under ``legacy/``.
Refuses: nothing (the copy's ``OSError`` is the caller's: custody/relocate.py).
Returns: the files copied (``place_all``: a database and its journal files, all or
none); how a place is ``covered``; whether a file was ``moved_before``.
Test: tests/custody/test_relocate_killed.py, tests/custody/test_relocate_unremovable.py,
tests/custody/test_relocate_journals.py
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
from pathlib import Path

from forest_files.kernel.cache import fsync_dir, replace_atomically, sweep_leftovers
from forest_files.kernel.pids import sweep_dead
from forest_files.kernel.state import ensure_dir

NOTED = "relocated.json"  # old files copied whose removal failed, by repository path
_CHUNK = 1 << 20
_MOVING = "moving"  # in NOTED: groups a run began to move, each to one folder
_FOLDER = re.compile(r"(legacy/[1-9][0-9]{0,8})?")  # that folder: the state's own, or legacy/<n>
_COPYING = re.compile(r".+\.(?P<pid>[0-9]{1,10})\.tmp")  # replace_atomically's temp file


def place(source: Path, dest: Path) -> bool:
    """``source`` renamed to ``dest`` (False), or copied there across file systems, the
    source kept (True); the copy's ``OSError`` when it cannot be, nothing left at
    ``dest`` then (its temporary file removed)."""
    ensure_dir(dest.parent)
    try:
        os.replace(source, dest)
    except OSError:
        pass
    else:  # durable, as a copy is: on some file systems a crash could undo the rename
        fsync_dir(dest.parent)
        fsync_dir(source.parent)
        return False
    sweep_leftovers(os.fspath(dest))  # a killed run's copy: its writer is gone
    st = os.stat(source, follow_symlinks=False)
    replace_atomically(os.fspath(dest), source.read_bytes(), fsync=True)
    with contextlib.suppress(OSError):  # the old copy kept its dates: so does this one
        os.utime(dest, ns=(st.st_atime_ns, st.st_mtime_ns), follow_symlinks=False)
    return True


def place_all(root: Path, plan: list[tuple[str, Path]], landed: set[str]) -> set[str]:
    """Each ``(rel, dest)`` of ``plan`` not ``landed`` there already, renamed or copied
    to its place: the ones copied (their sources kept). All or none: the ``OSError``
    of one that cannot be placed, the others taken back first (a rename back writes
    no data), every source where it was."""
    placed: list[tuple[str, Path, bool]] = []
    for rel, dest in plan:
        if rel in landed:
            continue
        try:
            placed.append((rel, dest, place(root / rel, dest)))
        except OSError:
            for back, there, was_copy in placed:
                with contextlib.suppress(OSError):
                    if was_copy:
                        there.unlink()
                    else:
                        os.replace(there, root / back)
            raise
    return {rel for rel, _dest, copied in placed if copied}


def sweep_kept(kept: Path) -> None:
    """What a killed run left under ``legacy/`` (``kept``): the temp files of its copies
    (their writer gone: kernel/pids.py ``sweep_dead``) and every folder that leaves
    empty, ``legacy/`` itself too, so a folder it made for files it never placed is
    not left beside the next run's. A file a run placed there stays, and every folder
    holding one; a link is never walked."""
    try:
        if not stat.S_ISDIR(os.lstat(kept).st_mode):
            return
    except OSError:
        return
    walked = sorted(os.walk(kept), key=lambda w: -w[0].count(os.sep))  # deepest first
    for dirpath, _dirs, _files in walked:
        sweep_dead(dirpath, _COPYING)
        with contextlib.suppress(OSError):  # not empty: a file a run placed there
            os.rmdir(dirpath)


def covered(source: Path, dest: Path) -> str:
    """``whole`` where ``dest`` is a regular file with ``source``'s bytes, ``short``
    where it has their first bytes only (a torn copy), else ``""``: in the first two,
    putting ``source`` there loses nothing."""
    try:
        there, size = os.lstat(dest), os.lstat(source).st_size
        if not stat.S_ISREG(there.st_mode) or there.st_size > size:
            return ""
        with open(source, "rb") as old, open(dest, "rb") as new:
            while chunk := new.read(_CHUNK):
                if old.read(len(chunk)) != chunk:
                    return ""
    except OSError:
        return ""
    return "whole" if there.st_size == size else "short"


class Noted:
    """``relocated.json``: each old file copied whose removal failed, by repository
    path, with the size, mtime and inode it had; read once per run."""

    def __init__(self, state: Path) -> None:
        self.path = state / NOTED
        self.known: dict[str, list[int]] = {}
        self.moving: dict[str, str] = {}  # a group's database: the folder it is going to
        self.changed = False
        try:
            import json

            loaded = json.loads(self.path.read_bytes())
        except (OSError, ValueError):
            return  # none yet (the usual case), or unreadable: nothing noted
        if isinstance(loaded, dict):
            self.known = {k: v for k, v in loaded.items() if isinstance(v, list)}
            moving = loaded.get(_MOVING)
            if isinstance(moving, dict):
                self.moving = {k: v for k, v in moving.items() if _FOLDER.fullmatch(str(v))}

    def moved_before(self, root: Path, rel: str) -> bool:
        """``rel`` was copied by an earlier run and is unchanged since."""
        return rel in self.known and self.known[rel] == _signature(root / rel)

    def note(self, root: Path, rel: str) -> None:
        self.known[rel] = _signature(root / rel)
        self.changed = True

    def forget(self, rel: str) -> None:
        if self.known.pop(rel, None) is not None:
            self.changed = True

    def bound(self, group: list[tuple[str, Path]]) -> list[tuple[str, Path]]:
        """``group`` (``(rel, dest)``, its database first) bound for the folder a run
        killed while it moved the group was moving it into; as it is when none."""
        folder = self.moving.get(group[0][0])
        if folder is None:
            return group
        return [(rel, self.path.parent / folder / Path(rel).name) for rel, _dest in group]

    def begin(self, rel: str, folder: Path) -> None:
        """``rel``'s group is about to move into ``folder``: noted, and saved before a
        file of it moves, so a run killed part-way leaves where the rest must follow."""
        here = folder.relative_to(self.path.parent).as_posix()
        self.moving[rel] = "" if here == "." else here
        self.changed = True
        try:
            self.save()
        except OSError:
            del self.moving[rel]  # not noted: the group stays where it is, whole
            raise

    def end(self, rel: str) -> None:
        if self.moving.pop(rel, None) is not None:
            self.changed = True

    def save(self) -> None:
        if not self.changed:
            return
        sweep_leftovers(os.fspath(self.path))  # a killed run's: its writer is gone
        if not self.known and not self.moving:
            with contextlib.suppress(FileNotFoundError):
                self.path.unlink()
            return
        import json

        doc: dict[str, object] = (
            {**self.known, _MOVING: self.moving} if self.moving else {**self.known}
        )
        data = json.dumps(doc, sort_keys=True, separators=(",", ":")).encode()
        replace_atomically(os.fspath(self.path), data, fsync=True)


def _signature(path: Path) -> list[int]:
    try:
        st = os.lstat(path)
    except OSError:
        return []
    return [st.st_size, st.st_mtime_ns, st.st_ino]
