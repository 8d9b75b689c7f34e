"""Local proposals: divergent text found by a door, waiting for an authority-holder.

Stores: ``.git/forest/local.db`` (store.py); never committed, never in the ledger.
Refuses: see store.py and adopt.py.
Returns: ``Proposal``; adopting one is an ordinary supersession (adopt.py).
Test: tests/proposals/test_proposals.py
"""
