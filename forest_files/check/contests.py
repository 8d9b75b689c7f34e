"""Contested ground, the one rule every door judges it by, bound to a file or to none.

A chain is contested when it has two or more live heads: two branches each
superseded the same ground and were merged. A binding of that chain reports it
(binding_check.py, ``contested`` with the heads as candidates); a contest no live binding
reports (ground adopted as text only, or whose binding was retired) is a
``contested`` finding of no path here, so ``forest check``, ``check --staged``,
``check --rev``, the hook and ``forest ci`` all fail on it, with the same routes.

A second live head can only come from a second ``supersedes`` edge to one entry
(the applier's sibling supersede, custody/apply_entries.py), so only the chains of such entries are
looked at: a few milliseconds on an index of 100,000 entries, where the
``contested_entries`` view takes a quarter of a second.

Stores: ``.git/forest/cache/contests-<python tag>.bin`` (a kernel/cache record):
the working tree's contests
keyed by the ledger's stat (verdict.ledger_key), so a check whose binding map is
cached opens no SQLite for them either. A stale record is a miss.
Refuses: nothing.
Returns: ``contests`` (each contest's heads, content ids, sorted), ``unbound``
(findings of the contests no finding names), ``of_worktree``.
Test: tests/check/test_contested_doors.py
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from pathlib import Path

from forest_files.check.engine import Finding
from forest_files.custody.ground import HEAD_COLUMNS
from forest_files.kernel import cache
from forest_files.kernel.paths import CACHE_DIR, INDEX_NAME
from forest_files.kernel.state import worktree_path

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3

    from forest_files.check.findings import Reported
    from forest_files.custody.verdict import LedgerKey

Contest = tuple[str, ...]

# Entries superseded twice: every contested chain has one (and a resolved one keeps it).
_FORKED_CHAINS = """
SELECT DISTINCT COALESCE(e.chain_root, e.id) FROM entries e
WHERE e.id IN (SELECT to_id FROM edges WHERE kind = 'supersedes'
               GROUP BY to_id HAVING COUNT(*) > 1)
"""
_CHUNK = 400
_FORMAT = 1
_NAME = f"contests-{sys.implementation.cache_tag}.bin"
_KIND = "contests"
DETAIL = "two live successors of one ground; the ground is bound to no file"
DETAIL_ANY = "two live successors of one ground"


def contests(conn: sqlite3.Connection) -> list[Contest]:
    """The live heads of every chain that has two or more, in content-id order."""
    chains = [int(r[0]) for r in conn.execute(_FORKED_CHAINS)]
    heads: dict[int, list[str]] = {}
    for start in range(0, len(chains), _CHUNK):
        chunk = chains[start : start + _CHUNK]
        marks = ",".join("?" * len(chunk))
        sql = HEAD_COLUMNS + f"  AND (e.chain_root IN ({marks}) OR e.id IN ({marks}))"
        for row in conn.execute(sql, [*chunk, *chunk]):
            heads.setdefault(int(row[0]), []).append(str(row[1]))
    return sorted(tuple(sorted(set(h))) for h in heads.values() if len(set(h)) > 1)


def unbound(found: Iterable[Contest], findings: Iterable[Finding]) -> list[Finding]:
    """A ``contested`` finding of no path for each contest no finding names."""
    named = {c for f in findings if f.kind == "contested" for c in f.candidates}
    return [
        Finding(
            kind="contested",
            path="",
            selector=heads[0],  # the id ``forest resolve`` takes
            binding="",
            ground=None,  # no single ground: the candidates are the contest's heads
            expected_hash=None,
            candidates=heads,
            detail=DETAIL,
        )
        for heads in found
        if not named.intersection(heads)
    ]


def of_store(conn: sqlite3.Connection, findings: Iterable[Finding]) -> list[Finding]:
    """The contests of an open store that ``findings`` do not name."""
    return unbound(contests(conn), findings)


def of_view(view: Path, findings: Iterable[Finding]) -> list[Finding]:
    """The same for a cached custody view, read-only."""
    return unbound(_read(view), findings)


def _read(db: Path) -> list[Contest]:
    """Read-write but reading only: the last connection closed puts SQLite's ``-wal``
    and ``-shm`` files away again (a read-only one would leave them behind)."""
    import sqlite3

    try:
        conn = sqlite3.connect(f"{db.absolute().as_uri()}?mode=rw", uri=True)
    except sqlite3.Error:
        return []
    try:
        return contests(conn)
    except sqlite3.Error:
        return []  # no index yet: nothing adopted, nothing contested
    finally:
        conn.close()


def of_worktree(
    root: str, ledger: LedgerKey | None, stamp: int, findings: Iterable[Finding]
) -> list[Finding]:
    """The working tree's contests no finding names: remembered under the ledger's
    key, else read from the index (in step with that ledger: session.py) and
    remembered when the key can be trusted (verdict.ledger_trusted)."""
    state = worktree_path(root)
    record = os.path.join(state, CACHE_DIR, _NAME)
    found = _load(record, ledger) if ledger is not None else None
    if found is None:
        from forest_files.custody.verdict import ledger_trusted

        found = _read(Path(state, INDEX_NAME))
        if ledger is not None and ledger_trusted(ledger, stamp):
            _save(record, ledger, found)
    return unbound(found, findings)


def _load(record: str, ledger: LedgerKey) -> list[Contest] | None:
    doc = cache.read(record, _KIND)
    if not isinstance(doc, tuple) or len(doc) != 3 or doc[:2] != (_FORMAT, ledger):
        return None
    return [tuple(c) for c in doc[2]]


def _save(record: str, ledger: LedgerKey, found: list[Contest]) -> None:
    cache.write(record, _KIND, (_FORMAT, ledger, tuple(found)))  # else: a slower next check


def reported(conn: sqlite3.Connection) -> list[Reported]:
    """Every contest of a store, bound or not, as ``forest verify`` and ``forest log``
    name them: one finding per contest, its heads as candidates, the routes from the
    one route builder (routes.py), and each head with who adopted it and their words
    (``Reported.heads_adopted``, explain.py), as ``forest check`` shows them."""
    from forest_files.check.explain import explain

    found = [
        Finding("contested", "", h[0], "", None, None, candidates=h, detail=DETAIL_ANY)
        for h in contests(conn)
    ]
    return list(explain(found, root=Path("."), source="worktree", conn=conn))
