"""The crash log of an internal error, and the one line that names it.

An internal error is an exception that is not a ForestError: a bug, or a state
nothing maps (a directory where a file belongs). The boundary (boundary.py)
prints one line naming this file instead of a traceback.

Stores: one file per internal error, ``<git-common-dir>/forest/crash/<UTC
time, to the microsecond>-<pid>.log`` (kernel/state.py's shared directory; ``0600``, created
exclusively and never through a symlink, given to the git directory's owner when root
writes it there (kernel/handover.py); the newest ``KEEP`` kept), made and pruned in the
crash folder opened from the git directory with no link followed (kernel/held.py
``hold``: a folder swapped for a link since is never written or pruned through). It holds
the forest-files version, the command and its command line (each ``--words``
value replaced by its length), the Python version and the traceback as Python
formats it: no local variable's value, so no file body beyond what an
exception's own message holds.
Refuses: nothing. Without a git directory at or above the command's repository
(or one it cannot write in) no log is written: the line then carries the
traceback's last line and says why there is no log.
Returns: ``internal_line`` (the line after ``forest:``), ``write_crash_log``.
Test: tests/doors/test_boundary.py, tests/doors/test_state_of_another_owner.py,
tests/doors/test_crashlog_swapped.py
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from forest_files.kernel.handover import hand_over
from forest_files.kernel.held import HeldFolder, hold
from forest_files.kernel.paths import CRASH_DIR  # under kernel/state.py's shared_dir

KEEP = 20  # crash logs kept; the oldest beyond are removed when one is written
MAX_LAST_LINE = 400  # characters of the exception's own line when no log was written
_WORDS = "--words"


class NoGitDir(Exception):
    """No ``.git`` at or above the command's repository: nowhere to keep a log."""


def internal_line(exc: BaseException, repo: str | Path, command: str, argv: Sequence[str]) -> str:
    """The line (after ``forest: ``) for an internal error; writes its crash log."""
    kind = type(exc).__name__
    try:
        path = write_crash_log(exc, repo, command, argv)
    except Exception as why:  # no log: never a second error in place of the first
        return (
            f"internal error: {last_line(exc)}; no crash log written ({_why(why)}); "
            "please report it"
        )
    from forest_files.kernel.shellword import shell_word

    return f"internal error ({kind}); details in {shell_word(str(path))}; please report it"


def write_crash_log(
    exc: BaseException, repo: str | Path, command: str, argv: Sequence[str]
) -> Path:
    """Write ``exc``'s crash log in the git directory of ``repo``; its absolute path."""
    from forest_files.kernel.state import ensure_dir, shared_dir

    folder = shared_dir(worktree_root(repo)) / CRASH_DIR
    ensure_dir(folder)
    with hold(folder) as held:  # a crash folder swapped for a link since: OSError, no log
        path = _create(held, report(exc, command, argv).encode("utf-8", "backslashreplace"))
        _prune(held)
    return path


def worktree_root(repo: str | Path) -> Path:
    """The nearest directory at or above ``repo`` holding a ``.git`` (as git finds it)."""
    start = Path(os.path.abspath(repo))
    if not start.is_dir():
        start = start.parent
    for folder in (start, *start.parents):
        if os.path.lexists(folder / ".git"):
            return folder
    named = os.environ.get("GIT_DIR")
    if named and os.path.isdir(named):  # a bare repository's hook, or a work tree kept
        return start  # apart: kernel/state.py takes the git directory from GIT_DIR
    raise NoGitDir("not inside a git repository")


def report(exc: BaseException, command: str, argv: Sequence[str]) -> str:
    """The crash log's text: who, what, where, and the traceback (never locals)."""
    import shlex
    import traceback

    from forest_files import __version__

    head = [
        "forest-files crash log: an internal error; please attach this file to a report.",
        f"forest-files: {__version__}",
        f"command: {command}",
        f"command line: {shlex.join(redacted(argv))}",
        f"python: {' '.join(sys.version.split())} ({sys.implementation.name}, {sys.platform})",
        f"time: {time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())}",
        f"pid: {os.getpid()}",
        "",
    ]
    return "\n".join(head) + "\n" + "".join(traceback.format_exception(exc))


def redacted(argv: Sequence[str]) -> list[str]:
    """``argv`` with each ``--words`` value replaced by its length (words are a person's
    text, kept out of a file meant to be attached to a bug report)."""
    out: list[str] = []
    hide = False
    for arg in argv:
        if hide:
            out.append(f"<{len(arg)} characters>")
        elif arg.startswith(_WORDS + "="):
            out.append(f"{_WORDS}=<{len(arg) - len(_WORDS) - 1} characters>")
        else:
            out.append(arg)
        hide = not hide and arg == _WORDS
    return out


def last_line(exc: BaseException) -> str:
    """The traceback's last line (``KeyError: 'x'``), on one line and bounded."""
    import traceback

    text = " ".join("".join(traceback.format_exception_only(exc)).split())
    return text if len(text) <= MAX_LAST_LINE else text[: MAX_LAST_LINE - 1] + "…"


def _why(why: BaseException) -> str:
    from forest_files.kernel.errors import ForestError

    if isinstance(why, (NoGitDir, ForestError)):
        return " ".join(str(why).split())
    if isinstance(why, OSError):
        return f"{why.filename or 'the git directory'}: {why.strerror or type(why).__name__}"
    return type(why).__name__


def _create(held: HeldFolder, data: bytes) -> Path:
    """A new file in the folder ``held`` (``0600``, never an existing one, never a
    symlink); its path."""
    now = time.time()
    stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime(now)) + f".{int(now % 1 * 1e6):06d}Z"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    for n in range(100):
        name = f"{stamp}-{os.getpid()}{f'-{n}' if n else ''}.log"
        try:
            fd = held.open(name, flags | getattr(os, "O_CLOEXEC", 0), 0o600)
        except FileExistsError:
            continue
        path = Path(held.path) / name
        hand_over(fd, str(path))  # root's, in another user's git directory: theirs
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        return path
    raise FileExistsError(f"{held.path}: no free crash log name for {stamp}-{os.getpid()}")


def _prune(held: HeldFolder) -> None:
    """Keep the newest ``KEEP`` logs (by modification time, then name), listed and
    removed in the folder ``held``; best effort."""
    try:
        logs = [e for e in held.scandir() if e.name.endswith(".log")]
        logs.sort(key=lambda e: (e.stat(follow_symlinks=False).st_mtime_ns, e.name))
        for old in logs[:-KEEP]:
            held.unlink(old.name)  # unlink never follows a symlink
    except OSError:
        pass
