"""The local proposals store: divergent text nobody adopted yet, one open per binding.

Stores: ``.git/forest/local.db`` (SQLite, WAL, ``secure_delete`` so a discarded
text leaves no bytes in free pages), in the git directory, which git never
transfers; ``forest rebuild`` never touches it. Later divergent text for a binding
from the same source (``watch``, an agent door such as ``mcp``) replaces that
source's open proposal, never another source's; the earlier texts are kept as
versions, at most ``MAX_VERSIONS``. Each text records the worktree it was
proposed in (``worktree``), for closing it there only (proposals/settle.py). An
agent's claimed signature and reason are kept beside its text (a claim: nothing
here authenticates it).
Refuses: an unknown or ambiguous id (``NoSuchProposal``, naming how to list
them); closing a proposal that is not open; a schema newer than this code; a row
a hand or a fault edited (``checked``: a text that is no text or does not hash to
its recorded hash, an open proposal holding none, a claim that is no text), as
``ProposalDamaged`` naming its discard, which still works.
An adopt closes its proposal inside one ``transaction`` before it records the new
ground (proposals/adopt.py): a file held or not writable refuses it with nothing
recorded, and a refused act rolls the closing back.
Returns: ``Proposal`` values (frozen; ``text`` is None once discarded); a store
opened read-only for a listing (``ProposalStore.reading``).
Test: tests/proposals/test_proposals.py
"""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from forest_files.custody import proposals_sql as sql
from forest_files.custody.relocate import relocate_once
from forest_files.kernel.errors import ForestError
from forest_files.kernel.hashing import hash_body
from forest_files.kernel.paths import LOCAL_DB_NAME
from forest_files.kernel.shellword import forest_text
from forest_files.kernel.state import shared_dir, worktree_key
from forest_files.store.clock import utc_now
from forest_files.store.connection import atomic
from forest_files.store.localdb import local_error, open_local, read_local

MAX_VERSIONS = 20


class NoSuchProposal(ForestError):
    """No proposal has that id (or the prefix names several)."""


class ProposalDamaged(ForestError):
    """A row of local.db no forest-files wrote so: shown or adopted, its text could
    be another than the one its hash names (git never carries local.db, but anyone
    who can write the git directory can edit it)."""


@dataclass(frozen=True)
class Proposal:
    id: str
    binding: str
    path: str
    selector: str
    derived_from: str
    ground_hash: str
    text: str | None
    text_hash: str
    source: str
    created_at: str
    updated_at: str
    status: str
    adopted_as: str | None = None
    claimed_by: str | None = None  # an agent's claimed signature (unverified)
    reason: str | None = None  # the agent's reason for the text
    worktree: str | None = None  # the worktree that captured it (state.worktree_key)

    def as_dict(self) -> dict[str, object]:
        """Machine output: ids, paths and hashes — never the text."""
        out = {k: v for k, v in self.__dict__.items() if k != "text"}
        return out


@dataclass(frozen=True)
class Proposed:
    """What ``propose`` did: ``new`` (first for the binding), ``replaced`` (the open
    one now holds this text), or ``same`` (it already did)."""

    proposal: Proposal
    outcome: str


def _row(row: sqlite3.Row) -> Proposal:
    return Proposal(*tuple(row))


_REQUIRED = ("id", "binding", "path", "selector", "derived_from", "ground_hash", "text_hash")
_OPTIONAL = ("text", "source", "claimed_by", "reason", "status", "updated_at")


def _damage(p: Proposal) -> str | None:
    """What makes ``p`` a row no forest-files wrote (None: nothing)."""
    for name in _REQUIRED + _OPTIONAL:
        value = getattr(p, name)
        if not isinstance(value, str) and (value is not None or name in _REQUIRED):
            return f"its {name} is no text"
    if p.text is None:
        return "it is open but holds no text" if p.status == "open" else None
    if hash_body(p.text) != p.text_hash:
        return "its text does not hash to the text hash it records"
    return None


