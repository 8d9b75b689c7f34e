"""Every cache record this machine keeps for itself: one format, one atomic write, one MAC.

A cache is a claim this machine made about content it read (a file's hash at a
stat signature, a section's offsets in a blob, a clean verdict, a binding map,
a built view). Records live in the state directories inside the git directory
(kernel/state.py), so git never brings one; and each carries a MAC under a
random key created on first use in ``<git-common-dir>/forest/mac.key`` (never
in the work tree, never transferred), so a record that another program planted
or that arrived by any other way is not believed: a record whose magic, kind,
format or MAC does not check is ignored (the caller computes afresh and writes
a new one). Only a record whose MAC verifies is decoded (``marshal``).

What the MAC does not stop: anyone who can read ``.git/`` can read the key and
forge a record, as they could edit the ledger's working files or the hooks; a
local administrator can do anything. It stops state that arrives through git
and state planted without the key.

Record: ``MAGIC`` (8 bytes), kind length (1 byte), kind (ASCII), MAC (32 bytes,
keyed BLAKE2b over kind and payload), payload (``marshal`` of the value).
Files are created ``O_EXCL|O_NOFOLLOW`` under a temporary name beside the
record and renamed over it, both in a descriptor of the folder, which in a state
directory is opened from the git directory with no link followed: a symlink is never
written through or read, nor a folder its owner swapped for one. Created by
root in a git directory another user owns, the file is that user's before the rename
(kernel/handover.py ``hand_over``).

Uses ``os``, ``marshal`` and BLAKE2b only: the warm ``forest check`` loads it. The
MAC is ``_blake2.blake2b`` (what ``hashlib.blake2b`` is, OpenSSL or not), checked by
``_operator._compare_digest`` (``hmac.compare_digest`` without OpenSSL; constant
time): ``import hashlib`` or ``hmac`` loads OpenSSL's ``_hashlib`` (~2 ms of every warm
check, ``forest status`` and the pre-commit hook), which nothing here uses
(``file_digest`` imports hashlib for its SHA-256).

Stores: the record files callers name; ``mac.key`` in the shared state directory.
``sweep_leftovers`` removes the temp files of writers that are gone (their pid runs
nothing here, or an hour old), never a live writer's.
Refuses: nothing (a bad record reads as None; a failed write returns False).
Returns: decoded values, or None.
Test: tests/kernel/test_cache.py, tests/doors/test_hooks_install_leftovers.py
"""

from __future__ import annotations

import marshal
import os
import stat
from _operator import _compare_digest as compare_digest

try:
    from _blake2 import blake2b  # hashlib.blake2b is this very type
except ImportError:  # an interpreter built without it: hashlib's, whatever it is
    from hashlib import blake2b

from forest_files.kernel.handover import hand_over
from forest_files.kernel.held import hold
from forest_files.kernel.paths import STATE_NAME, state_git_dir
from forest_files.kernel.state import ensure_dir, git_dir_paths

TYPE_CHECKING = False  # typing itself is not imported: the warm check pays for it
if TYPE_CHECKING:
    from typing import BinaryIO

    from forest_files.kernel.held import HeldFolder

MAGIC = b"FFCACHE1"
KEY_NAME = "mac.key"
_KEY_BYTES = 32
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # a FIFO's open returns at once: fstat then says
_KEYS: dict[str, bytes] = {}  # common state directory -> its key, read once per process


def read(path: str | os.PathLike[str], kind: str) -> object | None:
    """The value of the record at ``path`` if it is a ``kind`` record this clone wrote."""
    try:
        with open_record(path) as fh:
            data = fh.read()
    except OSError:
        return None
    return decode(os.fspath(path), kind, data)


def open_record(path: str | os.PathLike[str]) -> BinaryIO:
    """A record file opened for reading, never through a symlink, never waiting on a
    FIFO the git directory's owner put there (OSError for either, or any non-file)."""
    fd = os.open(path, os.O_RDONLY | _NOFOLLOW | _NONBLOCK)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise OSError(f"{os.fspath(path)}: not a regular file")
    return os.fdopen(fd, "rb")


