"""Write the new files of a restore all or nothing: every file prepared before the first rename.

Stores: for each changed file, its new bytes in a temporary file beside it
(written, fsynced, given its mode); then the capture of every text about to be
replaced (``.git/forest/captures/``); then, inside the caller's ``Gate`` (the
index's write lock, held from before the first rename to after the last:
restore_gate.py), each temporary file renamed into place but those of the files
the gate says to leave and those whose bytes are no longer what the restore read
(an editor's save, or a file made or deleted, since: read again under the gate),
whose temporary files and captures are removed.
Refuses (one-line ``ForestError`` naming the path, why, and the fix): a file
whose new copy cannot be written, or a capture that cannot be kept — every
temporary file and capture removed, no file changed; a rename that fails — the
files already renamed are put back as they were (their old bytes, or removed when
the restore had recreated them) and their captures removed, so nothing was
restored; when putting one back fails too, the message names exactly the files
left restored and the captures that hold the text they replaced.
Returns: ``Written``: the captures, one per ``Keep``, in order (None for a file
left), the paths the gate left as they were, and the paths left because they
changed since they were read.
Test: tests/custody/test_restore_commit.py
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from forest_files.custody.restore_capture import capture
from forest_files.custody.restore_files import (
    Gate,
    Staged,
    drop,
    fix_for,
    not_replaced,
    open_gate,
    read_for_restore,
    reason,
)
from forest_files.kernel.errors import ForestError
from forest_files.kernel.shellword import shell_word


@dataclass(frozen=True)
class Change:
    """One file's new bytes, and what it holds now (``before`` None: no file there)."""

    path: str
    data: bytes
    mode: int
    before: bytes | None
    before_mode: int


@dataclass(frozen=True)
class Keep:
    """A section's text about to be replaced, to capture first."""

    path: str
    selector: str
    text: str | bytes  # the bytes of a file that was not text, written over whole


@dataclass(frozen=True)
class Written:
    """The capture of each ``Keep`` (None: its file was left), the paths the gate left,
    and the paths left because their bytes changed after the restore read them."""

    kept: list[Path | None]
    left: frozenset[str]
    changed: frozenset[str] = frozenset()


def write_all(
    root: Path, changes: Sequence[Change], keeps: Sequence[Keep], gate: Gate = open_gate
) -> Written:
    """Every change written, or none, but the files the gate leaves (see the header)."""
    staged: list[Staged] = []
    kept: list[Path] = []
    try:
        for change in changes:
            staged.append(Staged(root, change.path, change.data, change.mode))
        for keep in keeps:
            kept.append(capture(root, keep.selector, keep.text))
        with gate() as stale:
            gated = frozenset(stale) & {c.path for c in changes}
            changed = _changed_since_read(root, changes, gated)
            left = gated | changed
            _leave(left, staged, keeps, kept)
            go = [i for i, c in enumerate(changes) if c.path not in left]
            kept_keeps = [keep for keep in keeps if keep.path not in left]
            _rename_all(root, [changes[i] for i in go], [staged[i] for i in go], kept_keeps, kept)
    except BaseException:
        for s in staged:
            s.discard()
        for k in kept:  # a failed rename has already dropped (and cleared) all it could
            drop(k)
        raise
    still = iter(kept)
    return Written([None if keep.path in left else next(still) for keep in keeps], gated, changed)


def _changed_since_read(
    root: Path, changes: Sequence[Change], gated: frozenset[str]
) -> frozenset[str]:
    """The files (not already left by the gate) whose bytes are no longer the ones the
    restore read: written, made or deleted meanwhile. Read again under the gate, so the
    edit a rename would replace is always one the capture holds."""
    return frozenset(
        c.path
        for c in changes
        if c.path not in gated and read_for_restore(root, c.path)[0] != c.before
    )


def _leave(
    left: frozenset[str], staged: Sequence[Staged], keeps: Sequence[Keep], kept: list[Path]
) -> None:
    """The files the gate leaves: their temporary files and captures removed (``kept``
    then holds the captures of the files still to be renamed, in order)."""
    for s in staged:
        if s.path in left:
            s.discard()
    for k, keep in zip(list(kept), keeps, strict=True):
        if keep.path in left:
            drop(k)
            kept.remove(k)


def _rename_all(
    root: Path,
    changes: Sequence[Change],
    staged: Sequence[Staged],
    keeps: Sequence[Keep],
    kept: list[Path],
) -> None:
    for done, (change, s) in enumerate(zip(changes, staged, strict=True)):
        try:
            s.commit()
        except OSError as exc:
            stuck = _put_back(root, changes[:done])
            left = [k for k, keep in zip(kept, keeps, strict=True) if keep.path in stuck]
            for k in kept:
                if k not in left:
                    drop(k)
            kept.clear()
            raise ForestError(_failed(root, change.path, exc, changes[:done], stuck, left)) from exc


def _put_back(root: Path, done: Sequence[Change]) -> list[str]:
    """Each renamed file as it was before; the paths that could not be put back."""
    stuck: list[str] = []
    for change in reversed(done):
        try:
            if change.before is None:  # the restore recreated it: gone again
                os.unlink(root / change.path)
            else:
                again = Staged(root, change.path, change.before, change.before_mode)
                try:
                    again.commit()
                finally:
                    again.discard()
        except (OSError, ForestError):
            stuck.append(change.path)
    return sorted(stuck)


def _failed(
    root: Path,
    path: str,
    exc: OSError,
    done: Sequence[Change],
    stuck: Sequence[str],
    left: Sequence[Path],
) -> str:
    if not stuck:
        message = not_replaced(root, path, exc)
        if done:
            back = ", ".join(c.path for c in done)
            message = message.replace(
                "nothing was restored", f"nothing was restored ({back} put back)", 1
            )
        return message
    kept = ", ".join(shell_word(str(p)) for p in left)
    where = f"; the text it replaced is kept in {kept}" if left else ""
    return (
        f"{path}: cannot be replaced ({reason(exc)}); only {', '.join(stuck)} restored "
        f"(putting it back failed{where}) — {fix_for(exc, root / path)}"
    )
