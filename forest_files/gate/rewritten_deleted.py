"""A ledger file the range rewrote in place and a later commit deleted: one cause.

A sound segment on the base, overwritten by a commit of the range (past the hooks:
``ledger-rewritten``), can then be deleted under the hooks (the pre-commit hook lets
a segment go whose bytes at HEAD do not verify, check/erasure_guard.py): a
``ledger-deleted`` at the later commit. That deletion's own put-back, from its
parent, would bring back the damaged bytes (refused by the hook, and the rewrite
still fails the gate). So it gets the rewrite's route: the file put back in the
commit that first rewrote it, from that commit's parent. The rebase then stops at
each later commit that deleted it, on a modify/delete conflict: the route's note
resolves it by checking the same bytes out there and going on (git leaves that
commit out when the deletion was all it held); the bound text the segment held
custody of is judged again from there (a drift in that commit is refused by the
hook, then by the gate).

Stores: nothing.
Refuses: nothing.
Returns: ``first_rewrite``: the fault a deletion follows from, or None;
``resolve_later``: a put-back route's note naming the conflicts its rebase stops on.
Test: tests/gate/test_ci_rewritten_deleted.py
"""

from __future__ import annotations

from collections.abc import Sequence

from forest_files.check.findings import Route
from forest_files.gate.rebase import CONTINUE, steps_text
from forest_files.kernel.shellword import command_text, git_step, in_batches
from forest_files.ledger.verify import Fault

_REWRITTEN, _DELETED = "ledger-rewritten", "ledger-deleted"


def first_rewrite(fault: Fault, every: Sequence[Fault], order: Sequence[str]) -> Fault | None:
    """The ``ledger-rewritten`` fault of a commit of the range before ``fault``'s
    that modified ``fault``'s file (the earliest: its parent holds the bytes before
    any rewrite), when ``fault`` is that file's deletion; else None."""
    if fault.code != _DELETED or fault.path is None or fault.commit not in order:
        return None
    at = order.index(fault.commit)
    earlier = [
        f for f in every if f.code == _REWRITTEN and f.path == fault.path and f.commit in order[:at]
    ]
    return min(earlier, key=lambda f: order.index(f.commit or ""), default=None)


def resolve_later(
    route: Route, commit: str, parent: str, every: Sequence[Fault], order: Sequence[str]
) -> Route:
    """``route`` (the put-back of ``commit``'s rewrites, from ``parent``), its note
    naming each later commit of the range that deleted one of those files: the rebase
    stops there on a conflict, resolved with the same bytes."""
    mine = {f.path for f in every if (f.commit, f.parent, f.code) == (commit, parent, _REWRITTEN)}
    by_commit: dict[str, list[str]] = {}
    for f in every:
        if f.path in mine and f.commit and first_rewrite(f, every, order) is not None:
            by_commit.setdefault(f.commit, []).append(f.path or "")
    if not by_commit or not route.steps:
        return route
    stops = []
    for later in sorted(by_commit, key=order.index):
        paths = sorted(set(by_commit[later]))
        checkouts = tuple(git_step(*b) for b in in_batches(("checkout", parent, "--"), paths))
        stops.append(
            f"when it stops at {later[:12]}, which deleted {', '.join(paths)} (a conflict): "
            f"`{steps_text(checkouts)} && {command_text(CONTINUE)}`"
        )
    note = f"{route.note}; then, {'; '.join(stops)}"
    return route._replace(note=note)


__all__ = ["first_rewrite", "resolve_later"]