def decode(path: str, kind: str, data: bytes) -> object | None:
    """``read`` of bytes already in hand (``path`` names the record, for its key)."""
    name = kind.encode("ascii")
    head = len(MAGIC) + 1 + len(name)
    if data[: len(MAGIC)] != MAGIC or data[len(MAGIC)] != len(name):
        return None
    if data[len(MAGIC) + 1 : head] != name:
        return None
    # The payload as a view, not a copy: a binding map runs to megabytes.
    mac, payload = data[head : head + 32], memoryview(data)[head + 32 :]
    key = _key(path)
    if key is None or not compare_digest(mac, _mac(key, name, payload)):
        return None
    try:
        value: object = marshal.loads(payload)
    except (EOFError, ValueError, TypeError):
        return None
    return value


def write(path: str | os.PathLike[str], kind: str, value: object) -> bool:
    """Write ``value`` as a ``kind`` record at ``path``, atomically; False if it could not."""
    target = os.fspath(path)
    try:
        ensure_dir(os.path.dirname(target))
        key = _key(target, create=True)
        if key is None:
            return False
        name = kind.encode("ascii")
        payload = marshal.dumps(value)  # type: ignore[arg-type]  # ValueError if not
        data = b"".join((MAGIC, bytes((len(name),)), name, _mac(key, name, payload), payload))
        replace_atomically(target, data)
    except (OSError, ValueError):
        return False
    return True


def forget(path: str | os.PathLike[str]) -> None:
    """Remove the record at ``path`` (absent is fine), in its folder held as a write
    holds it (kernel/held.py ``hold``): a folder its owner swapped for a link is never
    removed through (nothing is removed then)."""
    folder, name = os.path.split(os.fspath(path))
    try:
        with hold(folder or ".") as held:
            held.unlink(name, missing_ok=True)
    except OSError:
        pass


def replace_atomically(target: str, data: bytes, *, fsync: bool = False, mode: int = 0o600) -> None:
    """``data`` at ``target``: a temp file beside it (``O_EXCL|O_NOFOLLOW``, created
    with ``mode`` less the umask), renamed in. Both in one hold of the folder
    (kernel/held.py ``hold``), which in a state directory is opened from the git
    directory with no link followed: a folder the directory's owner swapped for a link
    after ``ensure_dir`` looked is never written through (OSError)."""
    folder, name = os.path.split(target)
    with hold(folder or ".") as held:
        _replace_in(held, name, data, fsync, mode, target)
        if fsync and held.at is not None:
            try:  # noqa: SIM105  (as fsync_dir does, not strict)
                os.fsync(held.at)
            except OSError:
                pass
        elif fsync:
            fsync_dir(folder)


def _replace_in(
    held: HeldFolder, name: str, data: bytes, fsync: bool, mode: int, full: str
) -> None:
    """``replace_atomically`` of ``name`` in the folder ``held``, ``full`` its path (the
    hand-over finds it there)."""
    tmp = f"{name}.{os.getpid()}.tmp"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW
    try:
        fd = held.open(tmp, flags, mode)
    except FileExistsError:  # left by a crashed earlier process that had our pid
        held.unlink(tmp)
        fd = held.open(tmp, flags, mode)
    try:
        hand_over(fd, f"{full}.{os.getpid()}.tmp")  # root's, in another user's git dir
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            if fsync:
                fh.flush()
                os.fsync(fh.fileno())
        held.replace(tmp, name)
    except BaseException:
        try:  # noqa: SIM105  (contextlib stays off the warm check's import list)
            held.unlink(tmp)
        except OSError:
            pass
        raise


def sweep_leftovers(target: str) -> list[str]:
    """Remove the temp files ``replace_atomically`` left beside ``target``
    (``TARGET.<pid>.tmp``, a writer killed between its write and its rename) whose
    writer is gone (kernel/pids.py ``sweep_dead``); the names removed."""
    import re

    from forest_files.kernel.pids import sweep_dead

    folder, base = os.path.split(target)
    return sweep_dead(folder or ".", re.compile(re.escape(base) + r"\.(?P<pid>[0-9]{1,10})\.tmp"))


