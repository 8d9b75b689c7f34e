"""The working tree's ledger directories are real ones, never reached through a link.

``.forest``, ``.forest/ledger``, its ``segments`` and ``bodies`` folders and the
prefix folders of ``bodies`` (``bodies/<2 hex>``) arrive through git like any file,
so a commit can carry any of them as a symlink (``.forest -> ../elsewhere``).
Followed, the ledger would be read from a place no commit holds (the working tree's
check would judge other custody than the git index and CI) and every act or body
written there, where no commit can ever carry it.
So each is checked with ``lstat`` before the ledger is read or written, and one
that is a symlink, or a file, is refused with its removal. Where it is absent,
nothing is checked below it (a repository without custody yet).

A git source (the index, a commit) is listed by git, which never follows a link:
custody/sources.py refuses a link among a source's ledger entries, and a linked
``.forest`` or ``.forest/ledger`` is tracked local state (check/localstate.py).

Stores: nothing.
Refuses (``LedgerError``, code ``stray``): a symlink or non-directory at one of
those places (a prefix folder: a symlink; a file named like one is verify's stray),
with the commands that remove it (``git rm --cached`` too when git tracks it).
Returns: None.
Test: tests/custody/test_ledger_dirs.py, tests/gate/test_linked_ledger_folder.py
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

from forest_files.kernel.paths import BODIES, FOREST_DIR, LEDGER_DIR, SEGMENTS
from forest_files.kernel.shellword import shell_word
from forest_files.ledger.fault import LedgerError

_CHAIN = ((FOREST_DIR,), (LEDGER_DIR,), (f"{LEDGER_DIR}/{SEGMENTS}", f"{LEDGER_DIR}/{BODIES}"))
_PREFIX = re.compile(r"[0-9a-f]{2}")  # bodies/<h[:2]>: where a body is read and written


def refuse_linked_ledger(root: Path | str) -> None:
    """Refuse (see above) unless every ledger directory present at ``root`` is real."""
    for level in _CHAIN:
        present = False
        for rel in level:
            try:
                mode = os.lstat(os.path.join(root, rel)).st_mode
            except FileNotFoundError:
                continue
            if stat.S_ISLNK(mode) or not stat.S_ISDIR(mode):
                raise _linked(Path(root), rel, stat.S_ISLNK(mode))
            present = True
        if not present:
            return  # nothing below an absent directory to check
    _refuse_linked_prefix(root)


def _refuse_linked_prefix(root: Path | str) -> None:
    """Refuse a prefix folder of ``bodies`` that is a symlink: a body read or written
    there would be one outside the work tree (one directory listing, no stat)."""
    bodies = f"{LEDGER_DIR}/{BODIES}"
    try:
        with os.scandir(os.path.join(root, bodies)) as entries:
            linked = sorted(e.name for e in entries if e.is_symlink() and _PREFIX.fullmatch(e.name))
    except (FileNotFoundError, NotADirectoryError):
        return
    if linked:
        raise _linked(Path(root), f"{bodies}/{linked[0]}", True)


def _linked(root: Path, rel: str, link: bool) -> LedgerError:
    from forest_files import gitio

    found = "a symlink" if link else "a file"
    tracked = gitio.run_git(root, ["ls-files", "-z", "--", rel]).stdout.strip(b"\0")
    remove = f"rm -- {shell_word(rel)}"
    if tracked:
        remove = f"git rm -q --cached -r -- {shell_word(rel)} && {remove}"
    return LedgerError(
        f"{rel} is {found} where the ledger keeps a directory; forest-files reads and "
        f"writes the ledger only in this work tree's own directories. Remove it ({remove}) "
        f"and bring the ledger's files back from a commit that holds them (git log -- "
        f"{LEDGER_DIR} lists those commits)",
        code="stray",
    )
