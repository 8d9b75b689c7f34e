"""Which files of a ledger are its segments: regular files named ``<sha256>.jsonl`` under
``<ledger>/segments``, listed by name, never read through a symlink; and which are its
body files (``bodies/??/*.txt``), listed without following a linked folder.

Imports no act type: a door that scans segment lines for a few ids (custody/adoptions.py,
on a failing hook) lists them here without loading the codec (ledger/segments.py).
Stores: nothing.
Refuses: with ``refuse_links``, a segment name, or ``segments`` itself, that is a
symlink (``LedgerError`` ``stray``: ``linked_segment``).
Returns: ``segment_paths``, the segment files by name; ``body_paths``, the body files;
``LinkedEntry``, how a sync refuses a link elsewhere in the ledger (custody/sync.py).
Test: tests/ledger/test_ledger_strays.py, tests/check/test_hook_move_cost.py,
tests/gate/test_linked_ledger_folder.py
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from forest_files.kernel.paths import BODIES, SEGMENTS
from forest_files.kernel.shellword import shell_word
from forest_files.ledger.fault import LINKED, LedgerError

SEGMENT_SUFFIX = ".jsonl"
BODY_SUFFIX = ".txt"


def segment_paths(ledger_dir: Path, *, refuse_links: bool = False) -> list[Path]:
    """Segment files by name (``*.jsonl``, regular files; anything else there is a
    stray for verify). ``refuse_links``: a segment name that is a symlink is refused
    (``LedgerError``) instead of skipped, for a reader whose custody it would hide."""
    directory = Path(ledger_dir) / SEGMENTS
    mode = _lmode(directory)
    if refuse_links and stat.S_ISLNK(mode):
        raise linked_folder(os.fspath(directory))
    if not stat.S_ISDIR(mode):  # absent, or a link never followed (verify's stray)
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


def body_paths(ledger_dir: Path) -> list[tuple[str, Path]]:
    """The body files (``??/*.txt``) under ``<ledger>/bodies``, each by its path under
    ``bodies`` (POSIX), in order; ``bodies`` or a prefix folder that is a symlink is
    never listed (verify names it a stray), so nothing outside the ledger is read."""
    root = Path(ledger_dir) / BODIES
    if not stat.S_ISDIR(_lmode(root)):
        return []
    found = []
    with os.scandir(root) as prefixes:
        folders = [e for e in prefixes if len(e.name) == 2 and e.is_dir(follow_symlinks=False)]
    for folder in folders:
        with os.scandir(folder.path) as entries:
            found += [
                (f"{folder.name}/{e.name}", Path(e.path))
                for e in entries
                if e.name.endswith(BODY_SUFFIX)
            ]
    return sorted(found)


def _lmode(path: Path) -> int:
    """``path``'s mode, not following a link (0: absent)."""
    try:
        return os.lstat(path).st_mode
    except FileNotFoundError:
        return 0


def linked_folder(path: str) -> LedgerError:
    """The refusal of a ledger folder that is a symlink (never read through)."""
    return LedgerError(
        f"{path} is a symlink where the ledger keeps a directory; a ledger is read only "
        f"from the work tree's own directories: remove the link (rm -- {shell_word(path)}, "
        "and git rm --cached the same path if git tracks it) and bring the ledger's files "
        "back from a commit that holds them",
        code="stray",
    )


class LinkedEntry(LedgerError):
    """A symlink in the ledger outside its segments (at its root, among its body
    folders, anywhere under a folder it has no use for), never read through: ``rel``,
    its path under the ledger (custody/ledger_links.py names its removal)."""

    def __init__(self, rel: str, path: str) -> None:
        super().__init__(
            f"{rel} is a symlink; a ledger holds only regular files: remove the link "
            f"(rm -- {shell_word(path)})",
            code="stray",
            cause=LINKED,
        )
        self.rel = rel


def linked_segment(name: str, path: str) -> LedgerError:
    """The refusal of a segment file that is a symlink (never read through)."""
    return LedgerError(
        f"{name} is a symlink; a segment is read only from the ledger itself: remove the "
        f"link (rm -- {shell_word(path)}) and restore the segment's file",
        segment=name.removesuffix(SEGMENT_SUFFIX),
        code="stray",
        cause=LINKED,
    )


__all__ = [
    "BODY_SUFFIX",
    "SEGMENT_SUFFIX",
    "LinkedEntry",
    "body_paths",
    "linked_folder",
    "linked_segment",
    "segment_paths",
]
