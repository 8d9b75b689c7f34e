"""Rebind proposals: a heading the watcher saw renamed, waiting for an authority-holder.

Stores: ``.git/forest/rebinds.db`` (SQLite, WAL; its own file and schema
version, beside the text proposals' ``local.db``): selectors and hashes only,
never section text. One open rebind proposal per binding: a later rename of the
same section replaces the target. Adopting one is an ordinary ``forest rebind
OLD NEW --words …`` (one act: the binding follows the heading and, the heading
line being part of the section, its text becomes ground with the words).
Refuses: an unknown or ambiguous id (``NoSuchRebind``, naming how to list them);
adopting without words (or with a route's placeholder ``…``), by a non-holder,
or once the binding moved on (no longer at the old selector); a target already
bound. Each proposal records the worktree that saw the rename (``worktree``,
schema 2; a version-1 file is upgraded in place, its proposals kept with none):
only that worktree closes it as left behind (proposals/settle.py), since
another worktree's copy of the heading may never have moved.
Refuses: a file whose schema is newer than this code knows (localdb.py); a
SQLite error of any read or write in one ``forest:`` line naming the file (localdb.py
``local_error``): held by another writer past the busy timeout (``StoreBusy``, exit
75), a write the disk refused (``NoSpace``), a file or folder it may not write (the
``chmod`` that fixes it). An adopt takes the file's write lock and closes the proposal
before it records the act, so a file held or not writable refuses it with nothing
recorded (only a commit the disk refuses after it leaves the proposal open: the next
listing closes it as rebound by hand).
Returns: ``Rebind`` values; ``adopt_rebind`` the new selector.
Test: tests/proposals/test_rebinds.py, tests/proposals/test_rebinds_store_errors.py,
tests/doors/test_watch_rename_retry.py
"""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from forest_files.kernel.errors import ForestError
from forest_files.kernel.shellword import forest_text
from forest_files.kernel.state import shared_dir, worktree_key
from forest_files.store.clock import utc_now
from forest_files.store.connection import atomic
from forest_files.store.localdb import local_error, open_local, read_local

REBINDS_DB_NAME = "rebinds.db"
SCHEMA_VERSION = 2
_V1 = """
CREATE TABLE IF NOT EXISTS rebinds (
    id TEXT PRIMARY KEY,
    binding TEXT NOT NULL,          -- bind act id
    path TEXT NOT NULL,
    old_selector TEXT NOT NULL,
    new_selector TEXT NOT NULL,
    derived_from TEXT NOT NULL,     -- the ground content id when the rename was seen
    score REAL NOT NULL,            -- how much of ground the new section shares, 0..1
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('open', 'adopted', 'discarded'))
);
CREATE UNIQUE INDEX IF NOT EXISTS one_open_rebind ON rebinds(binding) WHERE status = 'open';
"""
_V2 = """
ALTER TABLE rebinds ADD COLUMN worktree TEXT;   -- the worktree that saw the rename
"""
# Per version found (localdb.migrate): the column is added once, never to a file that
# has it; a racing upgrader's ALTER is told apart there by the version it left.
SCHEMA = {0: _V1 + _V2, 1: _V2}
_COLUMNS = (
    "id, binding, path, old_selector, new_selector, derived_from, score, "
    "created_at, updated_at, status, worktree"
)


class NoSuchRebind(ForestError):
    """No rebind proposal has that id (or the prefix names several)."""


@dataclass(frozen=True)
class Rebind:
    id: str
    binding: str
    path: str
    old_selector: str
    new_selector: str
    derived_from: str
    score: float
    created_at: str
    updated_at: str
    status: str
    worktree: str | None = None  # the worktree that saw the rename (state.worktree_key)

    @property
    def selector(self) -> str:
        return self.old_selector

    def as_dict(self) -> dict[str, object]:
        return {"kind": "rebind", **self.__dict__}


def exists(root: Path) -> bool:
    return (shared_dir(root, create=False) / REBINDS_DB_NAME).exists()


