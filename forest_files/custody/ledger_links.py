"""A symlink a commit carried into the ledger in place of a file: named by its path, with
the one removal ``forest verify`` gives it.

A ledger holds regular files only, and no act goes with a link. One git tracks (a
branch forked from a main that holds it, a pull) is refused wherever the ledger is
read: by the working tree's sync (ledger/segment_files.py ``linked_segment``, cause
``LINKED``, or ``LinkedEntry`` at the ledger's root, in ``bodies`` or in a stray
folder: every door, and the post-checkout, post-merge and post-rewrite hooks) and
by a git source's listing (custody/sources.py: the pre-commit hook). Their words said
to "restore the segment's file", or to ``git rm --cached`` it and "restore the
ledger's file": there was no file to restore, and the link stayed in the work tree,
untracked, every door still refusing it (``git add -- .forest/ledger`` brought it
back). Now the link is named and its removal is verify's (ledger/strays.py
``removal_steps``): ``git rm -q -f`` while the work tree holds the link, ``git rm -q
--cached`` once it is gone from there, each reached from where the user stands; then
a commit, which the hooks accept. A link git does not track, or one the index holds
over a regular file the work tree keeps (the ledger's own file, staged over), keeps
the words it had: there, a file may be the thing to put back. A ledger folder that is
a link is custody/ledger_dirs.py's.

Stores: nothing.
Refuses: nothing (a refusal's words).
Returns: ``link_removal`` (the route, or None: one ``git ls-files`` and one ``lstat``,
only on a refusal); ``linked_said`` (those words); ``with_link_removal`` (a sync's
``LINKED`` refusal with them, or itself).
Test: tests/doors/test_hook_ledger_link_on_base.py
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

from forest_files import gitio
from forest_files.kernel.paths import BODIES, LEDGER_PREFIX, SEGMENTS, segment_file
from forest_files.kernel.shellword import command_text
from forest_files.kernel.standing import reached
from forest_files.ledger.fault import LINKED, LedgerError
from forest_files.ledger.segment_files import LinkedEntry

_LINK_MODE = "120000"
# A folder the ledger keeps (its files may be the thing to put back): ledger_dirs.py's.
_FOLDER = re.compile(f"{SEGMENTS}|{BODIES}(/[0-9a-f]{{2}})?")


def link_removal(root: Path, rel: str, *, keep_index_file: bool = False) -> str | None:
    """The removal of the link at ``rel`` (from the top) that git's index holds, as
    ``forest verify`` gives it (pasted where the user stands); None when the index holds
    no link there, the work tree holds something else there, or ``rel`` is a folder
    the ledger keeps (``keep_index_file``: a hook's temporary index is the one asked)."""
    inner = rel.removeprefix(LEDGER_PREFIX)
    if inner == rel or _FOLDER.fullmatch(inner):
        return None
    entries = gitio.ls_files_stage(root, keep_index_file=keep_index_file, paths=[rel])
    if not any(e.path == rel and e.mode == _LINK_MODE for e in entries):
        return None
    try:
        on_disk = os.lstat(root / rel).st_mode
    except FileNotFoundError:
        on_disk = 0
    except NotADirectoryError:  # a folder above it is a file: ledger_dirs.py says that
        return None
    if on_disk and not stat.S_ISLNK(on_disk):
        return None
    from forest_files.ledger.strays import Stray

    stray = Stray(inner, False, "a symlink", gone=not on_disk)
    return " && ".join(command_text(s) for s in stray.removal_steps("rm", (inner,)))


def linked_said(route: str, rel: str) -> str:
    """A link git tracks in the ledger, named, with ``route`` (``link_removal``)."""
    return (
        f"{reached(rel)} is a symlink in the ledger, which holds only regular files: no act "
        f"goes with a link, so there is nothing to put back; take it out, as `forest verify` "
        f"does: `{route}`, then commit"
    )


def with_link_removal(root: Path, exc: LedgerError) -> LedgerError:
    """``exc`` (read from the working tree) said with ``linked_said`` when it is a
    symlink git tracks (cause ``LINKED``: a segment file, or ``LinkedEntry`` anywhere
    else a sync lists); else ``exc`` itself."""
    if isinstance(exc, LinkedEntry):
        rel = LEDGER_PREFIX + exc.rel
    elif exc.cause == LINKED and exc.segment is not None:
        rel = segment_file(exc.segment)
    else:
        return exc
    route = link_removal(root, rel)
    if route is None:
        return exc
    return LedgerError(linked_said(route, rel), code=exc.code, cause=LINKED)


__all__ = ["link_removal", "linked_said", "with_link_removal"]
