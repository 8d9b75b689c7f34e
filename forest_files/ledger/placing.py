"""Ledger files put in place atomically, from a temp directory outside the ledger.

Stores: a temp file ``<git-dir>/forest/tmp/<target>.<pid>.part`` (``<target>``:
the path under the ledger, %-quoted, so two targets never share a temp name)
written, fsynced and renamed into the ledger in one ``os.replace``. A target
whose directories do not exist yet arrives with them: they are built in
``….<pid>.dir`` around the file and renamed in whole, so an interrupted write
leaves no temp file and no empty directory inside the ledger. The temp
directory lives in the git directory (kernel/state.py), which git never fills
from a clone, on the working tree's filesystem (the rename is atomic there); it
is created link-free and the temp file with ``O_EXCL``, so a planted symlink is
refused, never written through. ``sweep`` removes temp files and staging directories of dead
processes, or an hour old (kernel/pids.py ``sweep_dead``), from that directory only; nothing
inside the ledger is ever deleted here (verify reports strays there).
Refuses: a temp directory on another filesystem than the ledger
(``ForestError``, naming both).
Returns: the directories whose entries changed, for the caller to fsync.
Test: tests/ledger/test_ledger_strays.py
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import re
import shutil
from pathlib import Path

from forest_files.kernel.errors import ForestError, StateError
from forest_files.kernel.paths import TMP_DIR
from forest_files.kernel.pids import sweep_dead
from forest_files.kernel.state import ensure_dir, worktree_dir

_TEMP_NAME = re.compile(r".+\.(?P<pid>[0-9]+)\.(?:part|dir)")
# A writer racing another over the same missing directory retries; more than
# a few rounds means something keeps removing what it builds.
_ATTEMPTS = 8


def temp_dir(ledger_dir: Path | str) -> Path:
    """Where the ledger ``<root>/.forest/ledger``'s files are written first: ``tmp/`` in
    the worktree's state directory inside the git directory, never in the work tree
    (a committed symlink there would redirect the writes). A ledger directory outside
    any git working tree (the library used alone) writes beside itself instead."""
    root = Path(ledger_dir).parent.parent
    try:
        return worktree_dir(root) / TMP_DIR
    except StateError:
        return Path(ledger_dir).parent / TMP_DIR


def _flat(rel: str) -> str:
    """One file name per ledger path (``%`` and ``/`` percent-encoded: reversible)."""
    return rel.replace("%", "%25").replace("/", "%2F")


def sweep(ledger_dir: Path | str, *, now: float | None = None) -> list[str]:
    """Remove stale temp files and staging directories; the names removed."""
    return sweep_dead(temp_dir(ledger_dir), _TEMP_NAME, now=now, dirs=True)


def _write_temp(tmp: str, data: bytes, *, fsync: bool) -> None:
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(tmp, flags, 0o644)
    except FileNotFoundError:  # the temp directory, created on demand
        ensure_dir(Path(os.path.dirname(tmp)))
        fd = os.open(tmp, flags, 0o644)
    except FileExistsError:  # left by a crashed earlier run that had our pid
        os.unlink(tmp)
        fd = os.open(tmp, flags, 0o644)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        if fsync:
            os.fsync(fd)
    finally:
        os.close(fd)


def _missing_top(ledger_dir: Path, directory: Path) -> Path | None:
    """The outermost missing directory between ``ledger_dir`` (included) and ``directory``."""
    top = None
    while not os.path.lexists(directory):
        top = directory
        if directory == ledger_dir or directory.parent == directory:
            break
        directory = directory.parent
    return top


def _replace(src: Path | str, dst: Path, ledger_dir: Path) -> None:
    try:
        os.replace(src, dst)
    except OSError as exc:
        if exc.errno == errno.EXDEV:
            raise ForestError(
                f"{temp_dir(ledger_dir)} is on another filesystem than {ledger_dir}; "
                "keep the git directory on the working tree's filesystem so writes stay atomic"
            ) from None
        raise


def _bring_in(tmp: Path, final: Path, top: Path, stage: Path, ledger_dir: Path) -> bool:
    """Rename ``stage`` (``top``'s directories with the file inside) to ``top``.
    False, with the file back at ``tmp``, when ``top`` appeared meanwhile."""
    shutil.rmtree(stage, ignore_errors=True)  # left by a crashed run with our pid
    inner = stage.joinpath(final.parent.relative_to(top))
    inner.mkdir(parents=True)
    os.replace(tmp, inner / final.name)
    try:
        _replace(stage, top, ledger_dir)
    except BaseException as exc:
        os.replace(inner / final.name, tmp)
        shutil.rmtree(stage, ignore_errors=True)
        if isinstance(exc, OSError) and exc.errno in (errno.EEXIST, errno.ENOTEMPTY):
            return False
        raise
    return True


def place(ledger_dir: Path, final: Path, data: bytes, *, fsync: bool) -> set[Path]:
    """Write ``data`` to ``final`` (a path inside ``ledger_dir``) atomically.

    The temporary name holds the target and this process's id and is created
    with O_EXCL: a leftover from a crashed run is replaced, never written through.
    """
    # Plain strings on the way in: a bulk adoption places ten thousand bodies, and
    # pathlib's parsing would cost more than the system calls.
    ledger, target = os.fspath(ledger_dir), os.fspath(final)
    if not target.startswith(ledger + os.sep):
        raise ValueError(f"{target} is not inside {ledger}")
    rel = target[len(ledger) + 1 :].replace(os.sep, "/")
    stem = os.path.join(_temp_dir_text(ledger), f"{_flat(rel)}.{os.getpid()}")
    tmp = stem + ".part"
    _write_temp(tmp, data, fsync=fsync)
    try:
        for _ in range(_ATTEMPTS):
            try:
                _replace(tmp, final, ledger_dir)
                return {final.parent}
            except FileNotFoundError:
                if not os.path.exists(tmp):
                    raise
            top = _missing_top(ledger_dir, final.parent)
            stage = Path(stem + ".dir")
            if top is not None and _bring_in(Path(tmp), final, top, stage, ledger_dir):
                return _created(top, final)
        raise ForestError(f"could not place {rel}: its directory keeps disappearing")
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


@functools.lru_cache(maxsize=64)
def _temp_dir_text(ledger: str) -> str:
    return os.fspath(temp_dir(ledger))


def _created(top: Path, final: Path) -> set[Path]:
    """``top``'s parent and every directory from ``top`` down to ``final``'s."""
    changed = {top.parent, top}
    directory = final.parent
    while directory != top:
        changed.add(directory)
        directory = directory.parent
    return changed
