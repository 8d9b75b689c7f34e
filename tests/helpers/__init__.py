"""Reusable builders for the forest-files test suite (store, later files and ledger)."""
