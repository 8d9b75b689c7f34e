"""What ``forest log`` names beside each act: the bound section it is about, and the words.

Stores: nothing.
Refuses: nothing (an act about no binding, a seal or an erase, names none; words
whose body is erased or sealed are left empty).
Returns: per act id, (selector, words): the selector the act's binding has now
(retired bindings included; an adoption names where it adopted, a rebind where
it moved to), and the words the
act recorded (an adoption's or supersession's record, a retire's own words, the
supersession a rebind carries) — never section text.
Test: tests/doors/test_cli.py::test_sync_rebuild_log, tests/doors/test_log_moved.py
"""

from __future__ import annotations

from collections.abc import Iterable

from forest_files.custody.bindings import all_bindings
from forest_files.ledger.acts import Act
from forest_files.ledger.kinds import (
    AdoptAct,
    EntryRecord,
    RebindAct,
    ResolveAct,
    RetireAct,
    SupersedeAct,
)
from forest_files.store.forest import ForestStore


def described(store: ForestStore, acts: Iterable[Act]) -> dict[str, tuple[str, str]]:
    """(selector, words) of each act that concerns a binding or records words."""
    bindings = all_bindings(store, include_retired=True)
    by_act = {b.bind_act: b.selector for b in bindings}
    roots = dict(store.conn.execute("SELECT id, COALESCE(chain_root, id) FROM entries"))
    by_chain = {roots.get(b.entry_id, b.entry_id): b.selector for b in bindings}

    def of_entry(content_id: str) -> str:
        local = store.id_for_content(content_id)
        return "" if local is None else by_chain.get(roots.get(local, local), "")

    out: dict[str, tuple[str, str]] = {}
    for act in acts:
        p = act.payload
        if isinstance(p, AdoptAct):
            where = p.binding.selector if p.binding else ""  # where it was adopted
            out[act.id] = (where, _words(store, p.record))
        elif isinstance(p, SupersedeAct | ResolveAct):
            out[act.id] = (of_entry(p.entry.content_id), _words(store, p.record))
        elif isinstance(p, RebindAct):
            said = "" if p.supersede is None else _words(store, p.supersede.record)
            out[act.id] = (p.selector, said)
        elif isinstance(p, RetireAct):
            out[act.id] = (by_act.get(p.binding, ""), p.words)
    return out


def _words(store: ForestStore, record: EntryRecord) -> str:
    row = store.conn.execute(
        "SELECT body FROM entries WHERE content_id = ?", (record.content_id,)
    ).fetchone()
    body = None if row is None else row[0]
    return body if isinstance(body, str) else ""
