"""Reading one working-tree path safely: a regular file's bytes, never through a link.

Stores: nothing.
Refuses: to read anything but a regular file (a symlink is not followed, a FIFO
does not block), and names a path whose directory resolves outside the
repository (``escapes``, ``dir_inside``).
Returns: ``read_regular`` bytes (None when not a regular file); ``read_as_blob``, the
same when they are a given git blob (hashed as git names it); ``path_variant``,
the clause naming a same-but-for-normalisation-or-case name; the open flags
(``NOFOLLOW``, ``READ_NOFOLLOW``) the working-tree source uses.
Test: tests/custody/test_special_paths.py, tests/check/test_check.py,
tests/check/test_checkout_rewrite_commit.py
"""

from __future__ import annotations

import os
import stat as stat_mod
from collections.abc import Iterable
from pathlib import Path

# Open for reading without following a final symlink (refused with ELOOP, then
# handled by ``WorktreeSource._open_slow``). Without O_NOFOLLOW (Windows) every path
# takes the lstat-first ``_open_slow``. O_NONBLOCK: a FIFO put where a bound file was must
# not block the open (its fstat then says it is not a regular file); it changes
# nothing for a regular file.
NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
READ_NOFOLLOW = os.O_RDONLY | NOFOLLOW | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)


def path_variant(path: str, names: Iterable[str]) -> str | None:
    """How one of ``names`` (full repository-relative paths) differs from ``path``
    when it is the same name but for Unicode normalisation or letter case, as a
    clause for a finding or refusal; None when none is."""
    import unicodedata  # only for a path that is missing

    from forest_files.kernel.shellword import shell_word
    from forest_files.text.selector import render_path
    from forest_files.text.unicode_twin import form_of

    def nfc(text: str) -> str:
        return unicodedata.normalize("NFC", text)

    want = nfc(path)
    folded = want.casefold()
    for other in names:
        if other == path:
            continue
        got = nfc(other)
        if got == want:
            return (
                f"only {shell_word(render_path(other))} ({other!a}) stands there: the same "
                f"name as {path!a} ({form_of(path)}) in another Unicode normalisation "
                f"({form_of(other)}), a different path to git"
            )
        if got.casefold() == folded:
            return (
                f"only {other!r} stands there: it differs in letter case only (a case-only "
                "rename), a different path to git"
            )
    return None


def read_regular(full: str) -> bytes | None:
    """The bytes of the regular file at ``full``; None when it is anything else (a
    symlink is not followed, a FIFO does not block) or cannot be read."""
    try:
        fd = os.open(full, READ_NOFOLLOW)
    except OSError:
        return None
    try:
        if not stat_mod.S_ISREG(os.fstat(fd).st_mode):
            return None
        parts = []
        while chunk := os.read(fd, 1 << 20):
            parts.append(chunk)
        return b"".join(parts)
    except OSError:
        return None
    finally:
        os.close(fd)


def read_as_blob(full: str, blob: str, limit: int = 1 << 20) -> bytes | None:
    """``read_regular``'s bytes when they are the git blob ``blob`` (its id, SHA-1 or
    SHA-256 by length, hashed as git hashes an object): a file git wrote and nobody
    edited. None otherwise, or when the file is larger than ``limit``."""
    import hashlib

    try:
        if os.lstat(full).st_size > limit:
            return None
    except OSError:
        return None
    data = read_regular(full)
    if data is None:
        return None
    try:
        digest = hashlib.new("sha256" if len(blob) == 64 else "sha1", usedforsecurity=False)
    except ValueError:  # a build without the algorithm: git reads the blob instead
        return None
    digest.update(b"blob %d\0" % len(data))
    digest.update(data)
    return data if digest.hexdigest() == blob else None


def open_dir(root: Path) -> int | None:
    """A descriptor of the directory ``root`` to open paths under, or None where the
    system opens no path relative to one (then each path is joined to ``root``)."""
    if os.open not in os.supports_dir_fd:
        return None
    try:
        return os.open(root, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return None


def escapes(root: Path, path: str, resolved_root: Path | None = None) -> bool:
    """True when ``root/path`` resolves (through symlinks) outside ``root``
    (``resolved_root``: ``root.resolve()`` when the caller holds it already)."""
    target = (root / path).resolve()
    return not target.is_relative_to(root.resolve() if resolved_root is None else resolved_root)


def dir_inside(
    root: Path, parent: str, memo: dict[str, bool], resolved_root: Path | None = None
) -> bool:
    """``parent`` (repository-relative) resolves inside ``root``; memoised in ``memo``
    so a regular file in it costs one ``lstat``, not a walk of every component."""
    inside = memo.get(parent)
    if inside is None:
        inside = memo[parent] = not escapes(root, parent or ".", resolved_root)
    return inside
