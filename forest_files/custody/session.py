"""The working tree's verdict, taken and remembered: what it depends on, and the record.

Custody itself is opened by check/opening.py (the one way into custody); this
module only takes a working-tree verdict's inputs before a check starts and
remembers a clean verdict (verdict.py) after a whole check.

Stores: the remembered verdict (verdict.py), or drops it.
Refuses: nothing.
Returns: ``VerdictInputs``; nothing from ``remember_verdict``.
Test: tests/check/test_verdict.py
"""

from __future__ import annotations

from pathlib import Path

from forest_files.custody import verdict
from forest_files.custody.bindings import Binding
from forest_files.custody.content import ContentSource, WorktreeSource
from forest_files.custody.verdict import LedgerKey

VerdictInputs = tuple[LedgerKey | None, int]


def verdict_inputs(root: Path | str) -> VerdictInputs:
    """What a working-tree verdict depends on, taken before the check starts."""
    ledger = verdict.ledger_key(str(root))
    if ledger is None:  # no custody here (yet): nothing to remember, nothing created
        return None, 0
    return ledger, verdict.stamp(str(root))


def remember_verdict(
    root: Path,
    before: VerdictInputs,
    content: ContentSource,
    bindings: list[Binding],
    failed: bool,
) -> None:
    """After a whole working-tree check: remember a clean verdict, or drop the old one."""
    keys = None
    if not failed and isinstance(content, WorktreeSource):
        keys = content.trusted_keys({b.path for b in bindings})
    if keys is None:
        verdict.forget(str(root))
        return
    ledger, stamp = before
    verdict.remember(str(root), ledger, stamp, keys, len(bindings))
