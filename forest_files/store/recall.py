"""Recall: full-text leads as bounded previews, and labelling of outside scraps.

Stores: one ``retrieval_log`` row per ``recall_similar`` (every recall is
recorded; that is part of the contract).
Refuses: queries with no word tokens ("empty query"), an unknown scope,
unbounded ``excerpt_len``, ``open_buckets`` that is not a list of known bucket
names and a ``limit`` that is not an int (store/args.py; nothing logged),
``recall_side`` scraps that are not a list or a scrap's ``jurisdiction`` that is
not a str (store/args.py: 0.4 raised ``TypeError``) or ``excerpt`` that is not a
str or None (``str()`` turned a list into the text ``['x']``), scraps carrying a full
body ("full body refused"), unlabeled scraps ("unlabeled"), unknown ids
(``NotFound``), ids of another scope (``ScopeMismatch``), sealed ids (their text
never leaves the store through recall). Full-text leads come from the store's scope only.
Returns: lists of scrap dicts, jurisdiction first, each with the store's
derived ``trust`` level (an outside scrap the store does not hold is ``wild``:
nothing here vouches for it; a ``trust`` the caller put on a scrap is
replaced); ``trust_of`` gives an entry's ``Trust`` (store/trust.py).
Test: tests/store/test_store_hostile.py, tests/store/test_store_arguments.py
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Mapping, Sequence
from typing import Any

from forest_files.kernel import bounds
from forest_files.kernel.errors import ForestError
from forest_files.kernel.vocab import BUCKETS, JURISDICTIONS
from forest_files.store import args, queries
from forest_files.store.base import StoreBase
from forest_files.store.clock import utc_now
from forest_files.store.connection import guarded
from forest_files.store.packets import (
    DEFAULT_EXCERPT,
    check_excerpt_len,
    excerpt,
    scrap,
    with_trust,
)
from forest_files.store.trust import Trust, TrustLevel, TrustReader, trust_of

_WORD = re.compile(r"[^\W_]+")
# Scripts written without spaces: a token is matched as a prefix of a run.
_UNSPACED = re.compile(
    "[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\U00020000-\U0003ffff]"
)
_SCOPES = ("home", "wild", "both")


def _plain_language_fts_query(query: str) -> str:
    """Turn free text into a safe FTS5 expression: quoted tokens, implicit AND."""
    if not isinstance(query, str):
        raise ForestError(f"recall: query must be a string; got {type(query).__name__}")
    try:
        query.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ForestError(
            f"recall: query is not valid Unicode text (unpaired surrogate at index {exc.start})"
        ) from None
    tokens = [t.replace('"', "") for t in _WORD.findall(query)]
    tokens = [t for t in tokens if t]
    if not tokens:
        # never the query itself: it may hold what the caller should not spread (a pasted key)
        raise ForestError("recall: empty query (no word tokens); give plain words to search for")
    parts = [f'"{t}"*' if _UNSPACED.search(t) else f'"{t}"' for t in tokens]
    return " ".join(parts)


class RecallMixin(StoreBase):
    @guarded
    def trust_of(self, entry_id: int) -> Trust:
        """How far ``entry_id`` may be trusted, derived from its custody (never stored)."""
        return trust_of(self, entry_id)

    def _level(self, entry_id: int) -> str:
        return trust_of(self, int(entry_id)).level.value

    @guarded
    def recall_similar(
        self,
        query: str,
        *,
        scope: str = "home",
        open_buckets: Sequence[str] | None = None,
        excerpt_len: int = DEFAULT_EXCERPT,
        limit: int | None = 20,
    ) -> list[dict[str, Any]]:
        """Leads for ``query`` as previews. Similarity retrieves; it never promotes."""
        check_excerpt_len(excerpt_len)
        if scope not in _SCOPES:
            raise ForestError(f"invalid recall scope {scope!r}; use home, wild or both")
        expression = _plain_language_fts_query(query)
        buckets = args.words("recall", "open_buckets", open_buckets, BUCKETS)
        want = args.limit("recall", limit)
        extra: list[Any] = [self.scope]
        scope_clause = ""
        if scope != "both":
            scope_clause = "AND e.jurisdiction = ?"
            extra.append(scope)
        bucket_clause = ""
        if buckets:
            bucket_clause = f"AND e.bucket IN ({','.join('?' * len(buckets))})"
            extra.extend(buckets)
        try:
            rows = self._ranked(expression, scope_clause + " " + bucket_clause, extra, want)
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc) or "busy" in str(exc):
                raise
            raise ForestError(f"recall: FTS query failed — {exc}") from exc
        reader = TrustReader(self)
        scraps = [
            with_trust(scrap(r, excerpt_len), reader.of(r["id"], r).level.value) for r in rows
        ]
        with self.atomic():
            self.conn.execute(
                queries.LOG_RETRIEVAL,
                (
                    utc_now(),
                    query,
                    json.dumps(buckets),
                    json.dumps([s["id"] for s in scraps]),
                    json.dumps({"scope": scope}),
                ),
            )
        return scraps

    def _ranked(
        self, expression: str, clauses: str, extra: list[Any], want: int | None
    ) -> list[sqlite3.Row]:
        """The ``want`` best-ranked matches that pass the filters (all when None):
        the FTS index ranks alone, in growing batches, and only its candidates are
        joined and filtered, so a common word costs no join per match."""
        kept: list[sqlite3.Row] = []
        batch = 64 if want is None else min(max(2 * want, 16), bounds.MAX_ENTRY_ID)
        offset = 0
        while want is None or len(kept) < want:
            ids = [
                r[0] for r in self.conn.execute(queries.RECALL_RANKED, (expression, batch, offset))
            ]
            if ids:
                marks = ",".join("?" * len(ids))
                sql = queries.RECALL_KEEP.format(marks=marks, clauses=clauses)
                found = {r["id"]: r for r in self.conn.execute(sql, [*ids, *extra])}
                kept.extend(found[i] for i in ids if i in found)
            if len(ids) < batch:
                break
            offset, batch = offset + batch, batch * 2
        return kept if want is None else kept[:want]

    @guarded
    def recall_side(
        self, scraps: Sequence[Mapping[str, Any]], *, excerpt_len: int = DEFAULT_EXCERPT
    ) -> list[dict[str, Any]]:
        """Label scraps ranked elsewhere (a host's vector search) as store previews."""
        check_excerpt_len(excerpt_len)
        out: list[dict[str, Any]] = []
        for item in args.collection("recall.side", "scraps", scraps, "[{'id': entry_id}]"):
            if not isinstance(item, Mapping):
                raise ForestError("recall.side: each scrap must be a mapping with an id")
            if "body" in item and "excerpt" not in item:
                raise ForestError(
                    "recall.side: full body refused; provide excerpt or id for preview"
                )
            if "jurisdiction" not in item and "id" in item:
                out.append(self._side_from_store(item["id"], excerpt_len))
            else:
                out.append(self._side_prelabelled(item, excerpt_len))
        return out

    def _side_from_store(self, entry_id: Any, excerpt_len: int) -> dict[str, Any]:
        row = self.require(entry_id, "recall.side")
        if self._sealed(row["id"]):
            raise ForestError(f"recall.side: entry {entry_id} is sealed; its text is withheld")
        return with_trust(scrap(row, excerpt_len), self._level(row["id"]))

    def _side_prelabelled(self, item: Mapping[str, Any], excerpt_len: int) -> dict[str, Any]:
        label = item.get("jurisdiction")
        if label is not None:
            args.name("recall.side", "jurisdiction", label, JURISDICTIONS)
        if label not in JURISDICTIONS:
            raise ForestError("unlabeled recall scrap refused (jurisdiction required)")
        if "id" not in item:
            raise ForestError("recall.side scrap needs id")
        entry_id = item["id"]
        row = self.get(entry_id) if isinstance(entry_id, int) else None
        if row is not None and self._sealed(row["id"]):
            raise ForestError(f"recall.side: entry {entry_id} is sealed; its text is withheld")
        text = item.get("excerpt")
        if text is None:
            if row is None:
                raise ForestError("recall.side scrap needs excerpt")
            text = row["body"]
        result: dict[str, Any] = {
            "jurisdiction": label,
            "id": entry_id,
            "excerpt": excerpt(
                args.text("recall.side", "excerpt", text, "'a preview'"), excerpt_len
            ),
        }
        # Set before the caller's extra keys pass through, so a claimed trust cannot win.
        with_trust(result, TrustLevel.WILD.value if row is None else self._level(row["id"]))
        for key, value in item.items():
            if key not in result and key != "body":
                result[key] = value
        return result
