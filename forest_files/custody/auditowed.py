"""The audit records a recording owes: kept beside the index until the log holds them.

Stores: ``audit-owed/<act id>.json`` in the worktree's state folder (kernel/state.py
``worktree_dir``, beside the index its acts are applied to), one per recording command:
written before its segment is placed, holding each act's ceremony record (kind, signer,
the act's id, the ids it produced and the paths it touched: never a body) and HEAD as
the act was recorded; removed once the log holds the records, or when the recording is
refused. A process killed between the segment's rename and the audit log's commit (the
act stands: the ledger is the truth) leaves it, and the next sync or rebuild (every
repository command) appends each record whose act the index, in step with the ledger,
has applied, under the reason ``restored`` (its ``at`` and ``seq`` are that command's;
``head`` the recording's); a marker whose act never applied (killed before its segment
landed) claims nothing and is dropped, as is one this module did not write. Appending
goes through ``auditlog.append_events``; a log that cannot be written keeps the marker
until it can be, said once by the recording that found it so (custody/auditgap.py),
not again by each sync that finds it still so.
Refuses: nothing (writing a marker is best effort, as the log is).
Returns: ``owe`` (the marker, or None when it could not be written), ``paid``,
``restore`` (how many records it appended).
Test: tests/custody/test_audit_owed.py
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Sequence
from pathlib import Path

from forest_files.custody import auditlog as audit
from forest_files.custody.applied import is_applied
from forest_files.custody.auditsql import CEREMONIES
from forest_files.kernel.cache import replace_atomically
from forest_files.kernel.pids import sweep_dead
from forest_files.kernel.state import worktree_dir
from forest_files.store.forest import ForestStore

OWED_DIR = "audit-owed"
RESTORED = "restored"  # the reason of a record a later command appended from its marker
_HEX64 = re.compile(r"[0-9a-f]{64}")
_LEFT = re.compile(r"[0-9a-f]{64}\.json\.(?P<pid>[0-9]{1,10})\.tmp")  # replace_atomically's


def owe(root: Path, events: Sequence[audit.Event], head: str | None) -> Path | None:
    """The marker of ``events`` (one recording's ceremony records), written before its
    segment is placed; None when it could not be written (the log is best effort)."""
    if not events or not all(e.act_id for e in events):
        return None
    doc = {
        "head": head or "",
        "events": [
            {"action": e.action, "actor": e.actor, "targets": list(e.targets), "act_id": e.act_id}
            for e in events
        ],
    }
    try:
        folder = worktree_dir(root) / OWED_DIR
        folder.mkdir(mode=0o700, exist_ok=True)
        path = folder / f"{events[0].act_id}.json"
        replace_atomically(str(path), json.dumps(doc, sort_keys=True).encode("utf-8"))
    except OSError:
        return None
    return path


def paid(marker: Path | None) -> None:
    """The marker's records are in the log, or its act was refused: it goes (and its
    folder, when no other recording owes one)."""
    if marker is None:
        return
    marker.unlink(missing_ok=True)
    with contextlib.suppress(OSError):
        marker.parent.rmdir()


def _events(path: Path) -> tuple[list[audit.Event], str] | None:
    """The records a marker holds and its HEAD; None for one this module did not write."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        head, raw = doc["head"], doc["events"]
        out = [
            audit.Event(
                str(e["action"]),
                "ok",
                RESTORED,
                e["actor"],
                tuple(e["targets"]),
                act_id=e["act_id"],
            )
            for e in raw
        ]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    sound = isinstance(head, str) and out and path.stem == out[0].act_id
    for e in out:
        sound = sound and e.action in CEREMONIES and isinstance(e.actor, str)
        sound = sound and isinstance(e.act_id, str) and bool(_HEX64.fullmatch(e.act_id))
        sound = sound and all(isinstance(t, str) for t in e.targets)
    return (out, head) if sound else None


def restore(root: Path, store: ForestStore) -> int:
    """Append the records every marker owes whose act the index (in step with the
    ledger) has applied; drop the markers that owe nothing. Under the index's write
    lock, so a recording still placing its segment is waited for, never judged half
    done. The number of records appended."""
    folder = worktree_dir(root, create=False) / OWED_DIR
    if not folder.is_dir():
        return 0
    sweep_dead(folder, _LEFT)  # a marker's temp file its writer, killed, left
    restored = 0
    with store.atomic():
        for path in sorted(folder.glob("*.json")):
            found = _events(path)
            owed = [e for e in found[0] if is_applied(store, str(e.act_id))] if found else []
            # quiet: the command that could not write it said the gap, with its fix
            if owed and found and not audit.append_events(root, owed, head=found[1], quiet=True):
                continue  # the log cannot be written: kept until it can
            restored += len(owed)
            paid(path)
    with contextlib.suppress(OSError):
        os.rmdir(folder)
    return restored
