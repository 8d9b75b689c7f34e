"""The files a restore touches: the bound file read safely and replaced atomically.

Stores: a bound file's new bytes written to a temporary file in the same directory
(``Staged``: a short name, ``.forest-<pid>-XXXXXXXX.forest-restore``, so a name of
up to 255 bytes can be restored; written, fsynced, given the file's mode — an
executable stays executable), renamed into place; the file of a missing whole-file
binding recreated from ground (mode 0644; CRLF line ends where ``git checkout``
would write them: the ``eol`` and ``text`` attributes, ``core.autocrlf``,
``core.eol``). ``replace_file`` keeps the capture (restore_capture.py) only once
the new file is ready, and removes it again when the file is left as it was; its
rename happens inside the caller's ``Gate`` (restore_gate.py: the index's write
lock, and the files whose ground or binding moved on meanwhile, left as they are).
Refuses (one-line ``ForestError``, nothing written): a bound path holding a
symlink, directory, FIFO or other non-regular file (never followed, never
opened blocking); a path whose directory resolves outside the repository; a
missing file of a section binding (its lines are gone with it), or one whose
directory is gone (the route: ``mkdir -p DIR && forest restore TARGET``, DIR
from the repository root); a missing file a sparse checkout leaves out
(restore_sparse.py: the route brings it into the sparse set); a file that cannot
be written (the path, the reason, and the fix: free space when the disk, a quota
or a file-size limit refused it, else kernel/access.py's ``access_fix`` naming its
folder and it, quoted; no temporary file or capture left behind).
Returns: the file's bytes and mode (None: no file there); the file's text at HEAD
(``committed_text``, read when asked); whether ``replace_file``
wrote (``written``), or left the file because ``still``, asked just before the
rename, said no (``changed``: a live editor's save wins) or the gate did
(``left``), and its capture.
Test: tests/custody/test_special_paths.py, tests/custody/test_restore.py,
tests/custody/test_restore_commit.py, tests/custody/test_restore_file_style.py,
tests/custody/test_restore_gone_eol.py, tests/custody/test_access_beyond_modes_restore.py
"""

from __future__ import annotations

import contextlib
import os
import stat as stat_mod
import tempfile
from collections.abc import Callable, Collection
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path

from forest_files.custody.content import escapes, read_regular
from forest_files.custody.restore_sparse import refuse_left_out
from forest_files.custody.special import lstat_kind, not_regular
from forest_files.kernel.access import access_fix
from forest_files.kernel.errors import FREE_SPACE, ForestError, no_space
from forest_files.kernel.shellword import (
    command_text,
    forest_step,
    git_step,
)

# Entered just before the first rename and held until the last; it yields the paths
# to leave as they are (their ground or binding moved on since the write was decided).
Gate = Callable[[], AbstractContextManager[Collection[str]]]


def open_gate() -> AbstractContextManager[Collection[str]]:
    return nullcontext(frozenset())


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


def committed_text(root: Path, path: str) -> Callable[[], str | None]:
    """The file's text at HEAD, read when asked (once): None where HEAD holds no such
    file (no commit yet, a new file, not text). A restore asks it only to tell a heading
    an edit put in a file from one the file was committed with (restore_cut_short.py)."""
    from forest_files import gitio

    got: list[str | None] = []

    def read() -> str | None:
        if not got:
            try:
                data = gitio.blobs_at(root, "HEAD", [path])[path]
            except (ForestError, ValueError):  # no HEAD, or a name cat-file cannot take
                data = None
            got.append(None if data is None else data.decode("utf-8", "replace"))
        return got[0]

    return read


def recreate(root: Path, path: str, selector: str, excludes: tuple[str, ...], ground: str) -> None:
    recreate_allowed(root, path, selector, excludes)
    replace_file(root, path, recreated(root, path, ground), NEW_FILE_MODE)


def recreated(root: Path, path: str, ground: str) -> bytes:
    """The bytes of a missing file written again: CRLF line ends where ``git checkout``
    would write them (gitio/eol.py: the ``text`` and ``eol`` attributes, then
    ``core.autocrlf`` and ``core.eol``), else ground as it is (LF, no BOM: no file is
    left to say otherwise)."""
    from forest_files import gitio

    crlf = gitio.checkout_crlf(root, path)
    return (ground.replace("\n", "\r\n") if crlf else ground).encode("utf-8")


def recreate_allowed(root: Path, path: str, selector: str, excludes: tuple[str, ...]) -> None:
    """Refuse to recreate a missing file unless the binding held the whole of it, or
    when its directory is gone (the route: that directory made, from the root), or
    when git skips it in the work tree (restore_sparse.py: a sparse checkout)."""
    refuse_left_out(root, path, selector)
    if selector != path or excludes:
        raise ForestError(
            f"{path}: the file is gone, and with it the place of {selector}; nothing was "
            f"written — {_bring_back(root, path)}, then restore"
        )
    if not (root / path).parent.is_dir():
        folder = path.rpartition("/")[0]
        dash = ("--",) if folder.startswith("-") else ()  # never read as an option
        make = command_text(("mkdir", "-p", *dash, folder))
        route = f"{make} && {command_text(forest_step('restore', selector))}"
        raise ForestError(
            f"{path}: its directory is gone; nothing was written — make it, then restore: "
            f"`{route}` (or bring it back from git)"
        )


