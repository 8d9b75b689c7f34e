"""Every erase act a range adds carries only fingerprints its erased body yields.

An erase act's tombstone (``lines``, ``tokens``: custody/tombstone.py) blocks
text on every path, yet the authority an erase needs covers only the paths
bound to the erased body. A hand-written erase could fingerprint any line (a
licence line, a line of someone else's ground) and block it everywhere. So each
fingerprint of each erase act new in the range must be one that
``tombstone_for`` / ``tokens_for`` (the functions ``forest forget`` calls)
derive from the erased body. They are called with nothing kept out: forget may
leave fingerprints out (lines live ground holds, ``--line``'s choice, the
repository's own object names) but never adds one, so only an extra
fingerprint is a fault; a missing one is the erase's signer's choice.

The body file is deleted by the commit that erases it, so it is read where it
still stands: at the merge-base, else at any commit of the range (a body
adopted and erased inside the range). A body none of them holds (erased before
the range, or never committed) is not judged here.

Stores: nothing.
Refuses: nothing (the caller reports).
Returns: ``authority`` faults naming the erase act and its segment, with counts
of foreign fingerprints (never a fingerprint, a line or a body).
Test: tests/gate/test_erase_lines_forged.py
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from pathlib import Path

from forest_files import gitio
from forest_files.custody.tombstone import tokens_for, tombstone_for
from forest_files.kernel.paths import LEDGER_DIR
from forest_files.ledger.acts import Act
from forest_files.ledger.kinds import EraseAct
from forest_files.ledger.segments import LedgerSnapshot, body_path
from forest_files.ledger.verify import Fault

CODE = "authority"  # an act whose reach its signer does not hold


def _erases(new_acts: Iterable[Act]) -> list[tuple[Act, EraseAct]]:
    return [
        (a, a.payload)
        for a in new_acts
        if isinstance(a.payload, EraseAct) and (a.payload.lines or a.payload.tokens)
    ]


def _text_of(data: bytes | None, body_hash: str) -> str | None:
    """``data`` as a body's text when it is that body (hash and UTF-8 checked)."""
    if data is None or hashlib.sha256(data).hexdigest() != body_hash:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _read(root: Path, revs: Sequence[str], hashes: Iterable[str]) -> dict[str, str]:
    """The bodies of ``hashes`` that some commit of ``revs`` holds (one batch each)."""
    found: dict[str, str] = {}
    for body_hash in sorted(hashes):
        rel = body_path(Path(LEDGER_DIR), body_hash).as_posix()
        for data in gitio.files_at(root, revs, rel).values():
            text = _text_of(data, body_hash)
            if text is not None:
                found[body_hash] = text
                break
    return found


def bodies_before(root: Path, base: str, head: str, hashes: set[str]) -> dict[str, str]:
    """The erased bodies as they stood at the merge-base, else in the range."""
    found = _read(root, [base], hashes)
    missing = hashes - found.keys()
    if missing:
        found |= _read(root, gitio.rev_list(root, f"{base}..{head}"), missing)
    return found


def _fault(act: Act, p: EraseAct, body: str, snapshot: LedgerSnapshot) -> Fault | None:
    lines = set(p.lines or ()) - set(tombstone_for(act.scope, body))
    tokens = set(p.tokens or ()) - set(tokens_for(act.scope, body))
    if not lines and not tokens:
        return None
    # `forest forget` is named, not printed as a step: this very act already erased the
    # body, so forget refuses it until the act is taken out of the branch (a rewrite
    # of history no one pasted line can say).
    detail = (
        f"erase act {act.id[:12]} carries tombstone lines its erased body does not hold "
        f"({len(lines)} line and {len(tokens)} token fingerprint(s) that body "
        f"{p.body_hash[:12]} does not yield, which would block text on paths its signer "
        f"{p.by} may not hold); erase with `forest forget`, which derives the tombstone"
    )
    return Fault(CODE, snapshot.origin(act.id), None, act.id, detail)


def forged_tombstone_faults(
    root: Path, base: str, head: str, new_acts: Sequence[Act], snapshot: LedgerSnapshot
) -> list[Fault]:
    """A fault for each erase act of ``new_acts`` whose tombstone holds a fingerprint
    its erased body does not yield (see the module docstring)."""
    erases = _erases(new_acts)
    if not erases:
        return []
    bodies = bodies_before(root, base, head, {p.body_hash for _, p in erases})
    faults: list[Fault] = []
    for act, p in erases:
        body = bodies.get(p.body_hash)
        fault = None if body is None else _fault(act, p, body, snapshot)
        if fault is not None:
            faults.append(fault)
    return faults
