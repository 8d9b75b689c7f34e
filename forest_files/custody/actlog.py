"""What ``forest log`` names beside each act: the bound section it is about, and the words.

Stores: nothing.
Refuses: nothing (an act about no binding, a seal or an erase, names none; words a
forget erased read ``[erased]``, as the index holds them, where an erase act among
the acts removes their body). Words are read from the
index only where its record row holds the body the act declares (the record's body
hash): a row deleted, given another content id or other words outside forest-files
is read from the ledger's body file instead, and one line on stderr says the index
is damaged, naming ``forest fsck`` and ``forest rebuild`` (nothing repaired here: the
index proof, indexproof.py, sees bindings and grounds, not record rows).
Returns: per act id, (selector, words): the selector the act's binding has now
(retired bindings included; an adoption names where it adopted, a rebind where
it moved to; a supersession or resolve, the binding whose chain the ledger's acts
put its entry in, never the index's ``chain_root``), and the words the
act recorded (an adoption's or supersession's record, a retire's own words, the
supersession a rebind carries) — never section text.
``rebind_grounds``: the entry each rebind's supersession made, its signer and time
(its words are the rebind's).
Test: tests/doors/test_cli.py::test_sync_rebuild_log, tests/doors/test_log_moved.py,
tests/custody/test_log_words.py, tests/doors/test_log_proven.py,
tests/doors/test_log_chain_rows.py
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path

from forest_files.custody.bindings import all_bindings
from forest_files.kernel.hashing import hash_body
from forest_files.kernel.shellword import forest_text
from forest_files.ledger.act_refs import erased_bodies
from forest_files.ledger.acts import Act, LedgerError
from forest_files.ledger.kinds import (
    AdoptAct,
    EntryRecord,
    RebindAct,
    ResolveAct,
    RetireAct,
    SupersedeAct,
)
from forest_files.ledger.segments import read_body
from forest_files.store.entryrow import ERASED_MARK
from forest_files.store.forest import ForestStore


def described(
    store: ForestStore, ledger_dir: Path, acts: Iterable[Act]
) -> dict[str, tuple[str, str]]:
    """(selector, words) of each act that concerns a binding or records words."""
    by_act = {b.bind_act: b.selector for b in all_bindings(store, include_retired=True)}
    chain: dict[str, str] = {}  # content id -> the adopt act whose chain it is of

    def of_chain(content_id: str, before: Iterable[str]) -> str:
        """The section of the binding whose chain ``before`` (the superseded entries,
        the acts' dependencies, so taken already) is of: the ledger's, never the
        index's entry rows (a chain_root forged would name no section, or another)."""
        bind_act = next((chain[c] for c in before if c in chain), "")
        if bind_act:
            chain[content_id] = bind_act
        return by_act.get(bind_act, "")

    acts = list(acts)
    words = _Words(store, ledger_dir, erased_bodies(a.payload for a in acts))
    out: dict[str, tuple[str, str]] = {}
    for act in acts:
        p = act.payload
        if isinstance(p, AdoptAct):
            where = p.binding.selector if p.binding else ""  # where it was adopted
            if p.binding is not None:
                chain[p.entry.content_id] = act.id
            out[act.id] = (where, words.of(p.record))
        elif isinstance(p, SupersedeAct | ResolveAct):
            before = [p.old] if isinstance(p, SupersedeAct) else list(p.heads)
            out[act.id] = (of_chain(p.entry.content_id, before), words.of(p.record))
        elif isinstance(p, RebindAct):
            if p.supersede is not None:
                chain[p.supersede.entry.content_id] = p.binding
            said = "" if p.supersede is None else words.of(p.supersede.record)
            out[act.id] = (p.selector, said)
        elif isinstance(p, RetireAct):
            out[act.id] = (by_act.get(p.binding, ""), p.words)
    words.say()
    return out


def rebind_grounds(ledger_dir: Path) -> dict[str, tuple[str, str, str]]:
    """The content id of the entry each rebind's supersession made, its record's
    signer and the entry's time, by the rebind's act id: the ground ``forest log
    TARGET`` words with that rebind's (its record's) words, signs with its signer and
    dates as the ledger does. Read through the codec (ledger/segments.py
    ``read_ledger``, whose decoded segments the log's own read left in memory)."""
    from forest_files.ledger.segments import read_ledger

    out = {}
    for a in read_ledger(ledger_dir).acts.values():
        if isinstance(a.payload, RebindAct) and a.payload.supersede is not None:
            made = a.payload.supersede
            out[a.id] = (made.entry.content_id, made.signer, made.entry.created_at)
    return out


class _Words:
    """An act's words: its record row's body where it hashes to the record's body hash,
    else the ledger's body file (the index damaged: counted, said once); ``[erased]``
    only where an erase act among the acts (``erased``: the body hashes they remove)
    names the record's body."""

    def __init__(self, store: ForestStore, ledger_dir: Path, erased: frozenset[str]) -> None:
        self.store, self.ledger_dir, self.damaged = store, ledger_dir, 0
        self.erased = erased

    def of(self, record: EntryRecord) -> str:
        row = self.store.conn.execute(
            "SELECT body FROM entries WHERE content_id = ?", (record.content_id,)
        ).fetchone()
        body = None if row is None else row[0]
        if isinstance(body, str) and hash_body(body) == record.body_hash:
            return body
        try:
            kept = read_body(self.ledger_dir, record.body_hash)
        except LedgerError:  # a damaged body file: what verify and fsck report
            kept = None
        if kept is None and body == ERASED_MARK and record.body_hash in self.erased:
            return ERASED_MARK  # a forget erased them, here and there
        self.damaged += 1
        return kept or ""

    def say(self) -> None:
        """One line on stderr when any act's record row was damaged."""
        if self.damaged:
            acts = f"{self.damaged} act" if self.damaged == 1 else f"{self.damaged} acts"
            rows = "its record row" if self.damaged == 1 else "their record rows"
            sys.stderr.write(
                f"forest: the index lost or changed the words of {acts} ({rows}); shown from "
                f"the ledger; `{forest_text('fsck')}` names the damage, "
                f"`{forest_text('rebuild')}` repairs it\n"
            )
