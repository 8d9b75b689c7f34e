"""What a path custody names may be: repository-relative, clean, never git's or forest's own.

One rule for every layer that meets a repository path: the ledger's codec (a
binding's path in an act), the index's bindings, adoption, checks and restore.
Standard library only, so the codec and the hook import it for nothing.

Stores: nothing.
Refuses: ``check_repo_path`` raises ``ValueError`` (saying why) for a path that
is not a non-empty string, holds a NUL or control character, is absolute, uses
``\\`` or a drive letter, has ``..``, ``.`` or empty segments, or is special;
``special_path_reason`` says why a path may never be bound — anything under
``.git/`` or ``.forest/`` at the root, a path through a ``.git`` directory at
any depth (git never tracks one), ``forest.toml`` at the root, and a name that
is not valid UTF-8 (a lone surrogate: the ledger records UTF-8 only); names
compared without case, as a case-insensitive filesystem would.
Returns: the path unchanged; a reason (one phrase saying what to do) or None.
Test: tests/custody/test_special_paths.py, tests/ledger/test_ledger_kinds.py
"""

from __future__ import annotations

import re

from forest_files.kernel.paths import CONFIG_NAME as CONFIG

_OWN_DIRS = {
    ".git": "git's own data",
    ".forest": "forest's ledger, index and caches",
}
_CONTROL = re.compile("[\x00-\x1f\x7f]")  # a C0 control character or DEL
# A Windows drive: "C:" alone or followed by a separator. "Q:A.md" is a plain
# relative name git tracks on POSIX, so a letter and a colon alone are not one.
_DRIVE = re.compile(r"[A-Za-z]:(?:[/\\]|\Z)")


def not_utf8_reason(path: str) -> str | None:
    """Why ``path`` cannot be recorded when git holds its name as bytes that are not
    UTF-8 (decoded with surrogateescape: a lone surrogate), or None (fine)."""
    if path.isascii():
        return None
    try:
        path.encode("utf-8")
    except UnicodeEncodeError as exc:
        return (
            f"its name is not valid UTF-8 (a byte that is not UTF-8 at index {exc.start}), "
            "which the ledger cannot record; rename it to a UTF-8 name first (git mv)"
        )
    return None


def special_path_reason(path: str) -> str | None:
    """Why the repository-relative ``path`` may never be bound, or None (fine)."""
    not_utf8 = not_utf8_reason(path)
    if not_utf8 is not None:
        return not_utf8
    first, _, rest = path.partition("/")
    own = _OWN_DIRS.get(first.casefold())
    if own is not None:
        return f"lies inside {first}/ ({own}), which is never bound; bind a file of your own"
    if ".git" in path.casefold().split("/"):  # git never tracks a path through a .git
        return "lies inside a .git directory (git's own data), which is never bound"
    if not rest and first.casefold() == CONFIG:
        return (
            f"is {CONFIG}, the custody configuration, which is never bound; "
            "its changes are judged by the ledger's authority rules"
        )
    return None


def is_drive_path(path: str) -> bool:
    """``path`` starts with a Windows drive (``C:``, ``C:/…``, ``C:\\…``)."""
    return _DRIVE.match(path) is not None


def check_repo_path(path: object) -> str:
    """A repository-relative path with ``/`` separators, or ValueError saying why not."""
    if not isinstance(path, str) or not path:
        raise ValueError("path must be a non-empty string")
    if _CONTROL.search(path):
        raise ValueError("path holds a NUL or control character")
    if path.startswith("/") or "\\" in path or is_drive_path(path):
        raise ValueError("path must be relative to the repository root, with / separators")
    if any(part in ("", ".", "..") for part in path.split("/")):
        raise ValueError("path must not contain '..', '.' or empty segments")
    reason = special_path_reason(path)
    if reason is not None:  # the one rule adoption, checks and restore use too
        raise ValueError(f"{path} {reason}")
    return path


def under(path: str, prefix: str) -> bool:
    """``path`` is ``prefix`` or lies under it (``.`` and "" hold everything)."""
    prefix = prefix.rstrip("/")
    return path == prefix or path.startswith(prefix + "/") or prefix in ("", ".")
