"""Writing ledger files: bodies first, then the immutable segment that refers to them.

Stores: ``<ledger>/bodies/<h[:2]>/<h>.txt`` and ``<ledger>/segments/<sha256>.jsonl``
(the layout and the reading side are ``segments.py``). Every file is written to a
temp file in ``.git/forest/tmp`` (never inside the ledger), fsynced and renamed into
place with any directory it needs (see ``placing``); stale temp files there are
swept at the start of each write; bodies land before the segment that refers to
them. A failed write's new bodies are taken back by the caller (``take_back``).
Refuses: writing a body under a hash that is not its own, or an empty segment
(``ForestError``); a body hash that is not 64 hex digits (``LedgerError``).
Returns: ``SegmentRef`` for a write (and, into ``created``, the body files it made).
Test: tests/ledger/test_ledger_codec.py, tests/ledger/test_ledger_strays.py
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from forest_files.kernel.cache import fsync_dir
from forest_files.kernel.errors import ForestError
from forest_files.kernel.hashing import hash_body
from forest_files.ledger.acts import Act, LedgerError, encode_act, is_hex64
from forest_files.ledger.placing import place, sweep
from forest_files.ledger.segments import (
    BODIES_DIR,
    BODY_SUFFIX,
    SEGMENTS_DIR,
    segment_file_name,
)

# Above this many new bodies one os.sync() replaces per-file fsyncs: on ext4 an
# fsync costs ~2.5 ms, so 10,000 bodies would take ~25 s; one sync takes ~0.1 s.
_FSYNC_EACH_LIMIT = 32

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


@dataclass(frozen=True)
class SegmentRef:
    """A segment on disk: its name (the SHA-256 of its bytes), path and act count."""

    name: str
    path: Path
    acts: int
    placed: bool = True  # False: a file of the same bytes stood there already


def _body_text_path(ledger_dir: Path | str, body_hash: str) -> str:
    """``body_path`` as a plain string (same checks)."""
    if not is_hex64(body_hash):
        raise LedgerError("body hash is not 64 lowercase hex digits", code="malformed")
    return os.path.join(ledger_dir, BODIES_DIR, body_hash[:2], body_hash + BODY_SUFFIX)


def _body_state(path: Path | str, body_hash: str) -> str:
    """ "intact", "absent", or "damaged" (present but not hashing to its name)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | _NOFOLLOW)
    except FileNotFoundError:
        return "absent"
    except OSError:
        return "damaged"  # a symlink: never read through; the write replaces the link
    with open(fd, "rb") as handle:
        data = handle.read()
    return "intact" if hashlib.sha256(data).hexdigest() == body_hash else "damaged"


def write_bodies(
    ledger_dir: Path, bodies: Mapping[str, str], created: list[Path] | None = None
) -> None:
    """Place every body not already on disk intact (a damaged file is rewritten).

    ``created`` collects, as they land, the files that did not exist before, so
    a caller can take back exactly those (and never a file it only repaired).
    Stale temp files of crashed writers are swept first.
    """
    sweep(ledger_dir)
    _write_bodies(Path(ledger_dir), bodies, created)


def _write_bodies(ledger_dir: Path, bodies: Mapping[str, str], created: list[Path] | None) -> None:
    pending: list[tuple[Path, bytes, bool]] = []
    for body_hash, text in sorted(bodies.items()):
        if hash_body(text) != body_hash:
            raise ForestError(f"body given under hash {body_hash} does not hash to it")
        where = _body_text_path(ledger_dir, body_hash)  # a string: no pathlib per body
        state = _body_state(where, body_hash)
        if state != "intact":
            pending.append((Path(where), text.encode("utf-8"), state == "absent"))
    each = len(pending) <= _FSYNC_EACH_LIMIT
    changed: set[Path] = set()
    for path, data, new in pending:
        changed |= place(ledger_dir, path, data, fsync=each)
        if new and created is not None:
            created.append(path)
    if pending and not each:
        os.sync()
    for directory in sorted(changed):
        fsync_dir(directory, strict=True)


def take_back(created: Iterable[Path]) -> None:
    """Remove body files a failed write created (``write_bodies``' ``created``), and
    each prefix directory that leaves empty; a file already gone is no error."""
    made = list(created)
    for path in made:
        path.unlink(missing_ok=True)
    for directory in sorted({p.parent for p in made}):
        # Only an empty one goes; a concurrent writer whose rename then misses it
        # brings the directory back with its file (see ``placing``).
        with contextlib.suppress(OSError):
            os.rmdir(directory)


def write_segment(
    ledger_dir: Path,
    acts: Iterable[Act],
    bodies: Mapping[str, str],
    created: list[Path] | None = None,
) -> SegmentRef:
    """Write ``bodies`` then one new segment holding ``acts`` (duplicates dropped).

    ``created`` collects the body files that did not exist before (as
    ``write_bodies``), so a caller whose act fails takes back exactly those
    (``take_back``). A segment this call placed is removed again if syncing its
    directory fails: it never stays without the call returning it.
    """
    ledger_dir = Path(ledger_dir)
    lines: list[str] = []
    seen: set[str] = set()
    for act in acts:
        if act.id not in seen:
            seen.add(act.id)
            lines.append(encode_act(act))
    if not lines:
        raise ForestError("a segment needs at least one act")
    sweep(ledger_dir)
    _write_bodies(ledger_dir, bodies, created)
    data = ("\n".join(lines) + "\n").encode("utf-8")
    name = hashlib.sha256(data).hexdigest()
    directory = ledger_dir / SEGMENTS_DIR
    path = directory / segment_file_name(name)
    if not path.exists():  # same bytes, same name: an existing copy is this segment
        changed = place(ledger_dir, path, data, fsync=True)
        try:
            for folder in sorted(changed):
                fsync_dir(folder, strict=True)
        except BaseException:
            path.unlink(missing_ok=True)  # not returned, so no caller could take it back
            raise
        return SegmentRef(name=name, path=path, acts=len(lines))
    return SegmentRef(name=name, path=path, acts=len(lines), placed=False)
