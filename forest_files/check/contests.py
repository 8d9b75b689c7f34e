"""Contested ground, the one rule every door judges it by, bound to a file or to none.

A chain is contested when it has two or more live heads: two branches each
superseded the same ground and were merged. A binding of that chain reports it
(binding_check.py, ``contested`` with the heads as candidates); a contest no live binding
reports (ground adopted as text only, or whose binding was retired) is a
``contested`` finding of no path here, so ``forest check``, ``check --staged``,
``check --rev``, the hook and ``forest ci`` all fail on it, with the same routes
(bound to no file, it lies under no path: a check given paths does not report it).
A binding two or more merged branches each rebound (custody/rebind_tips.py: it stands at one
place in every index until one more rebind settles it) is said by the same doors
here too: a ``contested`` finding of its binding, reason ``rebound-twice``, routed to
that rebind (route_contest.py); a check given paths reports it when any of its
places lies under one (``within``). The same query finds both: a history where no binding
was rebound more than once costs no query more.

A second live head can only come from a second ``supersedes`` edge to one entry
(the applier's sibling supersede, custody/apply_entries.py), so only the chains of such entries are
looked at: a few milliseconds on an index of 100,000 entries, where the
``contested_entries`` view takes a quarter of a second.

Stores: ``.git/forest/cache/contests-<python tag>.bin`` (a kernel/cache record):
the working tree's contests and bindings rebound twice,
keyed by the ledger's stat (verdict.ledger_key), so a check whose binding map is
cached opens no SQLite for them either. A stale record is a miss.
Refuses: nothing.
Returns: ``contests`` (each contest's heads, content ids, sorted), ``unbound``
(findings of the contests no finding names, and of the bindings rebound twice),
``on_branches`` (how many merged branches rebound a binding, in words),
``of_worktree``, ``within`` (those a check limited to paths reports). A binding
rebound twice is listed in its own row (its clean finding's) by finding_rows.py.
Test: tests/check/test_contested_doors.py, tests/check/test_rebound_twice_doors.py,
tests/check/test_rebound_thrice.py
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from pathlib import Path

from forest_files.custody.ground import HEAD_COLUMNS
from forest_files.kernel import cache
from forest_files.kernel.paths import CACHE_DIR, INDEX_NAME
from forest_files.kernel.repopath import under
from forest_files.kernel.state import worktree_path

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3

    from forest_files.check.engine import Finding
    from forest_files.check.findings import Reported
    from forest_files.custody.rebind_tips import Rebound
    from forest_files.custody.verdict import LedgerKey

Contest = tuple[str, ...]

# Entries superseded twice: every contested chain has one (and a resolved one keeps it).
_FORKED_CHAINS = """
SELECT DISTINCT COALESCE(e.chain_root, e.id), NULL FROM entries e
WHERE e.id IN (SELECT to_id FROM edges WHERE kind = 'supersedes'
               GROUP BY to_id HAVING COUNT(*) > 1)
"""
# With, in the same query, the bindings rebound more than once (rebind_tips.py judges
# whether merged branches did it; one history's rebinds each depend on the last).
_FORKED_OR_REBOUND = (
    _FORKED_CHAINS
    + """UNION ALL
SELECT NULL, bind_act FROM binding_events WHERE kind = 'rebind'
GROUP BY bind_act HAVING COUNT(*) > 1
"""
)
_CHUNK = 400
_FORMAT = 2
_NAME = f"contests-{sys.implementation.cache_tag}.bin"
_KIND = "contests"
DETAIL = "two live successors of one ground; the ground is bound to no file"
DETAIL_ANY = "two live successors of one ground"


def contests(conn: sqlite3.Connection) -> list[Contest]:
    """The live heads of every chain that has two or more, in content-id order."""
    return _heads(conn, [int(r[0]) for r in conn.execute(_FORKED_CHAINS)])


def found(conn: sqlite3.Connection) -> tuple[list[Contest], list[Rebound]]:
    """``contests``, and the live bindings two or more merged branches rebound (each with the
    path and place where it stands, and every place it was rebound to): one query
    for both, and the binding's events asked only when one was rebound twice."""
    import sqlite3

    try:
        rows = conn.execute(_FORKED_OR_REBOUND).fetchall()
    except sqlite3.OperationalError:  # no binding_events table yet: nothing was bound
        rows = conn.execute(_FORKED_CHAINS).fetchall()
    many = [str(r[1]) for r in rows if r[0] is None]
    twice: list[Rebound] = []
    if many:
        from forest_files.custody.rebind_tips import rebound

        twice = rebound(conn, many)
    return _heads(conn, [int(r[0]) for r in rows if r[0] is not None]), twice


def _heads(conn: sqlite3.Connection, chains: list[int]) -> list[Contest]:
    heads: dict[int, list[str]] = {}
    for start in range(0, len(chains), _CHUNK):
        chunk = chains[start : start + _CHUNK]
        marks = ",".join("?" * len(chunk))
        sql = HEAD_COLUMNS + f"  AND (e.chain_root IN ({marks}) OR e.id IN ({marks}))"
        for row in conn.execute(sql, [*chunk, *chunk]):
            heads.setdefault(int(row[0]), []).append(str(row[1]))
    return sorted(tuple(sorted(set(h))) for h in heads.values() if len(set(h)) > 1)


