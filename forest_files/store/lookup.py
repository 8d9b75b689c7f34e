"""Lookups by id and derived status, inside the store's scope.

Stores: nothing.
Refuses: an id that exists nowhere (``NotFound``, Forest's ``unknown entry
N``), an id that is not an int SQLite can hold (a str, float, bool, None, one
beyond 2**63-1: ``BoundsRefused``, never coerced, never an error from inside
sqlite3, never the value echoed), a content id that is not a str
(``BoundsRefused``, store/args.py: a list reached sqlite3), an id or content id
that exists only in another scope (``ScopeMismatch``), a short id that is too
short or ambiguous, a scope that is blank, longer than ``MAX_SCOPE`` or holds a
control character.
Returns: rows, content ids, local ids; status booleans derived from the trail,
never stored.
Test: tests/store/test_scopes.py, tests/store/test_store_hostile.py

Scopes fail closed: a row of another scope is never returned. ``get`` keeps
Forest's ``None`` for an id that exists nowhere and raises ``ScopeMismatch``
for one that exists only in another scope (the one bit TrueHeart also leaks).
Every lookup reads the row's scope with the row, so the check costs no query.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from forest_files.kernel import bounds
from forest_files.kernel.errors import ForestError, NotFound, ScopeMismatch
from forest_files.kernel.shellword import forest_text
from forest_files.store import args, connection, queries

SHORT_ID_MIN = 8  # hex digits: a short id the doors print is 12
_HEX = re.compile(r"[0-9a-f]+")
MAX_SCOPE = bounds.MAX_STORE_SCOPE_CHARS  # characters (code points): TrueHeart's id bound


def check_scope(scope: object) -> str:
    """A store's scope: a non-blank string of at most ``MAX_SCOPE`` characters, no
    control characters. Refused with a message that never echoes the value."""
    if not isinstance(scope, str) or not scope.strip():
        raise ForestError("scope must be a non-blank string, e.g. ForestStore(path, scope='notes')")
    if len(scope) > MAX_SCOPE:
        raise ForestError(
            f"scope is {len(scope)} characters; at most {MAX_SCOPE} are allowed (use a short name)"
        )
    bad = next((i for i, ch in enumerate(scope) if ord(ch) < 32 or 127 <= ord(ch) < 160), None)
    if bad is not None:
        raise ForestError(
            f"scope holds a control character at index {bad}; use printable text only"
        )
    bounds.check_unicode("scope", scope, "use printable UTF-8 text only")
    return scope


def check_id(what: str, entry_id: object) -> int:
    """``entry_id`` if it is an int an entry can have; ``BoundsRefused`` naming ``what``
    otherwise. Forest 0.4 bound anything to SQL: ``"5"`` found entry 5, ``"x"`` nothing,
    a list or ``2**70`` raised from inside sqlite3."""
    if isinstance(entry_id, bool) or not isinstance(entry_id, int):
        raise bounds.BoundsRefused(
            f"{what}: entry id",
            f"must be an int, not {type(entry_id).__name__}; pass the id a write returned",
        )
    bounds.check_entry_id(f"{what}: entry id", entry_id)
    return entry_id


def mismatch(what: str, entry_id: object) -> ScopeMismatch:
    """The refusal for an id that exists only in another scope (never names that scope)."""
    return ScopeMismatch(
        f"{what}: entry {entry_id} belongs to another scope than this store's (scope "
        "mismatch); open the store with the scope that wrote it"
    )


class LookupBase:
    """Connection, lookups and status shared by every op."""

    conn: sqlite3.Connection
    path: Path
    scope: str

    # -- transactions -------------------------------------------------------
    @contextmanager
    def atomic(self) -> Iterator[None]:
        """Group store ops into one transaction (savepoints when nested)."""
        with connection.atomic(self.conn):
            yield

    # -- lookups ------------------------------------------------------------
    def get(self, entry_id: int) -> sqlite3.Row | None:
        """The entry's row; None if it exists nowhere; ``ScopeMismatch`` if it exists
        only in another scope."""
        check_id("get", entry_id)
        row: sqlite3.Row | None = self.conn.execute(queries.GET_ENTRY, (entry_id,)).fetchone()
        if row is not None and row["scope"] != self.scope:
            raise mismatch("get", entry_id)
        return row

    def _visible(self, entry_id: int) -> sqlite3.Row | None:
        """The entry's row if it is of this scope, else None (for neighbours and
        listings, where another scope's entry is simply not there)."""
        row: sqlite3.Row | None = self.conn.execute(queries.GET_ENTRY, (entry_id,)).fetchone()
        return row if row is not None and row["scope"] == self.scope else None

    def require(self, entry_id: int, what: str) -> sqlite3.Row:
        """The entry's row in this scope, or ``NotFound`` / ``ScopeMismatch`` naming
        ``what`` (the op asking)."""
        check_id(what, entry_id)
        row: sqlite3.Row | None = self.conn.execute(queries.GET_ENTRY, (entry_id,)).fetchone()
        if row is None:
            raise NotFound(f"{what}: unknown entry {entry_id}")
        if row["scope"] != self.scope:
            raise mismatch(what, entry_id)
        return row

    def in_scope(self, entry_id: int, what: str) -> bool:
        """True if the entry exists in this scope, False if nowhere; ``ScopeMismatch``
        if only in another (status questions answer False for an unknown id)."""
        check_id(what, entry_id)
        row = self.conn.execute(queries.ENTRY_SCOPE, (entry_id,)).fetchone()
        if row is None:
            return False
        if row[0] != self.scope:
            raise mismatch(what, entry_id)
        return True

    def content_id(self, entry_id: int) -> str:
        """The entry's content id (identical on every clone)."""
        row = self.conn.execute(queries.CONTENT_ID_OF, (entry_id,)).fetchone()
        if row is None:
            raise NotFound(f"content_id: unknown entry {entry_id}")
        if row[1] != self.scope:
            raise mismatch("content_id", entry_id)
        return str(row[0]) if row[0] is not None else f"local:{entry_id}"

    def id_for_content(self, content_id: str) -> int | None:
        """The local id of a content id of this scope; None if it exists nowhere."""
        args.text("id_for_content", "content_id", content_id, "store.content_id(entry_id)")
        row = self.conn.execute(queries.ID_FOR_CONTENT, (content_id,)).fetchone()
        if row is None:
            return None
        if row[1] != self.scope:
            raise mismatch("content id lookup", content_id)
        return int(row[0])

    def local_id(self, given: str, *, min_digits: int | None = None) -> int:
        """The entry named by a content id or a unique prefix of at least
        ``SHORT_ID_MIN`` hex digits (what the doors print); ForestError otherwise."""
        text = bounds.check_text("content id", given, bounds.MAX_CONTENT_ID_CHARS).strip().lower()
        exact = self.id_for_content(text)
        if exact is not None:
            return exact
        least = SHORT_ID_MIN if min_digits is None else min_digits
        if not (least <= len(text) < 64) or not _HEX.fullmatch(text):
            raise NotFound(
                f"unknown entry {given!r}: give a content id or a unique prefix of at "
                f"least {least} hex digits; `{forest_text('log')}` lists content ids"
            )
        rows = self.conn.execute(
            queries.CONTENT_IDS_FROM, (text, text + "g", self.scope, 11)
        ).fetchall()
        found = [str(r[0]) for r in rows]
        if not found:
            elsewhere = self.conn.execute(
                queries.ANY_CONTENT_ID_FROM, (text, text + "g")
            ).fetchone()
            if elsewhere is not None:
                raise mismatch("lookup", repr(given))
            raise NotFound(f"unknown entry {given!r}; `{forest_text('log')}` lists content ids")
        if len(found) > 1:
            shown = ", ".join(found[:10]) + (", …" if len(found) > 10 else "")
            raise ForestError(
                f"{given!r} names {len(found) if len(found) <= 10 else 'more than 10'} "
                f"entries ({shown}); give more digits"
            )
        local = self.id_for_content(found[0])
        assert local is not None
        return local

    # -- derived status -----------------------------------------------------
    # The public questions check the id's scope first; the underscored ones are for
    # callers that already hold a row of this scope.
    def is_sealed(self, entry_id: int) -> bool:
        return self.in_scope(entry_id, "is_sealed") and self._sealed(entry_id)

    def is_contested(self, entry_id: int) -> bool:
        """A live head that shares its supersession chain with another live head."""
        return self.in_scope(entry_id, "is_contested") and self._contested(entry_id)

    def is_ground(self, entry_id: int) -> bool:
        return self.in_scope(entry_id, "is_ground") and self._ground(entry_id)

    def _sealed(self, entry_id: int) -> bool:
        row = self.conn.execute(queries.LATEST_SEAL_KIND, (entry_id,)).fetchone()
        return row is not None and row[0] == "seals"

    def _is_superseded(self, entry_id: int) -> bool:
        return self.conn.execute(queries.IS_SUPERSEDED, (entry_id,)).fetchone() is not None

    def _is_adopted(self, entry_id: int) -> bool:
        return self.conn.execute(queries.IS_ADOPTED, (entry_id,)).fetchone() is not None

    def _is_live_head(self, entry_id: int) -> bool:
        """Adopted, not superseded, not sealed (one query)."""
        return bool(self.conn.execute(queries.IS_LIVE_HEAD, {"entry": entry_id}).fetchone()[0])

    def _contested(self, entry_id: int) -> bool:
        if not self._is_live_head(entry_id):
            return False
        row = self.conn.execute(queries.CHAIN_OF, (entry_id,)).fetchone()
        chain = int(row[0])
        members = self.conn.execute(queries.CHAIN_MEMBERS, (chain, chain, self.scope)).fetchall()
        return any(m[0] != entry_id and self._is_live_head(m[0]) for m in members)

    def _ground(self, entry_id: int) -> bool:
        return self._is_live_head(entry_id) and not self._contested(entry_id)