def _bring_back(root: Path, path: str) -> str:
    """How to bring a gone file back from where git still holds it: the index, HEAD,
    or the commit before the one that deleted it."""
    from forest_files import gitio

    rev = gitio.holding_rev(root, path)
    if rev is None:
        return f"no commit holds {path}: write it again"
    step = git_step("checkout", *((rev,) if rev else ()), "--", path)
    before = (
        f": the file as it stood before commit {rev[:-1][:12]} deleted it"
        if rev[-1:] == "^"
        else ""
    )
    return f"bring the file back ({command_text(step)}{before})"


# The temporary file beside a restored file: ".forest-<pid>-XXXXXXXX.forest-restore"
# (older versions: ".forest-XXXXXXXX.forest-restore"); the writer's pid lets the next
# restore tell a leftover of a killed one from a file still being written
# (restore_leftovers.py).
TMP_PREFIX = ".forest-"
TMP_SUFFIX = ".forest-restore"


class Staged:
    """A file's new bytes in a temporary file beside it (written, fsynced, given its
    mode), waiting for the rename that puts them in place."""

    def __init__(self, root: Path, path: str, data: bytes, mode: int) -> None:
        self.path = path
        self.full = root / path
        fd, self.tmp = -1, ""
        try:
            # A short name of fixed length, never the file's own name with more
            # around it: a name near NAME_MAX (255 bytes) could then never be
            # restored. mkstemp opens it O_CREAT|O_EXCL|O_NOFOLLOW.
            fd, self.tmp = tempfile.mkstemp(
                dir=self.full.parent, prefix=f"{TMP_PREFIX}{os.getpid()}-", suffix=TMP_SUFFIX
            )
            with os.fdopen(fd, "wb") as fh:
                fd = -1
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            os.chmod(self.tmp, mode)  # mkstemp made it 0600
        except OSError as exc:
            if fd >= 0:
                os.close(fd)
            self.discard()
            raise ForestError(
                f"{path}: its new text cannot be written beside it ({reason(exc)}); nothing "
                f"was restored — {fix_for(exc, self.full)}"
            ) from exc

    def commit(self) -> None:
        """Rename into place; an ``OSError`` is the caller's to report."""
        os.replace(self.tmp, self.full)
        self.tmp = ""

    def discard(self) -> None:
        if self.tmp:
            with contextlib.suppress(OSError):
                os.unlink(self.tmp)
            self.tmp = ""


def reason(exc: OSError) -> str:
    return exc.strerror or type(exc).__name__


def fix_for(exc: OSError, full: Path) -> str:
    """The fix a write into ``full`` (the file's absolute path) refused with ``exc``
    calls for: room for a full disk, a quota or a file-size limit (making anything
    writable would not help), else kernel/access.py's one advice for its folder and
    it (``access_fix``: a ``chmod``/``chown``, or what lies beyond the modes)."""
    fix = FREE_SPACE if no_space(exc) else access_fix(os.fspath(full), exc)
    return f"{fix}, then run the same command again"


def not_replaced(root: Path, path: str, exc: OSError) -> str:
    """The refusal of a rename into ``path`` that failed (nothing left changed)."""
    fix = fix_for(exc, root / path)
    return f"{path}: cannot be replaced ({reason(exc)}); nothing was restored — {fix}"


def replace_file(
    root: Path,
    path: str,
    data: bytes,
    mode: int,
    *,
    still: Callable[[], bool] | None = None,
    keep: Callable[[], Path] | None = None,
    gate: Gate = open_gate,
) -> tuple[str, Path | None]:
    """``data`` into ``root/path`` atomically: a temporary file beside it, ``mode``,
    rename. ``keep`` (the capture) runs once the new file is ready, before the rename;
    inside ``gate``, a path it names (``left``) or ``still`` saying False (``changed``)
    leaves the file as it is. Returns ``written``, ``changed`` or ``left``, and the
    capture kept (none when nothing was written). A file that cannot be written is a
    ``ForestError``, with no temporary file or capture left behind."""
    staged = Staged(root, path, data, mode)
    kept: Path | None = None
    try:
        kept = keep() if keep is not None else None
        with gate() as stale:
            outcome = "left" if path in stale else "written"
            if outcome == "written" and still is not None and not still():
                outcome = "changed"
            if outcome != "written":
                drop(kept)
                return outcome, None
            try:
                staged.commit()
            except OSError as exc:
                raise ForestError(not_replaced(root, path, exc)) from exc
        return outcome, kept
    except BaseException:
        drop(kept)
        raise
    finally:
        staged.discard()


def drop(kept: Path | None) -> None:
    """Remove a capture of text that stayed where it was."""
    if kept is not None:
        with contextlib.suppress(OSError):
            kept.unlink()