def unbound(
    found: Iterable[Contest], findings: Iterable[Finding], twice: Iterable[Rebound] = ()
) -> list[Finding]:
    """A ``contested`` finding of no path for each contest no finding names, then one
    of its binding for each binding rebound twice (``twice``)."""
    named = {c for f in findings if f.kind == "contested" for c in f.candidates}
    return [*_unbound(found, named), *(rebound_finding(*t) for t in twice)]


_COUNTS = ("two", "three", "four", "five", "six", "seven", "eight", "nine")


def on_branches(counts: Iterable[int]) -> str:
    """``on three merged branches``: how many merged branches rebound a binding (its
    places, one a branch), the count said when every one of ``counts`` is the same
    (verify's refusal says one line of several bindings), else ``on merged branches``."""
    told = set(counts)
    if len(told) != 1:
        return "on merged branches"
    (n,) = told
    return f"on {_COUNTS[n - 2] if 2 <= n < 10 else n} merged branches"


def rebound_finding(bind_act: str, path: str, places: tuple[str, ...]) -> Finding:
    """The ``contested`` finding of a binding merged branches rebound (one place each):
    where it stands (the place every index settled on) and the other places it was
    rebound to."""
    from forest_files.check.finding import Finding, Reason

    others = ", ".join(places[1:])
    return Finding(
        kind="contested",
        path=path,
        selector=places[0],
        binding=bind_act,
        ground=None,
        expected_hash=None,
        detail=f"binding rebound {on_branches([len(places)])}: it stands at {places[0]}, "
        f"also rebound to {others}; one more rebind settles it",
        reason=Reason("rebound-twice", places[1]),
        places=places,
    )


def within(found: Iterable[Finding], paths: tuple[str, ...]) -> list[Finding]:
    """Of ``found`` (this module's findings), those a check limited to ``paths`` reports:
    all of them without paths; else each binding rebound twice one of whose places
    lies under a path (where it stands, or where another branch rebound it). A
    contest bound to no file lies under no path."""
    if not paths:
        return list(found)
    from forest_files.check.finding import places_of

    return [
        f for f in found if f.places and any(under(p, q) for p, _ in places_of(f) for q in paths)
    ]


def _unbound(found: Iterable[Contest], named: set[str]) -> list[Finding]:
    found = list(found)
    if not found:
        return []  # the common case: the finding model is not loaded for it
    from forest_files.check.finding import Finding

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
    """The contests of an open store that ``findings`` do not name, and its bindings
    rebound twice."""
    got = found(conn)
    return unbound(got[0], findings, got[1])


def of_view(view: Path, findings: Iterable[Finding]) -> list[Finding]:
    """The same for a cached custody view, read-only."""
    got = _read(view)
    return unbound(got[0], findings, got[1])


def open_view(db: Path) -> sqlite3.Connection | None:
    """Read-write but reading only: the last connection closed puts SQLite's ``-wal``
    and ``-shm`` files away again (a read-only one would leave them behind); None when
    there is no such database."""
    import sqlite3

    from forest_files.kernel.errors import ForestError
    from forest_files.store.dbfile import open_db

    try:
        return open_db(db, "mode=rw")
    except (sqlite3.Error, ForestError):
        return None


def _read(db: Path) -> tuple[list[Contest], list[Rebound]]:
    import sqlite3

    conn = open_view(db)
    if conn is None:
        return [], []
    try:
        return found(conn)
    except sqlite3.Error:
        return [], []  # no index yet: nothing adopted, nothing contested
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
    got = _load(record, ledger) if ledger is not None else None
    if got is None:
        from forest_files.custody.verdict import ledger_trusted

        got = _read(Path(state, INDEX_NAME))
        if ledger is not None and ledger_trusted(ledger, stamp):
            _save(record, ledger, got)
    return unbound(got[0], findings, got[1])


def _load(record: str, ledger: LedgerKey) -> tuple[list[Contest], list[Rebound]] | None:
    doc = cache.read(record, _KIND)
    if not isinstance(doc, tuple) or len(doc) != 4 or doc[:2] != (_FORMAT, ledger):
        return None
    return [tuple(c) for c in doc[2]], [(a, p, tuple(w)) for a, p, w in doc[3]]


def _save(record: str, ledger: LedgerKey, got: tuple[list[Contest], list[Rebound]]) -> None:
    record_doc = (_FORMAT, ledger, tuple(got[0]), tuple(got[1]))
    cache.write(record, _KIND, record_doc)  # else: a slower next check


def reported(conn: sqlite3.Connection, root: Path = Path(".")) -> list[Reported]:
    """Every contest of a store, bound or not, as ``forest verify`` and ``forest log``
    name them: one finding per contest, its heads as candidates, then one per binding
    rebound twice (``rebound_finding``), the routes from the one route builder
    (routes.py), and each head with who adopted it and their words
    (``Reported.heads_adopted``, explain.py), as ``forest check`` shows them (a
    rebind to a place of ``root``'s working tree whose text is not the ground's with
    words). One query when nothing is contested (``found``)."""
    from forest_files.check.explain import explain
    from forest_files.check.finding import Finding

    heads, twice = found(conn)
    made = [
        Finding("contested", "", h[0], "", None, None, candidates=h, detail=DETAIL_ANY)
        for h in heads
    ]
    made += [rebound_finding(*t) for t in twice]
    return list(explain(made, root=root, source="worktree", conn=conn))
