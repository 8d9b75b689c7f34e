"""The store's foundation: the connection, derived status, and the one insert.

Stores: one entries row plus its creation edges per ``_insert_entry`` call,
with a content id computed from the immutable fields, stamped with the
store's scope.
Refuses: ceremony buckets outside a ceremony ("is written only by a
ceremony"), unknown buckets and edge kinds (never silently dropped), unknown
origin ids (``NotFound``), ids and origins of another scope and inserts into
another scope (``ScopeMismatch``), unsigned inserts, empty bodies, invalid
jurisdictions, a scope that is blank, longer than ``MAX_SCOPE`` or holds a
control character.
Returns: entry ids; status booleans derived from the trail, never stored.
Test: tests/test_store_hostile.py, tests/test_store_props.py, tests/test_scopes.py

Scopes fail closed: a row of another scope is never returned. ``get`` keeps
Forest's ``None`` for an id that exists nowhere and raises ``ScopeMismatch``
for one that exists only in another scope (the one bit TrueHeart also leaks).
"""

from __future__ import annotations

import json
import re
import secrets
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple

from forest_files.errors import ForestError, NotFound, ScopeMismatch
from forest_files.hashing import entry_content_id, hash_body
from forest_files.store import connection, queries
from forest_files.vocab import (
    BUCKETS,
    CEREMONY_BUCKETS,
    CEREMONY_EDGE_KINDS,
    EDGE_KINDS,
    JURISDICTIONS,
)

SHORT_ID_MIN = 8  # hex digits: a short id the doors print is 12
_HEX = re.compile(r"[0-9a-f]+")
MAX_SCOPE = 128  # characters (code points), TrueHeart's bound for an identifier

Origins = Sequence[tuple[int, str]]


class EntryRow(NamedTuple):
    """One entry as it is inserted: the row's columns, then the parsed meta and the
    origins by content id (what an act describing the entry carries)."""

    created_at: str
    jurisdiction: str
    bucket: str
    source: str | None
    signature: str
    body: str
    body_hash: str
    meta_json: str
    content_id: str
    scope: str
    nonce: str
    chain_root: int | None
    meta: dict[str, Any]
    origins: tuple[tuple[str, str], ...]

    def values(self) -> tuple[object, ...]:
        """The INSERT_ENTRY parameters."""
        return self[:12]


def utc_now() -> str:
    """UTC with milliseconds and a Z, Forest's timestamp format."""
    now = datetime.now(UTC)
    return now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"


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
    return scope


def mismatch(what: str, entry_id: object) -> ScopeMismatch:
    """The refusal for an id that exists only in another scope (never names that scope)."""
    return ScopeMismatch(
        f"{what}: entry {entry_id} belongs to another scope than this store's (scope "
        "mismatch); open the store with the scope that wrote it"
    )


def check_kinds(origins: Origins, *, allow_ceremony: bool) -> list[tuple[int, str]]:
    """Validate the shape and vocabulary of origin pairs."""
    checked: list[tuple[int, str]] = []
    for item in origins:
        if not isinstance(item, (tuple, list)) or len(item) != 2:
            raise ForestError(f"origins must be (entry_id, edge_kind) pairs; got {item!r}")
        target, kind = item
        if not isinstance(target, int) or isinstance(target, bool):
            raise ForestError(f"origin id must be an int; got {target!r}")
        if kind in CEREMONY_EDGE_KINDS and not allow_ceremony:
            raise ForestError(
                f"edge kind '{kind}' is a ceremony act; use root_to_ground/supersede/seal/unseal"
            )
        if kind not in EDGE_KINDS:
            raise ForestError(
                f"unknown edge kind {kind!r}; use one of: {', '.join(sorted(EDGE_KINDS))}"
            )
        checked.append((target, str(kind)))
    return checked