class ProposalStore:
    """``ProposalStore(root)``: open (creating) the repository's proposals file."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        relocate_once(self.root)
        self.path = shared_dir(self.root) / LOCAL_DB_NAME
        self.worktree = worktree_key(self.root)  # recorded with each text proposed here
        self.conn = open_local(
            self.root, LOCAL_DB_NAME, sql.SCHEMA_VERSION, sql.SCHEMA, secure_delete=True
        )

    @classmethod
    def reading(cls, root: Path) -> ProposalStore:
        """The proposals file opened read-only (store/localdb.py ``read_local``): for a
        listing where the state folder may not be written; nothing is created."""
        store = cls.__new__(cls)
        store.root = Path(root)
        store.path = shared_dir(store.root, create=False) / LOCAL_DB_NAME
        store.worktree = worktree_key(store.root)
        store.conn = read_local(store.root, LOCAL_DB_NAME, sql.SCHEMA_VERSION)
        return store

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> ProposalStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One write transaction on local.db (``BEGIN IMMEDIATE``; a savepoint when
        nested); a SQLite error in it is one ``forest:`` line naming the file."""
        try:
            with atomic(self.conn):
                yield
        except sqlite3.Error as exc:
            raise local_error(exc, self.path) from exc

    def propose(
        self,
        *,
        binding: str,
        path: str,
        selector: str,
        derived_from: str,
        ground_hash: str,
        text: str,
        source: str = "watch",
        claimed_by: str | None = None,
        reason: str | None = None,
    ) -> Proposed:
        """Make ``text`` the binding's open proposal from ``source`` (replacing that
        source's, never multiplying, never touching another source's)."""
        digest, now = hash_body(text), utc_now()
        claim = (claimed_by, reason)
        with self.transaction():
            found = self.conn.execute(sql.SELECT_OPEN_OF, (binding, source)).fetchone()
            if found is None:
                pid = uuid.uuid4().hex[:12]
                values = (pid, binding, path, selector, derived_from, ground_hash, text, digest)
                row = (*values, source, now, now, "open", None, *claim, self.worktree)
                self.conn.execute(sql.INSERT, row)
                outcome = "new"
            elif (
                found["text_hash"] == digest
                and found["derived_from"] == derived_from
                and (found["claimed_by"], found["reason"]) == claim
            ):
                return Proposed(_row(found), "same")
            else:
                pid = str(found["id"])
                self.conn.execute(sql.KEEP_VERSION, (pid, pid))
                self.conn.execute(sql.TRIM_VERSIONS, (pid, pid, MAX_VERSIONS))
                held = (text, digest, derived_from, ground_hash, path, selector)
                self.conn.execute(sql.REPLACE_TEXT, (*held, *claim, self.worktree, now, pid))
                outcome = "replaced"
            return Proposed(self.get(pid), outcome)

    def get(self, pid: str) -> Proposal:
        """The proposal ``pid`` names (a unique prefix will do)."""
        found = self._read(sql.SELECT_ONE, (pid,))
        if found:
            return _row(found[0])
        rows = self._read(sql.SELECT_PREFIX, (pid,)) if pid else []
        if len(rows) == 1:
            return _row(rows[0])
        if not rows:
            raise NoSuchProposal(f"no proposal {pid!r}; `{forest_text('proposals')}` lists them")
        raise NoSuchProposal(f"{pid!r} names {len(rows)} proposals; give more of the id")

    def checked(self, pid: str) -> Proposal:
        """``get``, refused when the row is damaged (``ProposalDamaged``): what is shown
        and what is adopted is then the one text its hash names."""
        found = self.get(pid)
        why = _damage(found)
        if why is None:
            return found
        shown = str(found.id)
        discard = forest_text("proposal", "discard", shown)
        raise ProposalDamaged(
            f"proposal {shown} in local.db is damaged ({why}: edited outside forest-files); "
            f"nothing was shown or recorded — discard it (`{discard}`)"
        )

    def open_proposals(self) -> list[Proposal]:
        return [_row(r) for r in self._read(sql.SELECT_OPEN, ())]

    def open_for(self, binding: str, source: str = "watch") -> Proposal | None:
        rows = self._read(sql.SELECT_OPEN_OF, (binding, source))
        return _row(rows[0]) if rows else None

    def versions(self, pid: str) -> int:
        return int(self._read(sql.COUNT_VERSIONS, (pid,))[0][0])

    def _read(self, statement: str, args: tuple[str, ...]) -> list[sqlite3.Row]:
        """Rows of a read; a SQLite error is a ``forest:`` line naming local.db."""
        try:
            return list(self.conn.execute(statement, args).fetchall())
        except sqlite3.Error as exc:
            raise local_error(exc, self.path) from exc

    def _close(self, pid: str, status: str, adopted_as: str | None, keep_text: bool) -> Proposal:
        with self.transaction():
            found = self.get(pid)
            if found.status != "open":
                raise ForestError(f"proposal {found.id} is {found.status}, not open")
            self.conn.execute(sql.CLOSE, (status, adopted_as, utc_now(), found.id))
            self.conn.execute(sql.FORGET_VERSIONS, (found.id,))
            if not keep_text:
                self.conn.execute(sql.FORGET_TEXT, (found.id,))
        if not keep_text:  # a discarded text must not linger in the write-ahead log
            self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return self.get(found.id)

    def discard(self, pid: str) -> Proposal:
        """Close the proposal and keep nothing of its text (nor its earlier versions)."""
        return self._close(pid, "discarded", None, keep_text=False)

    def purge(self, holds: Callable[[str], bool]) -> list[str]:
        """Forget every text (open, adopted or an earlier version) for which ``holds``
        is true: an open proposal is discarded, the others keep no text; then the
        file is vacuumed and its log truncated. Returns the proposal ids purged."""
        with self.transaction():
            rows = self.conn.execute(sql.SELECT_TEXTS).fetchall()
            hit = sorted({str(r[0]) for r in rows if holds(str(r[2]))})
            for pid in hit:
                if self.get(pid).status == "open":
                    self.conn.execute(sql.CLOSE, ("discarded", None, utc_now(), pid))
                self.conn.execute(sql.FORGET_VERSIONS, (pid,))
                self.conn.execute(sql.FORGET_TEXT, (pid,))
        if hit:
            self.conn.execute("VACUUM")
            self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return hit

    def expire(self, before: str) -> list[str]:
        """Drop the text of every proposal last touched before ``before`` (an open one
        is discarded); its row, hash and lineage stay. Returns the text hashes dropped."""
        with self.transaction():
            rows = self.conn.execute(sql.SELECT_STALE, (before,)).fetchall()
            for pid, status, _digest in rows:
                if status == "open":
                    self.conn.execute(sql.CLOSE, ("discarded", None, utc_now(), pid))
                self.conn.execute(sql.FORGET_VERSIONS, (pid,))
                self.conn.execute(sql.FORGET_TEXT, (pid,))
        if rows:
            self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return sorted(str(r[2]) for r in rows)

    def mark_adopted(self, pid: str, ground: str | None) -> Proposal:
        """Close the proposal: its text is ground ``ground`` now (the ledger holds it).
        None: an adopt closing it before it records the ground, in a ``transaction``
        that names the ground after (``adopted_as``)."""
        return self._close(pid, "adopted", ground, keep_text=True)

    def adopted_as(self, pid: str, ground: str) -> None:
        """Name the ground an adopted proposal became."""
        with self.transaction():
            self.conn.execute(sql.ADOPTED_AS, (ground, pid))
