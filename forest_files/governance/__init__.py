"""Governance: forget (erasure with a tombstone), and what it purges locally.

Stores: nothing itself (see the modules).
Refuses: nothing itself.
Returns: nothing itself.
Test: tests/test_forget.py, tests/test_tombstone.py
"""
