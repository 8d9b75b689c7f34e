"""Write the new files of a restore all or nothing: every file prepared before the first rename.

Stores: for each changed file, its new bytes in a temporary file beside it
(written, fsynced, given its mode); then the capture of every text about to be
replaced (``.git/forest/captures/``); then each temporary file renamed into place.
Refuses (one-line ``ForestError`` naming the path, why, and the fix): a file
whose new copy cannot be written, or a capture that cannot be kept — every
temporary file and capture removed, no file changed; a rename that fails — the
files already renamed are put back as they were (their old bytes, or removed when
the restore had recreated them) and their captures removed, so nothing was
restored; when putting one back fails too, the message names exactly the files
left restored and the captures that hold the text they replaced.
Returns: the captures, one per ``Keep``, in order.
Test: tests/custody/test_restore_commit.py
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from forest_files.custody.restore_files import (
    MAKE_WRITABLE,
    Staged,
    capture,
    drop,
    not_replaced,
    reason,
)
from forest_files.kernel.errors import ForestError


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
    text: str


def write_all(root: Path, changes: Sequence[Change], keeps: Sequence[Keep]) -> list[Path]:
    """Every change written, or none (see the module header)."""
    staged: list[Staged] = []
    kept: list[Path] = []
    try:
        for change in changes:
            staged.append(Staged(root, change.path, change.data, change.mode))
        for keep in keeps:
            kept.append(capture(root, keep.selector, keep.text))
        _rename_all(root, changes, staged, keeps, kept)
    except BaseException:
        for s in staged:
            s.discard()
        for k in kept:  # a failed rename has already dropped (and cleared) all it could
            drop(k)
        raise
    return kept


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
            raise ForestError(_failed(change.path, exc, changes[:done], stuck, left)) from exc


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
    path: str, exc: OSError, done: Sequence[Change], stuck: Sequence[str], left: Sequence[Path]
) -> str:
    if not stuck:
        message = not_replaced(path, exc)
        if done:
            back = ", ".join(c.path for c in done)
            message = message.replace(
                "nothing was restored", f"nothing was restored ({back} put back)", 1
            )
        return message
    where = f"; the text it replaced is kept in {', '.join(map(str, left))}" if left else ""
    return (
        f"{path}: cannot be replaced ({reason(exc)}); only {', '.join(stuck)} restored "
        f"(putting it back failed{where}) — {MAKE_WRITABLE.format(path=path)}"
    )
