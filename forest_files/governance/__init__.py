"""Governance: forget (erasure with a tombstone) and its purge, the audit log and what
the doors record in it, expiry (repository kinds, and a library store's own).

Stores: nothing itself (see the modules).
Refuses: nothing itself.
Returns: nothing itself.
Test: tests/test_forget.py, tests/test_tombstone.py, tests/test_audit.py,
tests/test_audit_doors.py, tests/test_expire.py
"""
