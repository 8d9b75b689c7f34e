"""The custody of the working tree: its binding map, or its index synced and proven.

``open_worktree`` takes the binding map saved beside the index (bindmap.py) while
the ledger is unchanged (``MAP``); else it syncs the index from the ledger and
derives the map from rows proven against the ledger first (indexproof.py: a
forged row is a rebuilt index, never a verdict), and saves it while the ledger's
stamp is trusted (``REPLAY``). Called by check/opening.py only (``open_custody``,
the one way into custody).

Stores: the working tree's binding map (through kernel/cache.py), the index a sync
brings in step.
Refuses: what a sync refuses (a forged or damaged ledger).
Returns: a ``Custody`` (check/opened.py) with the verdict inputs taken before.
Test: tests/check/test_opening.py, tests/custody/test_indexproof.py,
tests/custody/test_bindmap.py
"""

from __future__ import annotations

from forest_files.check.opened import MAP, REPLAY, WORKTREE, Custody
from forest_files.custody import bindmap, verdict


def open_worktree(root: str, within: tuple[str, ...]) -> Custody:
    from forest_files.custody.session import verdict_inputs

    before = verdict_inputs(root)
    ledger, stamp = before
    record = bindmap.worktree_record(root)
    found = bindmap.load(record, ledger, under=within) if ledger is not None else None
    if found is not None:
        return Custody(root, WORKTREE, MAP, found.bindings, found.grounds, inputs=before)
    custody = Custody(root, WORKTREE, REPLAY, [], {}, inputs=before)
    try:
        from forest_files.custody.indexproof import proven_map

        found = proven_map(custody.store(), custody.repository)
    except BaseException:
        custody.close()
        raise
    if ledger is not None and verdict.ledger_trusted(ledger, stamp):
        bindmap.save(record, ledger, found)
    if within:
        from forest_files.kernel.repopath import under

        keep = [b for b in found.bindings if any(under(b.path, p) for p in within)]
        found = bindmap.BindMap(keep, found.grounds)
    custody.bindings, custody.grounds = found.bindings, found.grounds
    return custody


__all__ = ["open_worktree"]
