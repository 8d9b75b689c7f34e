"""The steps every route is made of: ``forest`` and ``git`` commands spelled as the
user runs them (kernel/shellword.py), the placeholder words a ceremony asks for, and
what a route stages after it changed files or recorded an act.

Stores: nothing. Refuses: nothing. Returns: steps (argument tuples).
Test: tests/check/test_routes_paste.py
"""

from __future__ import annotations

from forest_files.check.findings import WORDS_PLACEHOLDER
from forest_files.kernel.paths import LEDGER_PREFIX
from forest_files.kernel.shellword import forest_step, git_step

LEDGER = LEDGER_PREFIX.rstrip("/")
Step = tuple[str, ...]


def words_option() -> Step:
    """``--words …``: the placeholder a ceremony refuses when pasted as is."""
    return ("--words", WORDS_PLACEHOLDER)


forest = forest_step  # ``forest COMMAND [options] TARGET…`` (kernel/shellword.py)


def stage_steps(source: str, *paths: str) -> tuple[Step, ...]:
    """After a route changed files: the hook's commit needs them staged again."""
    return (git_step("add", "--", *paths),) if source == "index" else ()


def record_steps(source: str, *paths: str) -> tuple[Step, ...]:
    """After a route recorded an act: the ledger staged for the commit that carries
    it (and, in the hook, the files the route changed)."""
    return (git_step("add", "--", LEDGER, *(paths if source == "index" else ())),)
