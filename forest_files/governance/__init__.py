"""Governance: forget (erasure with a tombstone) and its purge, the audit log and what
the doors record in it, expiry (repository kinds, and a library store's own).

Stores: nothing itself (see the modules).
Refuses: nothing itself.
Returns: nothing itself.
Test: tests/governance/test_forget.py, tests/custody/test_tombstone.py,
      tests/governance/test_audit.py,
tests/governance/test_audit_doors.py, tests/custody/test_expire.py
"""
