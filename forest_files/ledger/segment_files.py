"""Which files of a ledger are its segments: regular files named ``<sha256>.jsonl`` under
``<ledger>/segments``, listed by name, never read through a symlink.

Imports no act type: a door that scans segment lines for a few ids (custody/adoptions.py,
on a failing hook) lists them here without loading the codec (ledger/segments.py).
Stores: nothing.
Refuses: with ``refuse_links``, a segment name that is a symlink (``LedgerError``
``stray``: ``linked_segment``).
Returns: ``segment_paths``, the segment files by name.
Test: tests/ledger/test_ledger_strays.py, tests/check/test_hook_move_cost.py
"""

from __future__ import annotations

import os
from pathlib import Path

from forest_files.kernel.paths import SEGMENTS
from forest_files.kernel.shellword import shell_word
from forest_files.ledger.fault import LedgerError

SEGMENT_SUFFIX = ".jsonl"


def segment_paths(ledger_dir: Path, *, refuse_links: bool = False) -> list[Path]:
    """Segment files by name (``*.jsonl``, regular files; anything else there is a
    stray for verify). ``refuse_links``: a segment name that is a symlink is refused
    (``LedgerError``) instead of skipped, for a reader whose custody it would hide."""
    directory = Path(ledger_dir) / SEGMENTS
    if not directory.is_dir():
        return []
    found = []
    with os.scandir(directory) as entries:
        for e in entries:
            if not e.name.endswith(SEGMENT_SUFFIX):
                continue
            if e.is_file(follow_symlinks=False):
                found.append(Path(e.path))
            elif refuse_links and e.is_symlink():
                raise linked_segment(e.name, e.path)
    return sorted(found)


def linked_segment(name: str, path: str) -> LedgerError:
    """The refusal of a segment file that is a symlink (never read through)."""
    return LedgerError(
        f"{name} is a symlink; a segment is read only from the ledger itself: remove the "
        f"link (rm -- {shell_word(path)}) and restore the segment's file",
        segment=name.removesuffix(SEGMENT_SUFFIX),
        code="stray",
    )


__all__ = ["SEGMENT_SUFFIX", "linked_segment", "segment_paths"]
