"""The files a restore touches: the bound file read safely and replaced atomically, the capture.

Stores: the divergent section text as a local capture under
``.git/forest/captures/`` (ignored by git: it may hold text nobody adopted); a
bound file's new bytes written to a temporary file in the same directory, given
the file's mode (an executable stays executable), renamed into place; the file
of a missing whole-file binding recreated from ground (mode 0644).
Refuses (one-line ``ForestError``, nothing written): a bound path holding a
symlink, directory, FIFO or other non-regular file (never followed, never
opened blocking); a path whose directory resolves outside the repository; a
missing file of a section binding (its lines are gone with it), or one whose
directory is gone (the route: ``mkdir -p DIR && forest restore TARGET``, DIR
from the repository root).
Returns: the file's bytes and mode (None: no file there); the capture's path;
whether ``replace_file`` wrote (``still``, asked just before the rename, can
leave the file as it is: a live editor's save wins).
Test: tests/custody/test_special_paths.py, tests/custody/test_restore.py
"""

from __future__ import annotations

import contextlib
import os
import stat as stat_mod
import tempfile
from collections.abc import Callable
from pathlib import Path

from forest_files.custody.content import escapes, read_regular
from forest_files.custody.special import lstat_kind, not_regular
from forest_files.kernel.errors import ForestError
from forest_files.kernel.hashing import hash_body
from forest_files.kernel.paths import CAPTURES_DIR
from forest_files.kernel.shellword import shell_word
from forest_files.kernel.state import ensure_dir, shared_dir
from forest_files.store.base import utc_now


def capture(root: Path, selector: str, text: str) -> Path:
    """Keep divergent text locally (never committed) before it is overwritten."""
    folder = shared_dir(root) / CAPTURES_DIR
    ensure_dir(folder)
    stamp = utc_now().replace(":", "").replace(".", "")
    path = folder / f"{stamp}-{hash_body(text)[:12]}.txt"
    path.write_text(f"# captured before `forest restore {selector}`\n{text}", encoding="utf-8")
    return path


NEW_FILE_MODE = 0o644


def read_for_restore(root: Path, path: str) -> tuple[bytes | None, int]:
    """The file's bytes and mode (None: no file there), or the refusal of restore."""
    full = root / path
    if escapes(root, path.rpartition("/")[0] or "."):
        raise ForestError(
            f"{path}: its directory leads outside the repository through a symlink; "
            "nothing was written — put the real directory back, then restore"
        )
    try:
        st = os.lstat(full)
    except FileNotFoundError:
        return None, NEW_FILE_MODE
    kind = lstat_kind(st.st_mode)
    data = read_regular(str(full)) if kind is None else None
    if data is None:
        what = not_regular(kind) if kind is not None else "could not be read as a regular file"
        raise ForestError(
            f"{path}: {what}; nothing was written — remove it and bring the file back "
            f"(git checkout -- '{path}'), then restore"
        )
    return data, stat_mod.S_IMODE(st.st_mode)


def recreate(root: Path, path: str, selector: str, excludes: tuple[str, ...], ground: str) -> None:
    recreate_allowed(root, path, selector, excludes)
    replace_file(root / path, ground.encode("utf-8"), NEW_FILE_MODE)


def recreate_allowed(root: Path, path: str, selector: str, excludes: tuple[str, ...]) -> None:
    """Refuse to recreate a missing file unless the binding held the whole of it, or
    when its directory is gone (the route: that directory made, from the root)."""
    if selector != path or excludes:
        raise ForestError(
            f"{path}: the file is gone, and with it the place of {selector}; nothing was "
            f"written — bring the file back (git checkout -- '{path}'), then restore"
        )
    if not (root / path).parent.is_dir():
        folder = path.rpartition("/")[0]
        make = _command(("mkdir", "-p"), folder)
        route = f"{make} && {_command(('forest', 'restore'), selector)}"
        raise ForestError(
            f"{path}: its directory is gone; nothing was written — make it, then restore: "
            f"`{route}` (or bring it back from git)"
        )


def _command(words: tuple[str, ...], operand: str) -> str:
    """``WORDS… OPERAND`` quoted for a shell; an operand that starts with ``-`` after ``--``."""
    dash = ("--",) if operand.startswith("-") else ()
    return " ".join(map(shell_word, (*words, *dash, operand)))


def replace_file(
    full: Path, data: bytes, mode: int, *, still: Callable[[], bool] | None = None
) -> bool:
    """``data`` into ``full`` atomically: a temporary file beside it, ``mode``, rename.
    ``still``: asked just before the rename; False leaves ``full`` as it is."""
    fd, tmp = tempfile.mkstemp(dir=full.parent, prefix=f".{full.name}.", suffix=".forest-restore")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, mode)  # mkstemp made it 0600
        if still is not None and not still():
            os.unlink(tmp)
            return False
        os.replace(tmp, full)
        return True
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
