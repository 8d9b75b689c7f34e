"""Explicit expiry of what only a library store keeps: the retrieval log, pairs, scrolls.

A repository writes none of these (``forest recall`` does not exist; no command
writes a pair or a scroll), so forest.toml's ``[retention]`` does not name them;
a library caller expires them with these functions, when it chooses — never a
background job. Each removes what is older than ``as_of`` minus
``older_than_days``, strictly: a record exactly that old is kept.

* ``expire_retrieval_log``: deletes the rows (query text, buckets, result ids)
  of ``retrieval_log``; the store is not append-only there. Returns the count
  and the sha256 of each query removed.
* ``expire_pairs``: a pair is an entry, and entries are never deleted (a
  trigger refuses it). The body of a pair never adopted is *erased* instead,
  through the store's audited erasure (``erasures`` row: who, when, why): the
  entry, its body hash, content id and edges stay. A pair ever adopted is
  custody, not a log, and never expires (nor does any other entry).
* ``expire_scroll``: a scroll's byte offsets are the pointers its pairs hold, so
  a record is never cut out of a live scroll; the whole file is deleted once its
  newest record is past retention (its pairs' ``verify_pointer`` then answers
  False: the body, erased or not, is the store's).

Stores: deletions and erasures as above, under ``secure_delete`` with the log
checkpointed, so the old bytes survive in no free page or WAL frame.
Refuses (``ForestError``, nothing changed): ``older_than_days`` outside
1..``MAX_RETENTION_DAYS``; an ``as_of`` without a time zone; a blank signature;
a scroll record that does not parse (the scroll is not ours to guess at).
Returns: ``ExpiredLog``, ``ExpiredPairs``, ``ExpiredScroll`` (counts, hashes).
Test: tests/custody/test_expire.py
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from forest_files.custody.config import MAX_RETENTION_DAYS
from forest_files.governance.expire import parse_as_of, stamp
from forest_files.kernel.errors import ForestError
from forest_files.store.forest import ForestStore

_OLD_LOG = "SELECT id, query FROM retrieval_log WHERE created_at < ? ORDER BY id"
_DROP_LOG = "DELETE FROM retrieval_log WHERE id = ?"
# A pair never adopted (no ``adopts`` edge ever pointed at it) and not yet erased.
_OLD_PAIRS = (
    "SELECT e.id, e.body_hash FROM entries e WHERE e.bucket = 'pair' AND e.created_at < ? "
    "AND NOT EXISTS (SELECT 1 FROM edges a WHERE a.to_id = e.id AND a.kind = 'adopts') "
    "AND NOT EXISTS (SELECT 1 FROM erasures x WHERE x.entry_id = e.id) ORDER BY e.id"
)


@dataclass(frozen=True)
class ExpiredLog:
    as_of: str
    rows: int
    query_hashes: tuple[str, ...]


@dataclass(frozen=True)
class ExpiredPairs:
    as_of: str
    body_hashes: tuple[str, ...]  # of the pairs whose bodies were erased


@dataclass(frozen=True)
class ExpiredScroll:
    as_of: str
    deleted: bool
    records: int


def _cutoff(as_of: str | datetime, older_than_days: int) -> datetime:
    if (
        isinstance(older_than_days, bool)
        or not isinstance(older_than_days, int)
        or not 1 <= older_than_days <= MAX_RETENTION_DAYS
    ):
        raise ForestError(f"older_than_days must be an integer 1..{MAX_RETENTION_DAYS}")
    when = parse_as_of(as_of) if isinstance(as_of, str) else as_of
    if when.tzinfo is None:
        raise ForestError("as_of needs a time zone (e.g. 2026-01-31T00:00:00Z)")
    return when - timedelta(days=older_than_days)


@contextmanager
def _secure(store: ForestStore, *, fts: bool = False) -> Iterator[None]:
    """Zero what the block frees, then leave no full-text segment or log frame
    holding the removed bytes; the connection's own setting is restored."""
    before = int(store.conn.execute("PRAGMA secure_delete").fetchone()[0])
    store.conn.execute("PRAGMA secure_delete = ON")
    try:
        yield
        if fts:
            store.conn.execute("INSERT INTO entries_fts (entries_fts) VALUES ('optimize')")
        store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        store.conn.execute(f"PRAGMA secure_delete = {before}")


def expire_retrieval_log(
    store: ForestStore, *, as_of: str | datetime, older_than_days: int
) -> ExpiredLog:
    """Delete the retrieval log's rows older than the cutoff (see the module)."""
    cutoff = _cutoff(as_of, older_than_days)
    with _secure(store), store.atomic():
        rows = store.conn.execute(_OLD_LOG, (stamp(cutoff),)).fetchall()
        store.conn.executemany(_DROP_LOG, [(r[0],) for r in rows])
    hashes = tuple(hashlib.sha256(str(r[1]).encode("utf-8")).hexdigest() for r in rows)
    return ExpiredLog(stamp(cutoff), len(rows), hashes)


def expire_pairs(
    store: ForestStore, *, as_of: str | datetime, older_than_days: int, signature: str
) -> ExpiredPairs:
    """Erase the body of every never-adopted pair older than the cutoff."""
    cutoff = _cutoff(as_of, older_than_days)
    if not isinstance(signature, str) or not signature.strip():
        raise ForestError("expire_pairs: a signature is required (the erasure names who)")
    reason = f"retention: older than {older_than_days} day(s) as of {stamp(cutoff)}"
    with _secure(store, fts=True), store.atomic():
        rows = store.conn.execute(_OLD_PAIRS, (stamp(cutoff),)).fetchall()
        for entry_id, _hash in rows:
            store.erase_body(int(entry_id), signature=signature, reason=reason)
    return ExpiredPairs(stamp(cutoff), tuple(str(r[1]) for r in rows))


def _newest(path: Path) -> tuple[datetime | None, int]:
    newest: datetime | None = None
    count = 0
    with path.open("rb") as fh:
        for n, line in enumerate(fh, 1):
            try:
                ts = json.loads(line)["ts"]
                when = datetime.fromisoformat(str(ts).replace("Z", "+00:00"))
            except (ValueError, KeyError, TypeError):
                raise ForestError(
                    f"{path.name}: record {n} is no scroll record; nothing was deleted"
                ) from None
            newest = when if newest is None or when > newest else newest
            count += 1
    return newest, count


def expire_scroll(
    path: str | Path, *, as_of: str | datetime, older_than_days: int
) -> ExpiredScroll:
    """Delete the scroll at ``path`` when its newest record is older than the cutoff."""
    cutoff = _cutoff(as_of, older_than_days)
    path = Path(path)
    if not path.is_file():
        return ExpiredScroll(stamp(cutoff), False, 0)
    newest, count = _newest(path)
    if newest is not None and newest >= cutoff:
        return ExpiredScroll(stamp(cutoff), False, count)
    path.unlink()
    return ExpiredScroll(stamp(cutoff), True, count)
