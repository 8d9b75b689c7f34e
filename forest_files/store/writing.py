"""The write path: entries, conversation pairs and plain edges.

Stores: entries (scrubbed by default), pairs with their scroll pointer and
pending wild cites, non-ceremony edges.
Refuses: ceremony buckets and edge kinds ("ceremony"), unknown buckets (offering the
buckets ``write`` takes, Forest 0.4's eleven) and edge kinds, unknown ids
(``NotFound``), ids of another scope and edges across scopes (``ScopeMismatch``:
both ends must be of the store's scope), orphans ("orphan insert refused"), pairs
without a ``scroll_ptr`` by any path, negative or non-integer scroll offsets, a
``previous_pair_id`` that is not a pair; and, at the op (store/args.py,
``BoundsRefused`` naming the argument), a ``bucket``, ``jurisdiction``,
``signature`` or origin kind that is not a str, a ``meta`` that is not a mapping,
``origins`` that is not a list; a pair's user or assistant text, scroll path or
scroll hash that is not a str (a path may be a Path), which ``str()`` turned into
text (a list recorded as ``['a']``).
Returns: entry ids.
Test: tests/store/test_store_hostile.py, tests/store/test_store_arguments.py,
tests/store/test_write_buckets_and_plans.py
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from forest_files.kernel import bounds
from forest_files.kernel.errors import ForestError
from forest_files.kernel.vocab import BUCKETS, JURISDICTIONS, RESERVED_BUCKETS, ROOT_BUCKET
from forest_files.scrub import ScrubFn, default_scrub
from forest_files.store import args, queries
from forest_files.store.base import Origins, StoreBase, check_kinds
from forest_files.store.clock import utc_now
from forest_files.store.connection import guarded

_EXAMPLE = "[(source_id, 'derived_from')]"
# The buckets ``write`` takes, and so the ones its refusals offer (Forest 0.4's eleven:
# every bucket but the ceremony records and forest-files' repository anchor).
_WRITE_BUCKETS = BUCKETS - RESERVED_BUCKETS


def normalise_scroll_ptr(ptr: object, who: str) -> dict[str, Any]:
    """Validate a scroll pointer: a mapping with ``path`` and a non-negative ``offset``."""
    if not isinstance(ptr, Mapping):
        raise ForestError(f"{who}: scroll_ptr required (path + offset)")
    if "path" not in ptr or "offset" not in ptr:
        raise ForestError(f"{who}: scroll_ptr needs path and offset")
    offset = ptr["offset"]
    if isinstance(offset, bool) or not isinstance(offset, (int, str)):
        raise ForestError(f"{who}: scroll_ptr offset must be an integer byte offset")
    try:
        offset_int = int(offset)
    except ValueError:
        raise ForestError(f"{who}: scroll_ptr offset must be an integer byte offset") from None
    if offset_int < 0:
        raise ForestError(f"{who}: scroll_ptr offset must be >= 0; got {offset_int}")
    path = args.path(who, "scroll_ptr['path']", ptr["path"], "str(scroll.path)")
    clean: dict[str, Any] = {"path": path, "offset": offset_int}
    hash_ = args.text(who, "scroll_ptr['hash']", ptr.get("hash"), "hash_body(head)", optional=True)
    if hash_ is not None:
        clean["hash"] = hash_
    return clean


def turn_texts(what: str, user_text: object, assistant_text: object) -> None:
    """Refuse a turn's text that is not a str: 0.4 joined them with ``+`` (a bare
    ``TypeError``); an f-string would record a list as the text ``['a']``."""
    args.text(what, "user_text", user_text, "'what do bees eat?'")
    args.text(what, "assistant_text", assistant_text, "''")


def _write_args(
    bucket: object, jurisdiction: object, signature: object, meta: object, origins: object
) -> tuple[dict[str, Any], list[tuple[int, str]]]:
    """``write``'s ``meta`` as a dict and its ``origins`` checked, once every argument
    has its shape (a list as ``bucket`` raised ``TypeError`` from a set lookup, a list
    as ``signature`` was called unsigned)."""
    args.name("write", "bucket", bucket, _WRITE_BUCKETS)
    if signature is not None:  # None: "unsigned insert refused", as in 0.4
        args.text("write", "signature", signature, "'author'")
    args.name("write", "jurisdiction", jurisdiction, JURISDICTIONS)
    meta_obj = args.mapping("write", "meta", meta)
    pairs = [] if origins is None else args.collection("write", "origins", origins, _EXAMPLE)
    if bucket in RESERVED_BUCKETS:
        raise ForestError(
            f"bucket '{bucket}' is written only by a ceremony; "
            "use root_to_ground/supersede/seal/unseal"
        )
    checked = check_kinds(
        bounds.check_list("origins", pairs, bounds.MAX_ORIGINS),
        allow_ceremony=False,
        field="write: origins: edge kind",
    )
    if bucket not in BUCKETS:
        choices = ", ".join(sorted(_WRITE_BUCKETS))
        raise ForestError(f"unknown bucket {bucket!r}; use one of: {choices}")
    return meta_obj, checked


class WriteMixin(StoreBase):
    _pending_wild_access: set[int]

    @guarded
    def write(
        self,
        *,
        body: str,
        bucket: str,
        signature: str,
        jurisdiction: str = "home",
        source: str | None = None,
        origins: Origins | None = None,
        meta: dict[str, Any] | None = None,
        scrub: ScrubFn | None = default_scrub,
        scroll_ptr: Mapping[str, Any] | None = None,
    ) -> int:
        """Write one entry. Arrival never promotes: nothing written here is ground."""
        meta_obj, checked = _write_args(bucket, jurisdiction, signature, meta, origins)
        if bucket == ROOT_BUCKET:
            ptr = scroll_ptr if scroll_ptr is not None else meta_obj.get("scroll_ptr")
            if ptr is None:
                raise ForestError(
                    "write: a pair needs scroll_ptr (path + offset) as evidence; "
                    "use commit_turn or write_pair"
                )
            meta_obj["scroll_ptr"] = normalise_scroll_ptr(ptr, "write")
        elif not checked:
            raise ForestError(
                "orphan insert refused: every entry but a pair needs an origin, "
                "e.g. origins=[(source_id, 'derived_from')]"
            )
        if not isinstance(body, str):
            raise ForestError(f"body must be a string; got {type(body).__name__}")
        text = scrub(body) if scrub is not None else body
        with self.atomic():
            return self.insert_entry(
                body=text,
                jurisdiction=jurisdiction,
                bucket=bucket,
                signature=signature,
                source=source,
                meta=meta_obj,
                origins=checked,
            )

    @guarded
    def write_pair(
        self,
        user_text: str,
        assistant_text: str = "",
        *,
        scroll_ptr: dict[str, Any],
        previous_pair_id: int | None = None,
        scrub: ScrubFn | None = default_scrub,
    ) -> int:
        """Write a conversation pair with its scroll evidence and pending wild cites."""
        turn_texts("write_pair", user_text, assistant_text)
        ptr = normalise_scroll_ptr(scroll_ptr, "write_pair")
        body = f"USER:\n{user_text}\n\nASSISTANT:\n{assistant_text}".strip()
        if scrub is not None:
            body = scrub(body)
        cites = sorted(self._pending_wild_access)
        with self.atomic():
            origins: list[tuple[int, str]] = [(c, "cites") for c in cites]
            if previous_pair_id is not None:
                prev = self.require(previous_pair_id, "write_pair: previous_pair_id")
                if prev["bucket"] != ROOT_BUCKET:
                    raise ForestError(
                        f"write_pair: previous_pair_id {previous_pair_id} is not a pair"
                    )
                origins.append((previous_pair_id, "responds_to"))
            pair_id = self.insert_entry(
                body=body,
                jurisdiction="home",
                bucket=ROOT_BUCKET,
                signature="conversation",
                meta={"scroll_ptr": ptr},
                origins=origins,
            )
        # Cleared only once the pair is committed, so a failed write loses no cite.
        self._pending_wild_access.difference_update(cites)
        return pair_id

    @contextmanager
    def deferred_text_index(self) -> Iterator[None]:
        """Index the bodies of the entries written inside in one statement at the end.

        For bulk imports (adopting thousands of sections): FTS5 indexes a batch
        several times faster than it indexes the same rows one trigger run at a
        time. Only inside an open transaction; the block runs in a savepoint, so
        the dropped trigger, the entries and the batch insert commit or roll back
        together, and no other connection ever sees the index without its
        trigger. Sealing, unsealing or erasing an entry written inside is refused
        (its trigger would edit the index for a row not yet in it).
        """
        if not self.conn.in_transaction:
            raise ForestError("deferred_text_index needs an open transaction (store.atomic())")
        row = self.conn.execute(queries.TRIGGER_SQL, (queries.FTS_INSERT_TRIGGER,)).fetchone()
        if row is None:  # already deferred by an enclosing block, or no index kept
            yield
            return
        with self.atomic():
            entries = int(self.conn.execute(queries.MAX_ENTRY_ID).fetchone()[0])
            edges = int(self.conn.execute(queries.MAX_EDGE_ID).fetchone()[0])
            self.conn.execute(queries.DROP_FTS_INSERT_TRIGGER)
            yield
            touched = self.conn.execute(
                queries.NEW_ENTRY_STATUS_CHANGED, {"edges": edges, "entries": entries}
            )
            if touched.fetchone() is not None:
                raise ForestError(
                    "sealing, unsealing or erasing an entry inside deferred_text_index "
                    "is refused; do it after the block"
                )
            self.conn.execute(queries.INDEX_ENTRIES_SINCE, (entries,))
            self.conn.execute(str(row[0]))

    @guarded
    def add_edge(self, from_id: int, to_id: int, kind: str) -> None:
        """Add one non-ceremony edge (idempotent for an identical edge)."""
        check_kinds([(to_id, kind)], allow_ceremony=False, field="add_edge: kind")
        with self.atomic():
            self.require(from_id, "add_edge")
            self.require(to_id, "add_edge")
            self.conn.execute(queries.INSERT_EDGE, (from_id, to_id, kind, utc_now()))
