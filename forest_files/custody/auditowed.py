"""The audit records a recording owes: kept beside the index until the log holds them.

Stores: ``audit-owed/<act id>.json`` (kernel/paths.py ``OWED_DIR``) in the worktree's
state folder (kernel/state.py ``worktree_dir``, beside the index its acts are applied
to), one per recording command: written before its segment is placed, holding the ids
of its acts and HEAD as they were recorded (never a body, a name or a path); removed
once the log holds the records, or when the recording is refused. A process killed
between the segment's rename and the audit log's commit (the act stands: the ledger is
the truth) leaves it, and the next sync or rebuild (every repository command) appends
the record of each act the index, in step with the ledger, has applied, under the
reason ``restored`` (its ``at`` and ``seq`` are that command's, ``head`` the
recording's), its kind and signer read from the act in the ledger, its ids and paths
from the index (auditowed_acts.py): a marker is a claim in a folder the user may write,
so it names acts, never what their records say. A marker whose act never applied
(killed before its segment landed) claims nothing and is dropped, as is anything else
there this module did not write (read only as a regular file of at most
``MAX_MARKER_BYTES``, never through a link, never waited on; a folder so named is left
for ``forest fsck`` to name). Appending goes through ``auditlog.append_events``; a log
that cannot be written keeps the marker until it can be, said once by the recording
that found it so (custody/auditgap.py), not again by each sync that finds it still so.
Refuses: a symlink or a file where the folder belongs (kernel/state.py ``ensure_dir``:
its removal named), never followed; nothing else (writing a marker is best effort, as
the log is).
Returns: ``owe`` (the marker, or None when it could not be written), ``paid``,
``restore`` (how many records it appended), ``claims`` (what ``forest fsck`` reports).
Test: tests/custody/test_audit_owed.py, tests/custody/test_audit_owed_hostile.py
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from forest_files.custody import auditlog as audit
from forest_files.custody.auditowed_acts import proven_events
from forest_files.kernel.cache import replace_atomically
from forest_files.kernel.errors import StateError
from forest_files.kernel.paths import LEDGER_DIR, OWED_DIR
from forest_files.kernel.pids import sweep_dead
from forest_files.kernel.state import ensure_dir, worktree_dir
from forest_files.ledger.fault import is_hex64
from forest_files.store.forest import ForestStore

RESTORED = "restored"  # the reason of a record a later command appended from its marker
MAX_MARKER_ACTS = 100_000  # acts of one recording a marker names; more: none written
MAX_MARKER_BYTES = MAX_MARKER_ACTS * 67 + 256  # '"<64 hex>",' each, the head and keys
_HEAD = re.compile(r"(?:[0-9a-f]{40}|[0-9a-f]{64})?")  # a commit (sha1, sha256) or none
_LEFT = re.compile(r"[0-9a-f]{64}\.json\.(?P<pid>[0-9]{1,10})\.tmp")  # replace_atomically's
_READ = os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0)


@dataclass(frozen=True)
class Claim:
    """A marker this module wrote: the acts whose records it owes, and HEAD then."""

    path: Path
    acts: tuple[str, ...]
    head: str


@dataclass(frozen=True)
class Claims:
    """What ``audit-owed/`` holds: sound markers, and whatever else is there."""

    sound: list[Claim] = field(default_factory=list)
    foreign: list[Path] = field(default_factory=list)


def owe(root: Path, events: Sequence[audit.Event], head: str | None) -> Path | None:
    """The marker of ``events`` (one recording's ceremony records), written before its
    segment is placed; None when it could not be written (the log is best effort)."""
    acts = [e.act_id for e in events]
    if not acts or len(acts) > MAX_MARKER_ACTS or not all(is_hex64(a) for a in acts):
        return None
    folder = worktree_dir(root) / OWED_DIR
    if os.path.lexists(folder):
        ensure_dir(folder)  # a link or a file planted there: refused, never written through
    try:
        ensure_dir(folder)  # 0700; root's, in another user's git directory: theirs
        path = folder / f"{acts[0]}.json"
        doc = {"acts": acts, "head": head or ""}
        replace_atomically(str(path), json.dumps(doc, sort_keys=True).encode("utf-8"))
    except (OSError, StateError):  # a folder that cannot be made: no marker, as below
        return None
    return path


def paid(marker: Path | None) -> None:
    """The marker's records are in the log, or its act was refused: it goes (and its
    folder, when no other recording owes one)."""
    if marker is None:
        return
    with contextlib.suppress(IsADirectoryError, PermissionError):  # a folder: fsck's
        marker.unlink(missing_ok=True)
    with contextlib.suppress(OSError):
        marker.parent.rmdir()


def _read(path: Path) -> bytes | None:
    """A marker's bytes: a regular file of at most ``MAX_MARKER_BYTES``, opened without
    following a link or waiting on a FIFO; None for anything else there."""
    try:
        fd = os.open(path, _READ)
    except OSError:
        return None
    try:
        found = os.fstat(fd)
        if not stat.S_ISREG(found.st_mode) or found.st_size > MAX_MARKER_BYTES:
            return None
        with os.fdopen(os.dup(fd), "rb") as fh:
            data = fh.read(MAX_MARKER_BYTES + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    return data if len(data) <= MAX_MARKER_BYTES else None


def _claim(path: Path) -> Claim | None:
    """The claim a marker makes; None for one this module did not write."""
    data = _read(path)
    if data is None:
        return None
    try:
        doc = json.loads(data)
        acts, head = doc["acts"], doc["head"]
    except (ValueError, KeyError, TypeError):
        return None
    if not isinstance(acts, list) or not acts or len(acts) > MAX_MARKER_ACTS:
        return None
    if not all(is_hex64(a) for a in acts) or path.stem != acts[0]:
        return None
    if not isinstance(head, str) or _HEAD.fullmatch(head) is None:
        return None
    return Claim(path, tuple(acts), head)


def _folder(root: Path) -> Path | None:
    """The markers' folder, checked with ``lstat`` (a link or a file planted there is
    refused, never followed); None when there is none."""
    folder = worktree_dir(root, create=False) / OWED_DIR
    if not os.path.lexists(folder):
        return None
    ensure_dir(folder)
    return folder


def claims(root: Path) -> Claims:
    """Every marker's claim and every entry there that is none (read only)."""
    found = Claims()
    folder = _folder(root)
    for path in sorted(folder.glob("*.json")) if folder is not None else ():
        claim = _claim(path)
        if claim is None:
            found.foreign.append(path)
        else:
            found.sound.append(claim)
    return found


def restore(root: Path, store: ForestStore) -> int:
    """Append the records every marker owes whose act the index (in step with the
    ledger) has applied; drop the markers that owe nothing. Under the index's write
    lock, so a recording still placing its segment is waited for, never judged half
    done. The number of records appended."""
    folder = _folder(root)
    if folder is None:
        return 0
    sweep_dead(folder, _LEFT)  # a marker's temp file its writer, killed, left
    restored = 0
    with store.atomic():
        found = claims(root)
        for path in found.foreign:
            paid(path)
        for claim in found.sound:
            owed = proven_events(root / LEDGER_DIR, store, claim.acts, RESTORED)
            # quiet: the command that could not write it said the gap, with its fix
            if owed and not audit.append_events(root, owed, head=claim.head, quiet=True):
                continue  # the log cannot be written: kept until it can
            restored += len(owed)
            paid(claim.path)
    with contextlib.suppress(OSError):
        os.rmdir(folder)
    return restored
