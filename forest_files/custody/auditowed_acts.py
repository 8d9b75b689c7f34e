"""The audit records an owed marker's acts prove: read from the ledger and the index.

A marker (auditowed.py) names acts; what their records say is never taken from it.
Each act the index has applied (in step with the ledger: it is read under the index's
write lock, after a sync) is found in the ledger's segments, newest first (the one a
killed recording placed is nearly always the newest), by its id: an act is named by
the hash of its own bytes, so the act parsed under that id is the act recorded. Its
record is the one the recording would have written (recording.py ``_ceremony``): its
kind and signer from the act, its id, the ids it produced and the paths it touched
from the index (``ledger_applied``, ``ledger_act_paths``, written as it applied).
Stores: nothing.
Refuses: nothing (an act not applied, or not found in a segment that parses, proves
no record).
Returns: ``proven_events``: the ceremony records, in the marker's order.
Test: tests/custody/test_audit_owed_hostile.py
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from pathlib import Path

from forest_files.custody import auditlog as audit
from forest_files.custody.applied import act_paths, produced_by
from forest_files.ledger.acts import Act, LedgerError
from forest_files.ledger.segment_files import segment_paths
from forest_files.ledger.segments import read_segment_bytes
from forest_files.store.forest import ForestStore


def _mtime(path: Path) -> int:
    try:
        return os.lstat(path).st_mtime_ns
    except OSError:
        return 0


def _ledger_acts(ledger_dir: Path, wanted: set[str]) -> dict[str, Act]:
    """The acts of ``wanted`` found in the ledger's segments, newest segment first; a
    segment is parsed only when its bytes hold one of the ids."""
    found: dict[str, Act] = {}
    for path in sorted(segment_paths(ledger_dir), key=_mtime, reverse=True):
        if len(found) == len(wanted):
            break
        try:
            data = path.read_bytes()
        except OSError:
            continue
        if not any(a.encode("ascii") in data for a in wanted - found.keys()):
            continue
        with contextlib.suppress(LedgerError):  # the sync before has said a damaged one
            found.update((a.id, a) for a in read_segment_bytes(data, path.name) if a.id in wanted)
    return found


def proven_events(
    ledger_dir: Path, store: ForestStore, acts: Sequence[str], reason: str
) -> list[audit.Event]:
    """The ceremony record of each of ``acts`` the index applied and the ledger holds,
    under ``reason``; none for the rest."""
    produced = {a: p for a in dict.fromkeys(acts) if (p := produced_by(store, a)) is not None}
    if not produced:
        return []
    found = _ledger_acts(ledger_dir, set(produced))
    paths = act_paths(store, found)
    out = []
    for act_id in produced:
        act = found.get(act_id)
        if act is None:
            continue
        targets = (act.id, *produced[act_id], *sorted(paths[act_id]))
        out.append(audit.Event(act.kind, "ok", reason, act.payload.signer, targets, act_id=act.id))
    return out
