"""The store's foundation: the one insert (lookups and status live in lookup.py).

Stores: one entries row plus its creation edges per ``insert_entry`` call
(the row and its content id are ``rows.entry_row``'s), stamped with the store's
scope; the rows a ceremony made (``_insert_rows``).
Refuses: ceremony buckets outside a ceremony ("is written only by a
ceremony"), unknown buckets and edge kinds (never silently dropped), an edge
kind that is not a str (``BoundsRefused``), unknown origin ids (``NotFound``),
ids and origins of another scope and inserts into another scope
(``ScopeMismatch``), unsigned inserts, empty bodies, invalid
jurisdictions; and, by forest_files/kernel/bounds.py, signatures, bodies
(``max_body_bytes``), meta, entry ids and content ids outside their bounds.
Returns: entry ids.
Test: tests/store/test_store_hostile.py, tests/store/test_store_props.py, tests/store/test_scopes.py
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from forest_files.kernel import bounds
from forest_files.kernel.errors import ForestError, NotFound, ScopeMismatch
from forest_files.kernel.vocab import CEREMONY_EDGE_KINDS, EDGE_KINDS
from forest_files.store import queries, rows
from forest_files.store.clock import utc_now
from forest_files.store.lookup import LookupBase, mismatch

Origins = Sequence[tuple[int, str]]


def new_stamp() -> rows.Stamp:
    """A fresh (created_at, nonce): now, and 8 random bytes in hex."""
    return (utc_now(), secrets.token_hex(8))


def check_kinds(
    origins: Origins, *, allow_ceremony: bool, field: str = "origins: edge kind"
) -> list[tuple[int, str]]:
    """Validate the shape and vocabulary of origin pairs (``field``: how a refusal
    names a kind that is not a str, the op first)."""
    checked: list[tuple[int, str]] = []
    for item in origins:
        if not isinstance(item, (tuple, list)) or len(item) != 2:
            raise ForestError(f"origins must be (entry_id, edge_kind) pairs; got {item!r}")
        target, kind = item
        if not isinstance(kind, str):
            raise bounds.BoundsRefused(
                field,
                f"must be a str, not {type(kind).__name__}; use one of: "
                + ", ".join(sorted(EDGE_KINDS)),
            )
        if not isinstance(target, int) or isinstance(target, bool):
            raise ForestError(f"origin id must be an int; got {target!r}")
        bounds.check_entry_id("origin id", target)
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


class StoreBase(LookupBase):
    """The single insert path shared by every op (lookups and status: LookupBase)."""

    max_body_bytes: int = bounds.MAX_STORE_BODY_BYTES  # a library may lower it per store

    # -- the one insert -----------------------------------------------------
    def insert_entry(
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
        """Validate and insert one entry with its creation edges. Call inside ``atomic``.

        The applier's insert of an entry an act declares: explicit stamps
        (``created_at``, ``nonce``), the scope it declares (``scope_of``), the hash
        of a body a recorded erasure removed (``erased_body_hash``; the body is then
        the marker). Every refusal of ``rows.check`` and of the origins applies.
        """
        rows.check(
            bucket=bucket,
            signature=signature,
            body=body,
            meta=meta,
            jurisdiction=jurisdiction,
            source=source,
            ceremony=ceremony,
            max_body_bytes=self.max_body_bytes,
        )
        edges = check_kinds(origins, allow_ceremony=ceremony)
        targets = self._origin_content_ids(edges)
        if scope_of is not None and scope_of != self.scope:
            # A replayed or planned row declares its scope: it must be this store's.
            raise ScopeMismatch(
                "insert: the entry declares another scope than this store's (scope "
                "mismatch); write it through a store opened with its scope"
            )
        stamp = (created_at or utc_now(), secrets.token_hex(8) if nonce is None else nonce)
        row = rows.entry_row(
            scope=self.scope,
            stamp=stamp,
            jurisdiction=jurisdiction,
            bucket=bucket,
            source=source,
            signature=signature,
            body=body,
            meta=meta,
            links=[rows.Link(t, targets[t], k) for t, k in edges],
            chain_root=chain_root,
            erased_body_hash=erased_body_hash,
        )
        return self._insert_rows([row])[0]

    def _insert_rows(self, made: Sequence[rows.Row]) -> list[int]:
        """Insert rows in order with their creation edges (rows this store's own code
        made: ``rows``' functions). A link without an id names the row just before."""
        ids: list[int] = []
        for row in made:
            cur = self.conn.execute(queries.INSERT_ENTRY, row.values())
            new_id = int(cur.lastrowid or 0)
            for link in row.links:
                target = ids[-1] if link.id is None else link.id
                self.conn.execute(queries.INSERT_EDGE, (new_id, target, link.kind, row.created_at))
            ids.append(new_id)
        return ids

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
