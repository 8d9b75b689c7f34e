"""The doors' side of closing proposals the text left behind: settle, then audit.

Stores: through ``proposals.settle`` (the store) and one door-log event per
closed proposal (its id, binding, selector and text hash — never its text).
Refuses: nothing.
Returns: the proposals closed (``Settled``) and a line to print for them.
Test: tests/proposals/test_settle.py
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from forest_files.check.engine import Finding
from forest_files.custody.proposals import Proposal
from forest_files.proposals.settle import Settled, settle, settle_now, settle_rebinds


def audited(root: Path, done: list[Settled]) -> list[Settled]:
    from forest_files.doors.doorlog import record_proposal

    for s in done:
        p = s.proposal
        digest = (p.text_hash,) if isinstance(p, Proposal) else ()
        record_proposal(root, (p.id, p.binding, p.selector, *digest), s.code)
    return done


def close_left_behind(root: Path, findings: Iterable[Finding] | None = None) -> list[Settled]:
    """Close (and audit) what ``findings`` (or, if None, a fresh check) leave behind."""
    if findings is None:
        return audited(root, settle_now(root))
    found = list(findings)
    return audited(root, [*settle(root, found), *settle_rebinds(root, found)])


def said(done: list[Settled]) -> list[str]:
    return [f"closed proposal {s.proposal.id} ({s.proposal.selector}): {s.why}" for s in done]
