"""A binding rebound on merged branches: its place settled the same in every index.

Two branches (or more) each rebinding one binding (``forest rebind A.md#X B.md#X`` on
one, ``... C.md#X`` on another) leave, once merged, rebinds none of which depends on
another: the binding's *tips*. Its events are folded in apply order (bindings.py), and that order
is each clone's own (which branch it synced first), so the place would be whichever
rebind this index happened to apply last. Here the place of a binding with two tips or
more is the one of the tip whose act id sorts last, whatever the order; the binding is
*rebound twice* (two tips or more: the name says the least) until one more rebind,
depending on every tip, settles it.

Stores: nothing (reads ``binding_events`` rows and the deps ``ledger_applied`` holds).
Refuses: nothing.
Returns: ``settled`` the rows in an order whose fold gives every index one place,
and the bindings rebound twice with the places of their tips; ``rebound`` the live ones
among some bindings, each with its path and places (what the doors report: check/
contests.py); ``tip_acts`` the acts a new act on one binding depends on (every tip: a
rebind settles one rebound twice).
Test: tests/custody/test_rebind_twice.py
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import sqlite3

    from forest_files.store.forest import ForestStore

# A binding rebound twice: its place, the path there, every tip's place (winner first).
Rebound = tuple[str, str, tuple[str, ...]]


def _recorded_deps(conn: sqlite3.Connection, act_ids: Sequence[str]) -> dict[str, frozenset[str]]:
    """The deps this index applied each act with (``ledger_applied``), 500 ids a query."""
    wanted = sorted(set(act_ids))
    out: dict[str, frozenset[str]] = {}
    for start in range(0, len(wanted), 500):
        chunk = wanted[start : start + 500]
        marks = ",".join("?" * len(chunk))
        rows = conn.execute(
            f"SELECT act_id, deps FROM ledger_applied WHERE act_id IN ({marks})", chunk
        )
        out.update((str(a), frozenset(str(d).split())) for a, d in rows)
    return out


def _tips(events: Sequence[Any], deps: dict[str, frozenset[str]]) -> list[Any]:
    """The bind and rebind events of one binding no other of its events depends on
    (directly: a rebind names the binding's tips among its deps)."""
    listed: set[str] = set()
    for row in events:
        listed |= deps.get(str(row["act_id"]), frozenset())
    return [r for r in events if r["kind"] != "retire" and str(r["act_id"]) not in listed]


def settled(
    conn: sqlite3.Connection, rows: list[Any]
) -> tuple[list[Any], dict[str, tuple[str, ...]]]:
    """``rows`` (seq order) with, for each binding rebound twice, its winning tip's row
    moved last (a retire still ends it: the fold keeps a retired binding retired); and
    those bindings with their tips' selectors, winner first. Costs a deps lookup only
    for bindings with two rebinds or more (one history: none is rebound twice)."""
    rebinds = Counter(str(r["bind_act"]) for r in rows if r["kind"] == "rebind")
    many = [k for k, n in rebinds.items() if n > 1]
    if not many:  # one history: no binding has two tips (the usual case, one pass)
        return rows, {}
    wanted = set(many)
    events: dict[str, list[Any]] = {k: [] for k in many}
    for row in rows:
        key = str(row["bind_act"])
        if key in wanted:
            events[key].append(row)
    deps = _recorded_deps(conn, [str(r["act_id"]) for k in many for r in events[k]])
    winners: dict[str, Any] = {}
    twice: dict[str, tuple[str, ...]] = {}
    for key in many:
        tips = sorted(_tips(events[key], deps), key=lambda r: str(r["act_id"]), reverse=True)
        if len(tips) > 1:
            winners[key] = tips[0]
            twice[key] = tuple(str(r["selector"]) for r in tips)
    if not winners:
        return rows, {}
    moved = {id(r) for r in winners.values()}
    return [r for r in rows if id(r) not in moved] + list(winners.values()), twice


def rebound(conn: sqlite3.Connection, bind_acts: Sequence[str]) -> list[Rebound]:
    """Of ``bind_acts`` (bindings rebound more than once), the live ones two or more
    merged branches rebound: (bind act, the path where it stands, every tip's place, the
    one where it stands first), in bind-act order. One query for their events and
    one for their deps; ``bind_acts`` empty asks nothing."""
    import sqlite3

    wanted = sorted(set(bind_acts))
    rows: list[Any] = []
    cursor = conn.cursor()
    cursor.row_factory = sqlite3.Row
    for start in range(0, len(wanted), 500):
        chunk = wanted[start : start + 500]
        marks = ",".join("?" * len(chunk))
        sql = f"SELECT * FROM binding_events WHERE bind_act IN ({marks}) ORDER BY seq"
        rows += cursor.execute(sql, chunk).fetchall()
    rows.sort(key=lambda r: int(r["seq"]))
    ordered, twice = settled(conn, rows)
    retired = {str(r["bind_act"]) for r in rows if r["kind"] == "retire"}
    where = {str(r["bind_act"]): str(r["path"]) for r in ordered if r["kind"] != "retire"}
    return [(k, where[k], twice[k]) for k in sorted(twice) if k not in retired]


def tip_acts(store: ForestStore, bind_act: str) -> set[str]:
    """The acts of a binding's tips: its latest event in one history; every tip's
    rebind of a binding rebound twice (a new act depending on all of them settles it)."""
    rows = store.conn.execute(
        "SELECT * FROM binding_events WHERE bind_act = ? ORDER BY seq", (bind_act,)
    ).fetchall()
    if not rows:
        return set()
    latest = {str(rows[-1]["act_id"])}
    if sum(1 for r in rows if r["kind"] == "rebind") < 2:
        return latest
    deps = _recorded_deps(store.conn, [str(r["act_id"]) for r in rows])
    return latest | {str(r["act_id"]) for r in _tips(rows, deps)}


__all__ = ["Rebound", "rebound", "settled", "tip_acts"]
