"""A binding's whole chain, as the index reads it, proven against the ledger's acts.

The index proof of a check (indexproof.py) reads grounds only; the doors that show a
chain's older entries prove them here: ``forest log TARGET`` the chain it shows, and
``forest fsck`` every binding's, live or retired (a ``seals`` edge row added makes a
superseded entry "sealed", a ``chain_root`` cleared cuts an entry out, and neither
moves a ground). Never asked by a check or the hook: their success path reads no
chain.

Stores: nothing.
Refuses: nothing; a fault is returned, never raised.
Returns: ``chain_faults`` where one binding's chain departs from the one its adopt act
began (empty: none); ``every_chain_faults`` those of every binding the ledger made.
Test: tests/doors/test_log_chain_rows.py, tests/governance/test_fsck_chains.py
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from forest_files.custody.ledger_claims import Claims, chain_of

if TYPE_CHECKING:
    from collections.abc import Sequence

    from forest_files.custody.lookup import ChainLink
    from forest_files.store.forest import ForestStore


def chain_faults(bind_act: str, links: Sequence[ChainLink], claims: Claims) -> list[str]:
    """Where a binding's chain as the index reads it (lookup.py ``chain``) departs from
    the chain its adopt act began in the ledger (empty: none): its entries, each one's
    body hash, and each one's status as the ledger's acts left it (sealed, superseded,
    else the ground, or contested when another entry of the chain is live too)."""
    want = chain_of(claims.entry_of.get(bind_act), claims)
    if len(links) != len(want) or {x.content_id for x in links} != want:
        return [f"binding {bind_act[:12]}: its chain is not the one its adopt act began"]
    live = want - claims.superseded - claims.sealed
    for x in links:
        if claims.declared.get(x.content_id) != x.body_hash:
            return [f"binding {bind_act[:12]}: an entry of its chain is not the declared one"]
        want_status = _status(x.content_id, live, claims)
        if x.status != want_status:
            said = f"{x.status} here, {want_status} in the ledger"
            return [f"binding {bind_act[:12]}: an entry of its chain {said}"]
    return []


def every_chain_faults(store: ForestStore, claims: Claims) -> list[str]:
    """``chain_faults`` of every binding of the index (retired ones too) an adopt act
    of the ledger made (a binding row no act made is the binding proof's fault)."""
    from forest_files.custody.bindings import all_bindings
    from forest_files.custody.lookup import chain

    out: list[str] = []
    for b in all_bindings(store, include_retired=True):
        if b.bind_act not in claims.specs:
            continue
        if store.get(b.entry_id) is None:
            out.append(f"binding {b.bind_act[:12]}: its entry is not in the index")
            continue
        out += chain_faults(b.bind_act, chain(store, b), claims)
    return out


def _status(cid: str, live: set[str], claims: Claims) -> str:
    """An entry's status as lookup.py ``chain`` names it, from the ledger's declarations."""
    if cid in live:
        return "contested" if len(live) > 1 else "ground"
    return "sealed" if cid in claims.sealed else "superseded"


__all__ = ["chain_faults", "every_chain_faults"]