class StoreBase:
    """Connection, status and the single insert path shared by every op."""

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
        row: sqlite3.Row | None = self.conn.execute(queries.GET_ENTRY, (entry_id,)).fetchone()
        if row is not None and row["scope"] != self.scope:
            raise mismatch("get", entry_id)
        return row

    def _visible(self, entry_id: int) -> sqlite3.Row | None:
        """The entry's row if it is of this scope, else None (for neighbours and
        listings, where another scope's entry is simply not there)."""
        row: sqlite3.Row | None = self.conn.execute(queries.GET_ENTRY, (entry_id,)).fetchone()
        return row if row is not None and row["scope"] == self.scope else None

    def _require(self, entry_id: int, what: str) -> sqlite3.Row:
        """The entry's row in this scope, or ``NotFound`` / ``ScopeMismatch``."""
        row: sqlite3.Row | None = None
        if isinstance(entry_id, int) and not isinstance(entry_id, bool):
            row = self.conn.execute(queries.GET_ENTRY, (entry_id,)).fetchone()
        if row is None:
            raise NotFound(f"{what}: unknown entry {entry_id}")
        if row["scope"] != self.scope:
            raise mismatch(what, entry_id)
        return row

    def _check_scope(self, entry_id: int, what: str) -> bool:
        """True if the entry exists in this scope, False if nowhere; ``ScopeMismatch``
        if only in another (status questions answer False for an unknown id)."""
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
        row = self.conn.execute(queries.ID_FOR_CONTENT, (content_id,)).fetchone()
        if row is None:
            return None
        if row[1] != self.scope:
            raise mismatch("content id lookup", content_id)
        return int(row[0])

    def local_id(self, given: str, *, min_digits: int | None = None) -> int:
        """The entry named by a content id or a unique prefix of at least
        ``SHORT_ID_MIN`` hex digits (what the doors print); ForestError otherwise."""
        text = given.strip().lower()
        exact = self.id_for_content(text)
        if exact is not None:
            return exact
        least = SHORT_ID_MIN if min_digits is None else min_digits
        if not (least <= len(text) < 64) or not _HEX.fullmatch(text):
            raise NotFound(
                f"unknown entry {given!r}: give a content id or a unique prefix of at "
                f"least {least} hex digits; `forest log` lists content ids"
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
            raise NotFound(f"unknown entry {given!r}; `forest log` lists content ids")
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
        return self._check_scope(entry_id, "is_sealed") and self._sealed(entry_id)

    def is_contested(self, entry_id: int) -> bool:
        """A live head that shares its supersession chain with another live head."""
        return self._check_scope(entry_id, "is_contested") and self._contested(entry_id)

    def is_ground(self, entry_id: int) -> bool:
        return self._check_scope(entry_id, "is_ground") and self._ground(entry_id)

    def _sealed(self, entry_id: int) -> bool:
        row = self.conn.execute(queries.LATEST_SEAL_KIND, (entry_id,)).fetchone()
        return row is not None and row[0] == "seals"

    def _is_superseded(self, entry_id: int) -> bool:
        return self.conn.execute(queries.IS_SUPERSEDED, (entry_id,)).fetchone() is not None

    def _is_adopted(self, entry_id: int) -> bool:
        return self.conn.execute(queries.IS_ADOPTED, (entry_id,)).fetchone() is not None

    def _is_live_head(self, entry_id: int) -> bool:
        """Adopted, not superseded, not sealed (one query)."""
        return bool(self.conn.execute(queries.IS_LIVE_HEAD, (entry_id,)).fetchone()[0])

    def _contested(self, entry_id: int) -> bool:
        if not self._is_live_head(entry_id):
            return False
        row = self.conn.execute(queries.CHAIN_OF, (entry_id,)).fetchone()
        chain = int(row[0])
        members = self.conn.execute(queries.CHAIN_MEMBERS, (chain, chain, self.scope)).fetchall()
        return any(m[0] != entry_id and self._is_live_head(m[0]) for m in members)

    def _ground(self, entry_id: int) -> bool:
        return self._is_live_head(entry_id) and not self._contested(entry_id)

    # -- the one insert -----------------------------------------------------
    def _insert_entry(
        self,
        *,
        body: str,
        jurisdiction: str,
        bucket: str,
        signature: str,
        source: str | None = None,
        meta: Mapping[str, Any] | None = None,
        origins: Origins = (),
        ceremony: bool = False,
        chain_root: int | None = None,
        created_at: str | None = None,
        nonce: str | None = None,
        scope_of: str | None = None,
        erased_body_hash: str | None = None,
    ) -> int:
        """Validate and insert one entry with its creation edges. Call inside ``atomic``."""
        row, edges = self._entry_row(
            body=body,
            jurisdiction=jurisdiction,
            bucket=bucket,
            signature=signature,
            source=source,
            meta=meta,
            origins=origins,
            ceremony=ceremony,
            chain_root=chain_root,
            created_at=created_at,
            nonce=nonce,
            scope_of=scope_of,
            erased_body_hash=erased_body_hash,
        )
        cur = self.conn.execute(queries.INSERT_ENTRY, row.values())
        new_id = int(cur.lastrowid or 0)
        for target, kind in edges:
            self.conn.execute(queries.INSERT_EDGE, (new_id, target, kind, row.created_at))
        return new_id

    def _entry_row(
        self,
        *,
        body: str,
        jurisdiction: str,
        bucket: str,
        signature: str,
        source: str | None,
        meta: Mapping[str, Any] | None,
        origins: Origins,
        ceremony: bool,
        chain_root: int | None = None,
        created_at: str | None = None,
        nonce: str | None = None,
        scope_of: str | None = None,
        erased_body_hash: str | None = None,
        known: Mapping[int, str] | None = None,
    ) -> tuple[EntryRow, list[tuple[int, str]]]:
        """Every check of an insert: the row it writes and its checked origin edges.

        ``known``: content ids of origin ids not inserted yet (a batch names
        entries it is about to insert).
        """
        if bucket in CEREMONY_BUCKETS and not ceremony:
            raise ForestError(
                f"bucket '{bucket}' is written only by a ceremony; "
                "use root_to_ground/supersede/seal/unseal"
            )
        if not isinstance(signature, str) or not signature.strip():
            raise ForestError("unsigned insert refused: give a non-blank signature")
        if not isinstance(body, str) or not body.strip():
            raise ForestError("empty body refused: a body needs visible text")
        if jurisdiction not in JURISDICTIONS:
            raise ForestError(f"invalid jurisdiction {jurisdiction!r}; use 'home' or 'wild'")
        if bucket not in BUCKETS:
            raise ForestError(
                f"unknown bucket {bucket!r}; use one of: {', '.join(sorted(BUCKETS))}"
            )
        if source is not None and not isinstance(source, str):
            raise ForestError(f"source must be a string or None; got {type(source).__name__}")
        edges = check_kinds(origins, allow_ceremony=ceremony)
        targets = dict(known or {})
        targets.update(self._origin_content_ids([e for e in edges if e[0] not in targets]))
        meta_obj = dict(meta or {})
        try:
            meta_json = json.dumps(meta_obj, sort_keys=True)
        except (TypeError, ValueError) as exc:
            raise ForestError(f"meta must be JSON-serialisable: {exc}") from None
        body_hash = hash_body(body)
        if erased_body_hash is not None:
            # Replay of an entry whose body a recorded erasure removed: keep its hash.
            if body != "[erased]":
                raise ForestError("an erased entry's body must be the marker [erased]")
            body_hash = erased_body_hash
        stamp = created_at or utc_now()
        salt = secrets.token_hex(8) if nonce is None else nonce
        scope = self.scope
        if scope_of is not None and scope_of != scope:
            # A replayed or planned row declares its scope: it must be this store's.
            raise ScopeMismatch(
                "insert: the entry declares another scope than this store's (scope "
                "mismatch); write it through a store opened with its scope"
            )
        meta_read = json.loads(meta_json)
        cid = entry_content_id(
            scope=scope,
            created_at=stamp,
            jurisdiction=jurisdiction,
            bucket=bucket,
            source=source,
            signature=signature,
            body_hash=body_hash,
            meta=meta_read,
            nonce=salt,
            origins=[(targets[t], k) for t, k in edges],
        )
        by_content = tuple(sorted((targets[t], k) for t, k in edges))
        return EntryRow(
            stamp, jurisdiction, bucket, source, signature, body, body_hash, meta_json,
            cid, scope, salt, chain_root, meta_read, by_content,
        ), edges  # fmt: skip

    def _origin_content_ids(self, edges: list[tuple[int, str]]) -> dict[int, str]:
        ids = sorted({t for t, _ in edges})
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        rows = self.conn.execute(queries.CONTENT_IDS.format(marks=marks), ids).fetchall()
        found = {int(r[0]): (r[1] or f"local:{r[0]}") for r in rows if r[2] == self.scope}
        foreign = {int(r[0]) for r in rows if r[2] != self.scope}
        missing = [i for i in ids if i not in found]
        if missing and missing[0] in foreign:
            # An edge across scopes: both endpoints must be of the store's scope.
            raise mismatch("origins", missing[0])
        if missing:
            raise NotFound(f"unknown entry {missing[0]} in origins; link to an existing entry")
        return found