def fsync_dir(directory: str | os.PathLike[str], *, strict: bool = False) -> None:
    """Make a rename in ``directory`` durable: the one directory fsync of forest-files.
    A no-op where directories cannot be opened (not POSIX); elsewhere an error is
    raised when ``strict`` (the ledger) and ignored otherwise (caches, rebuildable)."""
    if os.name != "posix":
        return
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        if strict:
            raise
        return
    try:
        os.fsync(fd)
    except OSError:
        if strict:
            raise
    finally:
        os.close(fd)


def file_digest(path: str | os.PathLike[str]) -> str | None:
    """SHA-256 of a file's bytes (None if it cannot be read, is a symlink or no file):
    what a record about a larger file (a built view) is keyed by."""
    try:
        opened = open_record(path)
    except OSError:
        return None
    import hashlib

    digest = hashlib.sha256()
    try:
        with opened as fh:
            while chunk := fh.read(1 << 20):
                digest.update(chunk)
    except OSError:
        return None
    return digest.hexdigest()


def _mac(key: bytes, name: bytes, payload: bytes | memoryview) -> bytes:
    mac = blake2b(key=key, digest_size=32)
    mac.update(bytes((len(name),)) + name)
    mac.update(payload)
    return mac.digest()


def _common_state(path: str) -> str | None:
    """The shared state directory of the clone whose state holds ``path``."""
    git_dir = state_git_dir(path)
    if git_dir is None:
        return None
    commondir = os.path.join(git_dir, "commondir")
    if os.path.isfile(commondir):
        with open(commondir, encoding="utf-8", errors="surrogateescape") as fh:
            git_dir = os.path.normpath(os.path.join(git_dir, fh.read().strip()))
    return os.path.join(git_dir, STATE_NAME)


def _key(path: str, *, create: bool = False) -> bytes | None:
    state = _common_state(path)
    if state is None:
        return None
    known = _KEYS.get(state)
    if known is not None:
        return known
    key_path = os.path.join(state, KEY_NAME)
    key = _read_key(key_path)
    if key is None and create:
        key = _create_key(state, key_path)
    if key is not None:
        _KEYS[state] = key
    return key


def _read_key(key_path: str) -> bytes | None:
    try:
        with open_record(key_path) as fh:
            key = fh.read(_KEY_BYTES + 1)
    except OSError:  # absent, a symlink, a directory: no key, so no record is believed
        return None
    return key if len(key) == _KEY_BYTES else None


def _create_key(state: str, key_path: str) -> bytes | None:
    """A new random key, published with ``link`` so a racing process never reads half
    of one: the loser of the race reads the winner's key. Made, linked and its temp
    name removed in one hold of the state folder (kernel/held.py ``hold``): a folder its
    owner swapped for a link after ``ensure_dir`` looked never receives it (no key)."""
    ensure_dir(state)
    tmp = f"{KEY_NAME}.{os.getpid()}.tmp"
    try:
        with hold(state) as held:
            held.unlink(tmp, missing_ok=True)
            fd = held.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o600)
            hand_over(fd, os.path.join(state, tmp))
            with os.fdopen(fd, "wb") as fh:
                fh.write(os.urandom(_KEY_BYTES))
                fh.flush()
                os.fsync(fh.fileno())
            try:
                held.link(tmp, KEY_NAME)
            except FileExistsError:
                pass
            finally:
                held.unlink(tmp, missing_ok=True)
    except OSError:
        return None  # swapped, or not writable: no key, so no record is believed
    return _read_key(key_path)


def verify_key_dir(root: str | os.PathLike[str]) -> str:
    """Where the key of the clone at ``root`` lives (for docs and tests)."""
    return os.path.join(git_dir_paths(root)[1], STATE_NAME, KEY_NAME)
