"""The paths a ledger's acts bind, read without a replay (the first hook after a clone).

The first pre-commit hook after a clone has no view yet: before it replays
anything it asks which paths the staged ledger's acts bind, and a commit that
touches none of them is judged without a replay. That answer needs every line
decoded and checked by the one codec (``acts.decode_line``): this process reads
the segments once (``sources.snapshot_of``), the very read a replay makes, and
what it decoded is remembered (``segments``' memo), so a replay that follows
decodes nothing again. (Child processes once decoded parts of a large ledger;
with the compiled codec one process reads 10,000 acts well inside the hook's
budget, so there is no child, no job to hand over and no answer to check.)

Stores: nothing.
Refuses: a damaged segment or line, as ``LedgerError`` (the serial read's).
Returns: the set of paths the acts bind (``kinds.bound_path_refs``), a superset
of the paths the ledger's bindings hold.
Test: tests/ledger/test_path_scan.py
"""

from __future__ import annotations

from collections.abc import Mapping

from forest_files.ledger.kinds import bound_path_refs


def bound_paths(segments: Mapping[str, bytes]) -> set[str]:
    """Every path an act of ``segments`` (file name -> bytes) binds."""
    from forest_files.custody.sources import snapshot_of

    snapshot = snapshot_of(segments)
    return {p for act in snapshot.acts.values() for p in bound_path_refs(act.payload)}
