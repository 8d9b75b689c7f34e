"""The capture: the text a restore overwrites, kept locally first.

Stores: the divergent section text under ``.git/forest/captures/`` (ignored by git:
it may hold text nobody adopted; a file that was not text, written over whole, its
bytes as they were), after one header line naming the restore quoted so it pastes
(``# captured before `forest restore 'a b.md'```). Written as
``<name>.<pid>.part`` beside, fsynced and renamed in, so a kill leaves no capture
or a whole one, never an empty one; made, renamed (or removed) in the captures folder
opened from the git directory with no link followed (kernel/held.py ``hold``),
so a folder its owner swapped for a link meanwhile never leads the capture elsewhere;
the part files of writers that are gone (their pid runs nothing here, or an hour old:
kernel/pids.py) are removed by the next capture (``forest forget`` reads them as
captures: purge.py).
Refuses (one-line ``ForestError``): a captures folder that cannot be written (the
folder, quoted, the reason, and the fix: free space when the disk, a quota or a
file-size limit refused it, else kernel/access.py's ``access_fix``, the folder named
quoted; no part file left behind); anything at the part file's name already (a link
the captures folder's owner planted: root truncated and wrote its target), never
opened, its ``rm`` named, nothing restored.
Returns: the capture's path.
Test: tests/custody/test_restore.py, tests/custody/test_restore_capture_quoted.py,
tests/doors/test_hostile_owner_captures.py,
tests/custody/test_crash_matrix.py, tests/custody/test_access_beyond_modes_restore.py
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
from pathlib import Path

from forest_files.custody.restore_files import reason
from forest_files.kernel.access import access_fix
from forest_files.kernel.errors import FREE_SPACE, ForestError, no_space
from forest_files.kernel.handover import hand_over
from forest_files.kernel.hashing import hash_body
from forest_files.kernel.held import HeldFolder, hold
from forest_files.kernel.paths import CAPTURES_DIR
from forest_files.kernel.pids import sweep_dead
from forest_files.kernel.shellword import forest_text, shell_word
from forest_files.kernel.standing import from_the_top
from forest_files.kernel.state import ensure_dir, linked_file, shared_dir
from forest_files.store.clock import utc_now


def capture(root: Path, selector: str, text: str | bytes) -> Path:
    """Keep divergent text locally (never committed) before it is overwritten; the
    bytes of a file that was not text (a whole-file binding's) exactly as they were."""
    folder = shared_dir(root) / CAPTURES_DIR
    stamp = utc_now().replace(":", "").replace(".", "")
    data = text.encode("utf-8") if isinstance(text, str) else text
    named = hash_body(text) if isinstance(text, str) else hashlib.sha256(text).hexdigest()
    path = folder / f"{stamp}-{named[:12]}.txt"
    part = folder / f"{path.name}.{os.getpid()}{PART_SUFFIX}"
    with from_the_top():  # read later, from anywhere: the step as run at the top
        step = forest_text("restore", selector)
    made = False
    held: HeldFolder | None = None
    try:
        ensure_dir(folder)
        held = hold(folder)
        sweep_parts(held)
        fd = _open_part(part, selector, held)
        made = True
        _write_part(fd, part, f"# captured before `{step}`\n".encode() + data)
        held.replace(part.name, path.name)
    except OSError as exc:
        if made and held is not None:  # what was at the name before is not ours to remove
            with contextlib.suppress(OSError):
                held.unlink(part.name)
        where = shell_word(str(folder))
        fix = FREE_SPACE if no_space(exc) else access_fix(os.fspath(part), exc)
        raise ForestError(
            f"{selector}: the text it replaces cannot be kept in {where} ({reason(exc)}); "
            f"nothing was restored — {fix}, then run the same command again"
        ) from exc
    finally:
        if held is not None:
            held.close()
    return path


def _write_part(fd: int, part: Path, data: bytes) -> None:
    """``data`` written to the part file open at ``fd`` (and closed): given to the owner
    of another user's git directory first, fsynced (it keeps the person's text the
    rename of their file is about to overwrite)."""
    with open(fd, "wb") as out:
        hand_over(fd, str(part))  # root's, in another user's git dir: theirs
        out.write(data)
        out.flush()
        os.fsync(fd)


def _open_part(part: Path, selector: str, held: HeldFolder) -> int:
    """A descriptor of the new file ``part`` (made in the folder ``held``), never
    what is at its name already: a link the captures folder's owner planted there (root
    truncated and wrote its target), a FIFO, a file; refused, its removal named, nothing
    written."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0)
    try:
        # as open(part, "wb") made it: less the umask
        return held.open(part.name, flags, 0o666)
    except FileExistsError:
        found = linked_file(part, "a capture being written")
        fix = f"rm -- {shell_word(str(part))}"
        again = f"remove it ({fix}) and run the command again"
        words = found[0] if found else f"{part}: a file there already; {again}"
        raise ForestError(f"{selector}: nothing was restored; {words}") from None


# A capture being written: "<capture name>.<pid>.part" in the captures folder.
PART_SUFFIX = ".part"
_PART = re.compile(r".+\.txt\.(?P<pid>[0-9]{1,10})\.part")


def sweep_parts(folder: Path | HeldFolder) -> None:
    """Remove the part files of captures whose writer is gone (kernel/pids.py), in the
    captures folder (or the caller's hold of it): a restore killed as it wrote its
    capture left one; the restore typed next captures that text again."""
    sweep_dead(folder, _PART)