class RebindStore:
    """``RebindStore(root)``: open (creating) the repository's rebind proposals file.
    Every read and write says a SQLite error as a ``forest:`` line naming the file
    (locked: ``StoreBusy``; no room: ``NoSpace``; unwritable: its fix), never raw."""

    def __init__(self, root: Path) -> None:
        self.path = shared_dir(Path(root)) / REBINDS_DB_NAME
        self.conn = open_local(Path(root), REBINDS_DB_NAME, SCHEMA_VERSION, SCHEMA)
        self.worktree = worktree_key(root)  # recorded with each rename seen here

    @classmethod
    def reading(cls, root: Path) -> RebindStore:
        """The file opened read-only (store/localdb.py ``read_local``), for a listing
        where the state folder may not be written; nothing is created."""
        store = cls.__new__(cls)
        store.path = shared_dir(Path(root), create=False) / REBINDS_DB_NAME
        store.conn = read_local(Path(root), REBINDS_DB_NAME, SCHEMA_VERSION)
        store.worktree = worktree_key(root)
        return store

    def __enter__(self) -> RebindStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.conn.close()

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One write transaction (``BEGIN IMMEDIATE``; a savepoint when nested)."""
        try:
            with atomic(self.conn):
                yield
        except sqlite3.Error as exc:
            raise local_error(exc, self.path) from exc

    def _rows(self, sql: str, args: tuple[object, ...]) -> list[Rebind]:
        try:
            rows = self.conn.execute(f"SELECT {_COLUMNS} FROM rebinds WHERE {sql}", args)
            return [Rebind(*tuple(row)) for row in rows.fetchall()]
        except sqlite3.Error as exc:
            raise local_error(exc, self.path) from exc

    def _one(self, sql: str, args: tuple[object, ...]) -> Rebind | None:
        found = self._rows(sql, args)
        return found[0] if found else None

    def propose(
        self, *, binding: str, path: str, old: str, new: str, derived_from: str, score: float
    ) -> tuple[Rebind, str]:
        """Make ``old -> new`` the binding's open rebind proposal: ``new``, ``replaced``
        or ``same``."""
        now = utc_now()
        with self.transaction():
            found = self._one("binding = ? AND status = 'open'", (binding,))
            if found is None:
                pid = uuid.uuid4().hex[:12]
                values = (pid, binding, path, old, new, derived_from, score, now, now, "open")
                self.conn.execute(
                    f"INSERT INTO rebinds ({_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                    (*values, self.worktree),
                )
                outcome = "new"
            elif (found.new_selector, found.derived_from, found.old_selector) == (
                new,
                derived_from,
                old,
            ):
                return found, "same"
            else:
                pid = found.id
                self.conn.execute(
                    "UPDATE rebinds SET old_selector = ?, new_selector = ?, derived_from = ?, "
                    "score = ?, path = ?, worktree = ?, updated_at = ? WHERE id = ?",
                    (old, new, derived_from, score, path, self.worktree, now, pid),
                )
                outcome = "replaced"
        return self.get(pid), outcome

    def get(self, pid: str) -> Rebind:
        found = self._one("id = ?", (pid,))
        if found is not None:
            return found
        rows = self._rows("id LIKE ? || '%'", (pid,)) if pid else []
        if len(rows) == 1:
            return rows[0]
        if not rows:
            raise NoSuchRebind(f"no proposal {pid!r}; `{forest_text('proposals')}` lists them")
        raise NoSuchRebind(f"{pid!r} names {len(rows)} proposals; give more of the id")

    def open_rebinds(self) -> list[Rebind]:
        return self._rows("status = 'open' ORDER BY path, old_selector", ())

    def close(self, pid: str, status: str) -> Rebind:
        with self.transaction():
            found = self.get(pid)
            if found.status != "open":
                raise ForestError(f"proposal {found.id} is {found.status}, not open")
            self.conn.execute(
                "UPDATE rebinds SET status = ?, updated_at = ? WHERE id = ?",
                (status, utc_now(), found.id),
            )
        return self.get(found.id)


def open_rebinds(root: Path, *, read_only: bool = False) -> list[Rebind]:
    """The open rebind proposals (none, and nothing created, before the first); with
    ``read_only`` the file is opened so (``RebindStore.reading``)."""
    if not exists(root):
        return []
    with RebindStore.reading(root) if read_only else RebindStore(root) as store:
        return store.open_rebinds()


def find(root: Path, pid: str, *, read_only: bool = False) -> Rebind | None:
    """The rebind proposal ``pid`` names, or None (then it may be a text proposal); with
    ``read_only`` the file is opened so (``RebindStore.reading``)."""
    if not exists(root):
        return None
    try:
        with RebindStore.reading(root) if read_only else RebindStore(root) as store:
            return store.get(pid)
    except NoSuchRebind:
        return None


def adopt_rebind(root: Path, pid: str, *, words: str, by: str) -> str:
    """Rebind the proposal's binding to its new selector, with ``words``."""
    from forest_files.custody.bindings import all_bindings
    from forest_files.custody.rebind_moves import read_moves
    from forest_files.custody.record import rebind_sections
    from forest_files.custody.repository import Repository
    from forest_files.praise import placeholder_words

    if not words.strip():
        raise ForestError("adopt without words refused: say why the binding follows the heading")
    if (why := placeholder_words(words)) is not None:  # a route's ``…`` pasted as is
        raise ForestError(why)
    # rebinds.db's write lock first: while another writer holds it nothing is recorded
    with RebindStore(root) as store, Repository(root) as repo, store.transaction():
        p = store.get(pid)
        if p.status != "open":
            raise ForestError(f"proposal {p.id} is {p.status}, not open")
        bindings = [b for b in all_bindings(repo.synced()) if not b.retired]
        mine = [b for b in bindings if b.bind_act == p.binding and b.selector == p.old_selector]
        if not mine:
            raise ForestError(
                f"proposal {p.id}: {p.old_selector} is no longer bound there; "
                f"drop it with `{forest_text('proposal', 'drop', p.id)}`"
            )
        if any(b.selector == p.new_selector for b in bindings):
            raise ForestError(
                f"proposal {p.id}: {p.new_selector} is bound already; "
                f"drop it with `{forest_text('proposal', 'drop', p.id)}`"
            )
        moves = read_moves(
            repo.root, [(mine[0], p.new_selector)], max_bytes=repo.config.max_body_bytes
        )
        # closed first, in the transaction: a file it may not write refuses before the
        # act is recorded, and a refused act rolls the closing back
        store.close(p.id, "adopted")
        rebind_sections(repo, moves, by=by, words=words)
    return p.new_selector
